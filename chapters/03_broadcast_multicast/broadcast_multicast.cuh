/// @file broadcast_multicast.cuh
/// @brief Chapter 03 interface: broadcast, multicast, and lookup tables.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// broadcast_multicast_exercise.cu.
#pragma once

#include <cuda_runtime.h>

/// Chapter 03: broadcast and multicast.
namespace ch03 {

/// Returned by an exercise function that has not been written yet.
constexpr int kNotImplemented = -1;

// ---------------------------------------------------------------------------------------------
// Exercise 1: predictions.
// ---------------------------------------------------------------------------------------------

/// Access patterns of one full warp; every array starts at byte 0 of shared memory. Each
/// pattern is one of two shapes: lane `lane` reads element `S * lane` (a stride of S elements)
/// or element `S * (lane / G)` (groups of G neighbouring lanes on one element, the groups S
/// elements apart). The workbook's own cases (variant 0) are in brackets; a class variant has
/// S and G of its own (the grader's report lists them).
enum class Pattern : int {
  kBytesGrouped,        ///< `unsigned char c[];` lane reads `c[lane / G]`        (G = 2)
  kBytesStrided,        ///< `unsigned char c[];` lane reads `c[S * lane]`        (S = 8)
  kBytesFarApart,       ///< `unsigned char c[];` lane reads `c[S * lane]`        (S = 64)
  kHalvesGrouped,       ///< `short h[];` lane reads `h[lane / G]`                (G = 4)
  kHalvesStrided,       ///< `short h[];` lane reads `h[S * lane]`                (S = 16)
  kFloatsGrouped,       ///< `float a[];` lane reads `a[lane / G]`                (G = 4)
  kFloatGroupsStrided,  ///< `float a[];` lane reads `a[S * (lane / G)]`   (S = 16, G = 8)
  kDoublesGrouped,      ///< `double d[];` lane reads `d[lane / G]`               (G = 16)
  kDoublePairsStrided,  ///< `double d[];` lane reads `d[S * (lane / 2)]`         (S = 2)
  kFloat4Grouped,       ///< `float4 v[];` lane reads `v[lane / G]`               (G = 8)
  kFloat4PairsStrided,  ///< `float4 v[];` lane reads `v[S * (lane / 2)]`         (S = 2)
};

/// Number of patterns.
constexpr int kPatternCount = 11;

/// Every pattern, in order.
constexpr Pattern kAllPatterns[kPatternCount] = {
    Pattern::kBytesGrouped,       Pattern::kBytesStrided,      Pattern::kBytesFarApart,
    Pattern::kHalvesGrouped,      Pattern::kHalvesStrided,     Pattern::kFloatsGrouped,
    Pattern::kFloatGroupsStrided, Pattern::kDoublesGrouped,    Pattern::kDoublePairsStrided,
    Pattern::kFloat4Grouped,      Pattern::kFloat4PairsStrided};

/// A case of a pattern: lane `lane` reads element `stride * (lane / group)` of an array of
/// `element_bytes`-byte elements that starts at byte 0 (a strided pattern has group 1, a grouped
/// one stride 1).
struct PatternCase {
  int element_bytes;  ///< 1, 2, 4, 8 or 16
  int stride;         ///< S, in elements
  int group;          ///< G, lanes per element
};

/// Your rule: the wavefronts the warp's request takes in case `c` of pattern `p`. The grader
/// asks it about your variant's case of every pattern and about fresh cases each run draws, each
/// with S and G in the range that keeps its pattern what its name says.
int predicted_wavefronts(Pattern p, PatternCase c);

// ---------------------------------------------------------------------------------------------
// Exercise 2: a lookup table that does not conflict.
// ---------------------------------------------------------------------------------------------

constexpr int kTableEntries = 256;  ///< Entries of lookup_kernel's table (4-byte words).
constexpr int kRounds = 16;         ///< Lookups per key.
constexpr int kThreads = 256;       ///< Threads per block of lookup_kernel.

/// The shared-memory word from which lane `lane` (0..31) reads entry `key` (0 .. entries - 1)
/// of a table of `entries` 4-byte entries (1 .. 384; lookup_kernel's has kTableEntries), such
/// that no keys make a warp's reads conflict. Several slots may hold the same entry (copies);
/// one slot never holds two entries. All slots lie in [0, table_words(entries)). The local
/// checks ask tables of up to 256 entries; official grading asks larger ones.
__host__ __device__ int table_slot(int key, int lane, int entries);

/// Words of shared memory a table of `entries` entries occupies (at most 12288, 48 KiB).
__host__ __device__ int table_words(int entries);

/// The naive table: entry k in word k, one copy (the grader's baseline).
struct NaiveTable {
  /// Word holding entry `key`, whatever the lane.
  __host__ __device__ static int slot(int key, int) { return key; }
  /// Words the table occupies.
  __host__ __device__ static int words() { return kTableEntries; }
};

/// Your table of kTableEntries entries: table_slot() and table_words().
struct YourTable {
  /// Word from which `lane` reads entry `key`: table_slot().
  __host__ __device__ static int slot(int key, int lane) {
    return table_slot(key, lane, kTableEntries);
  }
  /// Words the table occupies: table_words().
  __host__ __device__ static int words() { return table_words(kTableEntries); }
};

/// The lookup every key goes through: the XOR of kRounds entries,
/// `table[(key + 37 r) % 256]` for r = 0 .. kRounds-1.
__host__ __device__ inline unsigned lookup_rounds_reference(const unsigned* table, unsigned key) {
  unsigned x = 0;
  for (int r = 0; r < kRounds; ++r) x ^= table[(key + 37u * r) & (kTableEntries - 1)];
  return x;
}

#if defined(__CUDACC__)  // device code: host-only translation units see the layouts alone
/// The kernel (given; not an exercise). Launched with kThreads threads per block and
/// `Table::words() * 4` bytes of dynamic shared memory; any number of blocks. Copies `table`
/// (kTableEntries words) into shared memory in the layout `Table` describes, then for every
/// i < n writes `out[i]` = lookup_rounds_reference(table, keys[i]), reading the table from
/// shared memory: lane t of a warp reads entry k at word `Table::slot(k, t)`.
template <typename Table>
__global__ void lookup_kernel(const unsigned* table, const unsigned char* keys, unsigned* out,
                              int n) {
  extern __shared__ unsigned shared_table[];
  // Fill every (entry, lane) slot; copies that coincide are written with the same value.
  for (int s = static_cast<int>(threadIdx.x); s < kTableEntries * 32; s += blockDim.x) {
    shared_table[Table::slot(s / 32, s % 32)] = table[s / 32];
  }
  __syncthreads();
  const int lane = static_cast<int>(threadIdx.x % 32);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned key = keys[i];
    unsigned x = 0;
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      x ^= shared_table[Table::slot(static_cast<int>((key + 37u * r) & (kTableEntries - 1)), lane)];
    }
    out[i] = x;
  }
}
#endif

}  // namespace ch03
