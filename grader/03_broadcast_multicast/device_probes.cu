// Chapter 03 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/03_broadcast_multicast/device_probes.hpp"

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/kernel_module.hpp"
#include "grader/harness/speed.hpp"

namespace ch03::probes {

namespace probe_code {
// As many blocks as fit on the GPU at once for this table's shared memory (a larger table
// means fewer blocks per SM), each looping over the keys: no half-empty second wave.
template <typename Table>
int blocks_per_sm() {
  int per_sm = 0;
  GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, gpu::launched(lookup_kernel<Table>), kThreads,
      static_cast<size_t>(Table::words()) * 4));
  return per_sm;
}

template <typename Table>
void launch(const unsigned* table, const unsigned char* keys, unsigned* out, int n) {
  int device = 0, sms = 0;
  const size_t shared = static_cast<size_t>(Table::words()) * 4;
  GPU_CHECK(cudaGetDevice(&device));
  GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int per_sm = blocks_per_sm<Table>();
  const int blocks =
      std::max(1, std::min(std::max(per_sm, 1) * sms, (n + kThreads - 1) / kThreads));
  gpu::launch(lookup_kernel<Table>, blocks, kThreads, shared, table, keys, out, n);
}
}  // namespace probe_code
using namespace probe_code;  // external names: a judge finds these kernels by name

std::vector<unsigned> lookups(const std::vector<unsigned>& table,
                              const std::vector<unsigned char>& keys, bool your_table) {
  gpu::DeviceBuffer<unsigned> device_table(table);
  gpu::DeviceBuffer<unsigned char> device_keys(keys);
  gpu::DeviceBuffer<unsigned> out(keys.size());
  out.fill_bytes(0xee);
  const int n = static_cast<int>(keys.size());
  if (your_table) {
    launch<YourTable>(device_table.get(), device_keys.get(), out.get(), n);
    GPU_CHECK_KERNEL("lookup_kernel<YourTable>");
  } else {
    launch<NaiveTable>(device_table.get(), device_keys.get(), out.get(), n);
    GPU_CHECK_KERNEL("lookup_kernel<NaiveTable>");
  }
  return out.download();
}

LookupTimes time_lookups(const std::vector<unsigned>& table,
                         const std::vector<unsigned char>& keys) {
  gpu::DeviceBuffer<unsigned> device_table(table);
  gpu::DeviceBuffer<unsigned char> device_keys(keys);
  gpu::DeviceBuffer<unsigned> out(keys.size());
  const int n = static_cast<int>(keys.size());
  LookupTimes t;
  t.yours_blocks_per_sm = blocks_per_sm<YourTable>();
  t.naive_blocks_per_sm = blocks_per_sm<NaiveTable>();
  t.yours_ms =
      grader::time_kernel(
          "lookup_kernel<YourTable>",
          [&] { launch<YourTable>(device_table.get(), device_keys.get(), out.get(), n); }, 0, 21)
          .median_ms;
  t.naive_ms =
      grader::time_kernel(
          "lookup_kernel<NaiveTable>",
          [&] { launch<NaiveTable>(device_table.get(), device_keys.get(), out.get(), n); }, 0, 21)
          .median_ms;
  return t;
}

}  // namespace ch03::probes
