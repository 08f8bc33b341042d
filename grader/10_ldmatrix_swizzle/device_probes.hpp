// Chapter 10: what the GPU checks run on the device (work in progress: the tensor-core tile of
// exercise 3 and its launch come here).
#pragma once

namespace ch10::probes {}  // namespace ch10::probes
