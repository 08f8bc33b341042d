// Chapter 03: what the GPU checks run on the device, callable from host code.
#pragma once

#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"

namespace ch03::probes {

/// lookup_kernel<YourTable> (or <NaiveTable>) on `keys`; one output per key.
std::vector<unsigned> lookups(const std::vector<unsigned>& table,
                              const std::vector<unsigned char>& keys, bool your_table);

/// Median milliseconds of lookup_kernel with your table and the naive one on `keys`, and the
/// blocks per SM the occupancy API allows each (the launch fills exactly that many).
struct LookupTimes {
  double yours_ms = 0, naive_ms = 0;
  int yours_blocks_per_sm = 0, naive_blocks_per_sm = 0;
};
LookupTimes time_lookups(const std::vector<unsigned>& table,
                         const std::vector<unsigned char>& keys);

}  // namespace ch03::probes
