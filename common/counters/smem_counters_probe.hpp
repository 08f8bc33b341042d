// A kernel whose shared-memory counts are known, to prove that counters can be read.
#pragma once

namespace gpu {

/// Launches one warp that stores one word per lane to shared memory and loads it back
/// (conflict-free): exactly one shared store and one shared load instruction, one wavefront
/// each. Checks the launch.
void launch_counter_probe();

}  // namespace gpu
