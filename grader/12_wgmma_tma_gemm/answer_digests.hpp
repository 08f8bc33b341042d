// Digests of the right answers of this chapter's digested cases, and of typical slips
// (CASE#slip), for the host checks (grader/harness/answer_digest.hpp). Written by the
// answer key, solutions/12_wgmma_tma_gemm/answer_key.cpp,
// in a maintainers' build (ninja -C <build> answer-digests), which also holds it to the
// reference solution; do not edit.
#pragma once

#include <vector>

#include "grader/harness/answer_digest.hpp"

namespace grader::chapter {

inline const std::vector<AnswerDigest> kAnswerDigests = {
    {"wgmma_descriptor(k128B, 64 rows)", 0x68978e5972de4afaull},
    {"wgmma_descriptor(k128B, 128 rows)", 0xa1af17c94d059867ull},
    {"wgmma_descriptor(k128B, 256 rows)", 0xb18229bfc825ff9bull},
    {"wgmma_descriptor(k64B, 64 rows)", 0x7cd42df5938bbef3ull},
    {"wgmma_descriptor(k64B, 128 rows)", 0xb19d84ee4bb7ceecull},
    {"wgmma_descriptor(k64B, 256 rows)", 0x1a344e79ea55cdf8ull},
    {"wgmma_descriptor(k32B, 64 rows)", 0x2de37ea0ca8b9444ull},
    {"wgmma_descriptor(k32B, 128 rows)", 0x872b8e1cdffbb96dull},
    {"wgmma_descriptor(k32B, 256 rows)", 0x5bbc43e0e9e9f4cdull},
    {"wgmma_descriptor(kInterleave, 64 rows)", 0x96637e929aec446aull},
    {"wgmma_descriptor(kInterleave, 128 rows)", 0xd41d3a2ec0fd086bull},
    {"wgmma_descriptor(kInterleave, 256 rows)", 0x576ffb07a840979bull},
    {"wgmma_descriptor(k128B, 64 rows)#sbo_of_one_row", 0xbeda3b6e7830f44aull},
    {"wgmma_descriptor(k128B, 64 rows)#step_of_16_bytes", 0x0e0be9bdd41b31f6ull},
    {"wgmma_descriptor(k128B, 64 rows)#lbo_not_16", 0xe211640ac04efaeaull},
    {"wgmma_descriptor(k128B, 128 rows)#sbo_of_one_row", 0xba86683482f9ebb7ull},
    {"wgmma_descriptor(k128B, 128 rows)#step_of_16_bytes", 0x2c47f85739e6bc33ull},
    {"wgmma_descriptor(k128B, 128 rows)#lbo_not_16", 0x0fb59a994e54b1e7ull},
    {"wgmma_descriptor(k128B, 128 rows)#rows_not_row0", 0x14b897afb139378full},
    {"wgmma_descriptor(k128B, 256 rows)#sbo_of_one_row", 0x5e7340bda122c9abull},
    {"wgmma_descriptor(k128B, 256 rows)#step_of_16_bytes", 0xdb52ca1e3ebaa4cfull},
    {"wgmma_descriptor(k128B, 256 rows)#lbo_not_16", 0xf10273a684b43fabull},
    {"wgmma_descriptor(k128B, 256 rows)#rows_not_row0", 0x41c6b7ac40ac01e3ull},
    {"wgmma_descriptor(k64B, 64 rows)#sbo_of_one_row", 0x2d724e1017b2706bull},
    {"wgmma_descriptor(k64B, 64 rows)#step_of_16_bytes", 0x6a7f7471b0ab8c93ull},
    {"wgmma_descriptor(k64B, 64 rows)#next_slab_missed", 0x6bcde15f73a4d457ull},
    {"wgmma_descriptor(k64B, 64 rows)#lbo_not_16", 0x91f8067e7f4dbc43ull},
    {"wgmma_descriptor(k64B, 128 rows)#sbo_of_one_row", 0xd95ec480ba9fa6b4ull},
    {"wgmma_descriptor(k64B, 128 rows)#step_of_16_bytes", 0xbee2654da6f1f878ull},
    {"wgmma_descriptor(k64B, 128 rows)#next_slab_missed", 0x0e66208498fe6250ull},
    {"wgmma_descriptor(k64B, 128 rows)#lbo_not_16", 0x353ac9e67b40fbd0ull},
    {"wgmma_descriptor(k64B, 128 rows)#rows_not_row0", 0x0fdd6b36bfb4be2cull},
    {"wgmma_descriptor(k64B, 256 rows)#sbo_of_one_row", 0xdfbbf8e8a41a9c98ull},
    {"wgmma_descriptor(k64B, 256 rows)#step_of_16_bytes", 0xacf503999fb10bb8ull},
    {"wgmma_descriptor(k64B, 256 rows)#next_slab_missed", 0xd0bc454a77b7aa00ull},
    {"wgmma_descriptor(k64B, 256 rows)#lbo_not_16", 0xe8dcae037eaa4658ull},
    {"wgmma_descriptor(k64B, 256 rows)#rows_not_row0", 0x8d146b6cd935de68ull},
    {"wgmma_descriptor(k32B, 64 rows)#sbo_of_one_row", 0x851448c6130cf460ull},
    {"wgmma_descriptor(k32B, 64 rows)#step_of_16_bytes", 0x1f476a1fe95f3954ull},
    {"wgmma_descriptor(k32B, 64 rows)#next_slab_missed", 0xf423d691ff5e45fcull},
    {"wgmma_descriptor(k32B, 64 rows)#lbo_not_16", 0xe48bfe1a636da674ull},
    {"wgmma_descriptor(k32B, 128 rows)#sbo_of_one_row", 0x1d922b2d8b87bf8dull},
    {"wgmma_descriptor(k32B, 128 rows)#step_of_16_bytes", 0x2c35542e5d5567d5ull},
    {"wgmma_descriptor(k32B, 128 rows)#next_slab_missed", 0xae8c8114a7dd8675ull},
    {"wgmma_descriptor(k32B, 128 rows)#lbo_not_16", 0x8e7bd2204167a3b9ull},
    {"wgmma_descriptor(k32B, 128 rows)#rows_not_row0", 0x0ee7655a608af3edull},
    {"wgmma_descriptor(k32B, 256 rows)#sbo_of_one_row", 0x15aad314bf6aac55ull},
    {"wgmma_descriptor(k32B, 256 rows)#step_of_16_bytes", 0x04347e9cd6ba9b45ull},
    {"wgmma_descriptor(k32B, 256 rows)#next_slab_missed", 0x1da34a142c806bcdull},
    {"wgmma_descriptor(k32B, 256 rows)#lbo_not_16", 0xa17c74e1d8afa9cdull},
    {"wgmma_descriptor(k32B, 256 rows)#rows_not_row0", 0x6922741d89310905ull},
    {"wgmma_descriptor(kInterleave, 64 rows)#sbo_of_one_row", 0x51d38beeb9e71672ull},
    {"wgmma_descriptor(kInterleave, 64 rows)#step_of_16_bytes", 0xfac379523a91c225ull},
    {"wgmma_descriptor(kInterleave, 64 rows)#lbo_sbo_swapped", 0xa4fafcc2c9da693aull},
    {"wgmma_descriptor(kInterleave, 64 rows)#next_slab_missed", 0xc6082ba96fa82d1aull},
    {"wgmma_descriptor(kInterleave, 128 rows)#sbo_of_one_row", 0x562cc62515effdefull},
    {"wgmma_descriptor(kInterleave, 128 rows)#step_of_16_bytes", 0x0780a090927e154dull},
    {"wgmma_descriptor(kInterleave, 128 rows)#lbo_sbo_swapped", 0x7f2f70c25ea6110bull},
    {"wgmma_descriptor(kInterleave, 128 rows)#next_slab_missed", 0x713c722186821e8full},
    {"wgmma_descriptor(kInterleave, 128 rows)#rows_not_row0", 0x012d351f50d1762bull},
    {"wgmma_descriptor(kInterleave, 256 rows)#sbo_of_one_row", 0x02f0bd51a26c61c3ull},
    {"wgmma_descriptor(kInterleave, 256 rows)#step_of_16_bytes", 0x556f5c85c8b281cbull},
    {"wgmma_descriptor(kInterleave, 256 rows)#lbo_sbo_swapped", 0xa862449939b019cbull},
    {"wgmma_descriptor(kInterleave, 256 rows)#next_slab_missed", 0x4a90ed33badf8ba3ull},
    {"wgmma_descriptor(kInterleave, 256 rows)#rows_not_row0", 0xb352f847e139bfdbull},
};

}  // namespace grader::chapter
