// Digests of the right answers of this chapter's digested cases, and of typical slips
// (CASE#slip), for the host checks (grader/harness/answer_digest.hpp). Written by the
// answer key, solutions/11_tma_layouts/answer_key.cpp,
// in a maintainers' build (ninja -C <build> answer-digests), which also holds it to the
// reference solution; do not edit.
#pragma once

#include <vector>

#include "grader/harness/answer_digest.hpp"

namespace grader::chapter {

inline const std::vector<AnswerDigest> kAnswerDigests = {
    {"tma_smem_offset(kNone, 16)", 0xf94c23fbbb0275c7ull},
    {"tma_smem_offset(kNone, 32)", 0x39071a44dbbf7799ull},
    {"tma_smem_offset(kNone, 48)", 0x25e5f45d30f55a30ull},
    {"tma_smem_offset(kNone, 64)", 0xb7152672a46efeb6ull},
    {"tma_smem_offset(kNone, 80)", 0x4dbd640f57bb0784ull},
    {"tma_smem_offset(kNone, 96)", 0xf0d249d4ad48e3efull},
    {"tma_smem_offset(kNone, 112)", 0x4ffac8ab2ebf8a8eull},
    {"tma_smem_offset(kNone, 128)", 0x3ccc621fd345430full},
    {"tma_smem_offset(kNone, 144)", 0xa9ebeb0e5429bd5dull},
    {"tma_smem_offset(kNone, 160)", 0xab4a3074e5d84063ull},
    {"tma_smem_offset(kNone, 176)", 0xe1d5f4fc7d5c49b4ull},
    {"tma_smem_offset(kNone, 192)", 0xa7fb7cdb76485a06ull},
    {"tma_smem_offset(kNone, 208)", 0x162d1e1fcbf37504ull},
    {"tma_smem_offset(kNone, 224)", 0x81d27022c29a5022ull},
    {"tma_smem_offset(kNone, 240)", 0x2b4bdb08bd5ec498ull},
    {"tma_smem_offset(kNone, 256)", 0x1cfb2954a643ae2bull},
    {"tma_smem_offset(k32B, 16)", 0x2e593e2a356f7782ull},
    {"tma_smem_offset(k32B, 32)", 0xc43a8d0e5d542bacull},
    {"tma_smem_offset(k64B, 16)", 0x17ea69dcdcf6a783ull},
    {"tma_smem_offset(k64B, 32)", 0xa50209372161673dull},
    {"tma_smem_offset(k64B, 48)", 0xd0717cd61b726fccull},
    {"tma_smem_offset(k64B, 64)", 0xfd43765d655c70faull},
    {"tma_smem_offset(k128B, 16)", 0xb929b50243837fa4ull},
    {"tma_smem_offset(k128B, 32)", 0x9d78dca78819abbaull},
    {"tma_smem_offset(k128B, 48)", 0xcda70fb3a634ad5full},
    {"tma_smem_offset(k128B, 64)", 0x3e07024806d6b1b9ull},
    {"tma_smem_offset(k128B, 80)", 0xd9f57c6c1c438cebull},
    {"tma_smem_offset(k128B, 96)", 0xc8cbcd07083e067cull},
    {"tma_smem_offset(k128B, 112)", 0xd03df731311fe3bfull},
    {"tma_smem_offset(k128B, 128)", 0x918a2ea6f8dec0e2ull},
    {"tma_smem_offset(k32B, 16)#xor_with_box_row", 0x4278e77611dcc702ull},
    {"tma_smem_offset(k32B, 16)#dense_box", 0x9aa482e2f6d0e702ull},
    {"tma_smem_offset(k32B, 32)#xor_with_box_row", 0xe4fce8962b6892acull},
    {"tma_smem_offset(k64B, 16)#xor_with_box_row", 0xa12e61d05ada1483ull},
    {"tma_smem_offset(k64B, 16)#dense_box", 0x4d832e814ed08503ull},
    {"tma_smem_offset(k64B, 32)#xor_with_box_row", 0x3edcf00fe400243dull},
    {"tma_smem_offset(k64B, 32)#dense_box", 0x0045c9739179833dull},
    {"tma_smem_offset(k64B, 48)#xor_with_box_row", 0x0c56aced711fda4cull},
    {"tma_smem_offset(k64B, 48)#dense_box", 0x91424c48f4f1138cull},
    {"tma_smem_offset(k64B, 64)#xor_with_box_row", 0x17231a0e991c01faull},
    {"tma_smem_offset(k128B, 16)#dense_box", 0x8f9e91d93e76dea4ull},
    {"tma_smem_offset(k128B, 32)#dense_box", 0xf8f581f238e505baull},
    {"tma_smem_offset(k128B, 48)#dense_box", 0x9875f7e4ed178ebfull},
    {"tma_smem_offset(k128B, 64)#dense_box", 0xe680a675a806b039ull},
    {"tma_smem_offset(k128B, 80)#dense_box", 0x963435e9174ebccbull},
    {"tma_smem_offset(k128B, 96)#dense_box", 0x7c1f4711fd36d33cull},
    {"tma_smem_offset(k128B, 112)#dense_box", 0x5ba398d869a30a3full},
};

}  // namespace grader::chapter
