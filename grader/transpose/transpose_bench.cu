#include "grader/transpose/transpose_bench.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/random_fill.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/parallel_rows.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/random_values.hpp"
#include "grader/harness/speed.hpp"

namespace transpose {

namespace {

// One thread per element, no shared memory: coalesced reads, stride-`rows` writes.
__global__ void naive_transpose_kernel(const float* in, float* out, int rows, int cols) {
  const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int r = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (r < rows && c < cols)
    out[static_cast<long long>(c) * rows + r] = in[static_cast<long long>(r) * cols + c];
}

void launch_naive(const float* in, float* out, int rows, int cols) {
  naive_transpose_kernel<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(in, out, rows,
                                                                                  cols);
}

// `measure(one_launch)` of `launch` transposing one `side` x `side` tile (one block).
template <typename Measure>
auto on_one_tile(const Launch& launch, int side, const Measure& measure) {
  gpu::DeviceBuffer<float> in(static_cast<size_t>(side) * side);
  gpu::DeviceBuffer<float> out(static_cast<size_t>(side) * side);
  in.fill_bytes(0x3f);
  return measure([&] {
    launch(in.get(), out.get(), side, side);
    GPU_CHECK(cudaGetLastError());
  });
}

}  // namespace

std::optional<grader::Feedback> check_correct(const Launch& launch, const std::string& kernel,
                                              std::uint64_t seed, const Contract& contract) {
  // One verdict per kernel, seed and contract in a grader's run: the speed check asks again
  // what the correctness check found (0.4 s of transposes on the H200), and a kernel that
  // passed one and failed the other would be judged twice on different inputs.
  using Key = std::tuple<std::string, std::uint64_t, int, int>;
  static std::map<Key, std::optional<grader::Feedback>> verdicts;
  const Key key{kernel, seed, contract.tile, contract.multiple_of};
  if (const auto found = verdicts.find(key); found != verdicts.end()) return found->second;
  std::mt19937_64 rng(seed);
  const int side = contract.tile, m = contract.multiple_of;
  const int odd_rows = 1000 + m * static_cast<int>(rng() % 24);
  const std::optional<grader::Feedback> verdict =
      check_correct_on(launch, kernel, rng(),
                       {{side, side},
                        {2 * side, 3 * side},
                        {3 * side, 2 * side},
                        {side + m, 2 * side + m},
                        {m, m},
                        {side - m, m},
                        {m, side + 13 * m},
                        {odd_rows, (777 + m - 1) / m * m},
                        {4096, 4096}},
                       contract);
  verdicts.emplace(key, verdict);
  return verdict;
}

std::optional<grader::Feedback> check_correct_on(const Launch& launch, const std::string& kernel,
                                                 std::uint64_t seed,
                                                 const std::vector<std::pair<int, int>>& shapes,
                                                 const Contract& contract) {
  std::mt19937_64 rng(seed);
  const int side = contract.tile;
  // Every shape is tried; the hint depends on whether a multiple-of-the-tile shape failed too.
  std::optional<grader::Feedback> first;
  bool aligned_shape_failed = false;
  bool aligned_shape_tried = false;
  for (const auto& shape : shapes) {
    const int rows = shape.first, cols = shape.second;  // plain names: the lambdas capture them
    // Uniform in [-1, 1), drawn over the CPU's threads.
    const std::vector<float> host = grader::random_floats(static_cast<size_t>(rows) * cols, rng());
    gpu::DeviceBuffer<float> in(host);
    gpu::DeviceBuffer<float> out(host.size());
    out.fill_bytes(0xff);  // NaN
    launch(in.get(), out.get(), rows, cols);
    GPU_CHECK_KERNEL(kernel.c_str());
    const std::vector<float> got = out.download();
    // Which columns of `in` came out wrong, over the CPU's threads; the loop after it looks for
    // the first wrong element only in a shape that has one.
    std::vector<char> wrong_column(static_cast<size_t>(cols), 0);
    grader::parallel_rows(cols, [&](int c) {
      for (int r = 0; r < rows; ++r) {
        if (!(got[static_cast<size_t>(c) * rows + r] == host[static_cast<size_t>(r) * cols + c])) {
          wrong_column[static_cast<size_t>(c)] = 1;
          return;
        }
      }
    });
    bool shape_failed = false;
    for (int c = 0; c < cols && !shape_failed; ++c) {
      for (int r = 0; r < rows && wrong_column[static_cast<size_t>(c)] && !shape_failed; ++r) {
        const float want = host[static_cast<size_t>(r) * cols + c];
        const float have = got[static_cast<size_t>(c) * rows + r];
        if (have == want) continue;
        shape_failed = true;
        if (first) continue;
        first = grader::Feedback(kernel + " on a " + std::to_string(rows) + " x " +
                                 std::to_string(cols) + " matrix: out[" + std::to_string(c) + "][" +
                                 std::to_string(r) + "] is " + std::to_string(have) +
                                 ", expected in[" + std::to_string(r) + "][" + std::to_string(c) +
                                 "] = " + std::to_string(want) + ".");
        if (std::isnan(have))
          first->line("That element was never written (it still holds the NaN poison).");
      }
    }
    if (rows % side == 0 && cols % side == 0) {
      aligned_shape_tried = true;
      if (shape_failed) aligned_shape_failed = true;
    }
  }
  if (!first) return std::nullopt;
  const std::string tile = std::to_string(side);
  if (aligned_shape_failed) {
    first->hint("a shape that is a multiple of " + tile +
                " fails too: check the indices, and that every warp waits (__syncthreads) "
                "before reading what other warps wrote to the tile.");
  } else if (aligned_shape_tried) {
    first->hint("only shapes that are not a multiple of " + tile +
                " fail: guard the loads and the stores of partial tiles (r < rows, c < cols) "
                "separately.");
  } else {  // shapes with a partial tile only: nothing says whether the whole tiles are right
    first->hint(
        "check the indices, the barrier before reading what other warps wrote to the "
        "tile, and the guards of partial tiles (r < rows, c < cols), loads and stores "
        "separately.");
  }
  return first;
}

std::optional<grader::Feedback> tile_not_staged(const Launch& launch, const std::string& kernel,
                                                const std::string& file, const Contract& contract) {
  // A declared tile proves nothing (a naive transpose can write one and ignore it): what the
  // hardware counted in global memory does. A staged transpose reads and writes each 32-byte
  // sector of the matrices once; reading or writing a column of global memory costs a sector per
  // float, 8 times as many (grader::kMostGlobalSectorsOverMinimum).
  const double bar = grader::kMostGlobalSectorsOverMinimum;
  const int rows = 8 * contract.tile, cols = 4 * contract.tile;
  gpu::DeviceBuffer<float> in(static_cast<size_t>(rows) * cols);
  gpu::DeviceBuffer<float> out(static_cast<size_t>(rows) * cols);
  in.fill_bytes(0x3f);
  const std::optional<gpu::GlobalTraffic> counted_traffic = gpu::global_traffic_where_counted(
      [&] {
        launch(in.get(), out.get(), rows, cols);
        GPU_CHECK(cudaGetLastError());
      },
      "whether the kernel moves its tile");
  if (!counted_traffic) return std::nullopt;
  const gpu::GlobalTraffic& t = *counted_traffic;
  const double minimum = static_cast<double>(rows) * cols * sizeof(float) / 32;
  const double loads = t.load_sectors / minimum, stores = t.store_sectors / minimum;
  grader::record_measurement(file, "counted.global_load_sectors_over_minimum", loads, "x");
  grader::record_measurement(file, "counted.global_store_sectors_over_minimum", stores, "x");
  if (loads <= bar && stores <= bar) return std::nullopt;
  char counted[300];
  std::snprintf(counted, sizeof counted,
                "On %d x %d floats the GPU counted %.0f sectors of global loads in %.0f requests "
                "and %.0f of stores in %.0f: %.2f and %.2f times the %.0f each matrix holds.",
                rows, cols, t.load_sectors, t.load_requests, t.store_sectors, t.store_requests,
                loads, stores, minimum);
  return grader::Feedback(kernel + " is correct, but it does not move the matrix through its " +
                          "tile: it " + (loads > bar ? "reads" : "writes") +
                          " global memory a column at a time (at most " + grader::fixed(bar, 0) +
                          " times the minimum of 32-byte sectors passes).")
      .line(counted)
      .hint(
          "read the tile from `in` with coalesced loads into shared memory, barrier, and "
          "write it transposed from there.");
}

gpu::SmemCounters count_one_tile(const Launch& launch, int side) {
  return on_one_tile(launch, side, gpu::measure_smem_counters);
}

std::string lines_of_one_tile(
    const Launch& launch, int side,
    const std::function<std::string(const std::function<void()>&)>& render) {
  return on_one_tile(launch, side, render);
}

Times time_transpose(const Launch& launch, const std::string& kernel, int n) {
  const long long elements = static_cast<long long>(n) * n;
  gpu::DeviceBuffer<float> in(static_cast<size_t>(elements));
  gpu::DeviceBuffer<float> out(static_cast<size_t>(elements));
  gpu::random_floats(in.get(), elements, 17);  // on the GPU: see random_fill.hpp
  Times t;
  t.n = n;
  t.bytes = 2.0 * static_cast<double>(elements) * sizeof(float);
  t.copy_ms = grader::time_copy(t.bytes).median_ms;
  t.naive_ms =
      grader::time_kernel(
          "naive_transpose_kernel", [&] { launch_naive(in.get(), out.get(), n, n); }, t.bytes)
          .median_ms;
  t.yours_ms = grader::time_kernel(
                   kernel, [&] { launch(in.get(), out.get(), n, n); }, t.bytes)
                   .median_ms;
  return t;
}

std::optional<grader::Feedback> judge_speedup_over_naive(
    const Launch& launch, const std::string& kernel, const std::string& label,
    const std::string& file, const grader::Threshold& need, const std::string& hint,
    const Contract& contract) {
  if (check_correct(launch, kernel, grader::run_seed(), contract)) {
    return grader::not_judged_while_wrong("Not timed", kernel + " is not correct yet");
  }
  const Times t = time_transpose(launch, kernel);
  const std::string title = "transpose of " + std::to_string(t.n) + " x " + std::to_string(t.n) +
                            " floats (median of 31 launches):";
  const grader::SpeedCheck check{file, "transpose", "naive", "naive transpose", label, title,
                                 need, "",          hint};
  const std::string table =
      grader::record_speed_table(check, t.yours_ms, t.naive_ms, t.copy_ms, t.bytes);
  const double speedup = t.naive_ms / t.yours_ms;
  if (grader::passes(need, speedup)) return std::nullopt;
  return grader::Feedback("Your transpose is " + grader::fixed(speedup) +
                          "x as fast as the naive one, measured in the same run; it must reach " +
                          grader::fixed(need.value) + "x. (It moves data at " +
                          grader::fixed(t.fraction_of_copy()) + " of the device copy bandwidth.)")
      .picture(table)
      .hint(hint);
}

}  // namespace transpose
