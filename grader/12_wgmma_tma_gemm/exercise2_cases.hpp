// Chapter 12: what exercise 2 asks, drawn from the student's variant (grader/harness/variant.hpp)
// and fresh each run.
// - 2a: pairings of a written tile and changed descriptors, and the grader's model of where
//   wgmma reads (reads_as_written), which the reference checks hold to the hardware on every
//   pairing of the pool. Variant 0 asks the workbook's ten; a class variant eight of eight kinds.
// - 2c: pitches. Variant 0 asks 258 and 272 floats; a class variant two even pitches of 258 ..
//   330, never the lesson's worked 256 (nor 288 and 320, which repeat its banks), 260 or 264,
//   and never two whose stores take the same wavefronts.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/model/bank_model.hpp"
#include "grader/12_wgmma_tma_gemm/answer_cases.hpp"
#include "grader/harness/variant.hpp"

namespace ch12::spec {

// ---------------------------------------------------------------------------------------------
// Exercise 2a
// ---------------------------------------------------------------------------------------------

/// The descriptor of k16 step `k16` that reads pairing p's tile (its start relative to the
/// 1024-byte boundary below the tile): exercise 1's, yours, changed as p says.
inline DescriptorFields pairing_descriptor(const Pairing& p, int k16) {
  DescriptorFields f;
  if (p.how == Written::kPaddedRows) {
    f.start_address = 32u * static_cast<unsigned>(k16), f.leading_byte_offset = 16;
    f.stride_byte_offset = 8 * p.spacing;
  } else {
    f = decode_descriptor(wgmma_descriptor(p.layout, 0, 64, k16, 0));
  }
  f.start_address += p.tile_offset;
  switch (p.change) {
    case Change::kNone: break;
    case Change::kLayoutType:
      f.layout = static_cast<OperandLayout>(p.value & 3u);
      f.stride_byte_offset = 8u * static_cast<unsigned>(slab_bytes(f.layout));
      break;
    case Change::kStrideOffset: f.stride_byte_offset = p.value; break;
    case Change::kLeadingOffset: f.leading_byte_offset = p.value; break;
    case Change::kLinearStep: f.start_address = p.tile_offset + p.value * k16; break;
    case Change::kScaled:
      f.leading_byte_offset = f.leading_byte_offset * p.value / 128;
      f.stride_byte_offset = f.stride_byte_offset * p.value / 128;
      f.start_address = p.tile_offset + (f.start_address - p.tile_offset) * p.value / 128;
      break;
    case Change::kOffsetsSwapped: std::swap(f.leading_byte_offset, f.stride_byte_offset); break;
    case Change::kStartAtBoundary: f.start_address -= p.tile_offset; break;
  }
  return f;
}

/// Where p's tile holds byte `kb` (0 .. 127) of row r, relative to the 1024-byte boundary and
/// before any swizzle: the slabs of the interface, or the layouts written by hand.
inline unsigned written_at(const Pairing& p, unsigned r, unsigned kb) {
  const unsigned w = static_cast<unsigned>(slab_bytes(p.layout));
  switch (p.how) {
    case Written::kByTma: return p.tile_offset + kb / w * 64 * w + r * w + kb % w;
    case Written::kCoreMatrixGaps:
      return p.tile_offset + kb / 16 * 8 * p.spacing + r / 8 * p.spacing + r % 8 * 16 + kb % 16;
    case Written::kPaddedRows: break;
  }
  return p.tile_offset + r * p.spacing + kb;
}

/// Where wgmma, through descriptor f, reads byte b (0 .. 31) of row r of its k16 step, before the
/// swizzle: the 8-row group SBO on, the row a slab row on (16 bytes in kInterleave, whose next
/// 16 bytes of K are LBO on).
inline unsigned read_at(const DescriptorFields& f, unsigned r, unsigned b) {
  const unsigned w = static_cast<unsigned>(slab_bytes(f.layout));
  const unsigned row = f.start_address + r / 8 * f.stride_byte_offset + r % 8 * w;
  return f.layout == OperandLayout::kInterleave ? row + b / 16 * f.leading_byte_offset + b % 16
                                                : row + b;
}

/// The grader's model: wgmma reads p's tile right when every k16 step's descriptor has the tile's
/// layout type and forms, for every 16 bytes of every row, the address the tile holds them at.
/// Both sides then apply one swizzle to the absolute address, a bijection: equal addresses
/// before it are equal after it. A layout type not the tile's spaces a core matrix's rows
/// otherwise, and reads it wrong.
inline bool reads_as_written(const Pairing& p) {
  const OperandLayout tile = p.how == Written::kByTma ? p.layout : OperandLayout::kInterleave;
  for (int k16 = 0; k16 < 4; ++k16) {
    const DescriptorFields f = pairing_descriptor(p, k16);
    if (f.layout != tile) return false;
    for (unsigned r = 0; r < 64; ++r) {
      for (unsigned b = 0; b < 32; b += 16) {
        if (read_at(f, r, b) != written_at(p, r, 32u * static_cast<unsigned>(k16) + b)) {
          return false;
        }
      }
    }
  }
  return true;
}

/// "the k128B tile the TMA wrote, 384 bytes past a 1024-byte boundary, through descriptors with
/// SBO 512".
inline std::string pairing_text(const Pairing& p) {
  std::string s =
      p.how == Written::kByTma ? std::string("the ") + name(p.layout) + " tile the TMA wrote"
      : p.how == Written::kCoreMatrixGaps
          ? "kInterleave core matrices written " + std::to_string(p.spacing) + " bytes apart"
          : "rows written at a pitch of " + std::to_string(p.spacing) + " bytes";
  if (p.tile_offset != 0) {
    s += ", " + std::to_string(p.tile_offset) + " bytes past a 1024-byte boundary";
  }
  const std::string v = std::to_string(p.value);
  if (p.how == Written::kPaddedRows && p.change == Change::kNone) {
    return s + ", through kInterleave descriptors with LBO 16 and SBO 8 pitches";
  }
  switch (p.change) {
    case Change::kNone: return s + ", through exercise 1's descriptors";
    case Change::kLayoutType:
      return s + ", through descriptors of layout type " +
             name(static_cast<OperandLayout>(p.value & 3u));
    case Change::kStrideOffset: return s + ", through descriptors with SBO " + v;
    case Change::kLeadingOffset: return s + ", through descriptors with LBO " + v;
    case Change::kLinearStep:
      return s + ", through descriptors whose step k16 starts " + v + " k16 bytes on";
    case Change::kScaled:
      return s + ", through descriptors with every distance times " + v + " / 128";
    case Change::kOffsetsSwapped: return s + ", through descriptors with LBO and SBO swapped";
    case Change::kStartAtBoundary: return s + ", through descriptors that start at the boundary";
  }
  return s;
}

/// p's six fields as code: {"how", "Written::kByTma"}, ..., {"value", "512"}.
inline std::vector<std::pair<const char*, std::string>> pairing_fields(const Pairing& p) {
  static const char* const how[] = {"kByTma", "kCoreMatrixGaps", "kPaddedRows"};
  static const char* const change[] = {"kNone",           "kLayoutType",     "kStrideOffset",
                                       "kLeadingOffset",  "kLinearStep",     "kScaled",
                                       "kOffsetsSwapped", "kStartAtBoundary"};
  return {{"how", std::string("Written::") + how[static_cast<int>(p.how)]},
          {"layout", std::string("OperandLayout::") + name(p.layout)},
          {"spacing", std::to_string(p.spacing)},
          {"tile_offset", std::to_string(p.tile_offset)},
          {"change", std::string("Change::") + change[static_cast<int>(p.change)]},
          {"value", std::to_string(p.value)}};
}

/// "{Written::kByTma, OperandLayout::k128B, 0, 384, Change::kStrideOffset, 512}": p as code.
inline std::string pairing_code(const Pairing& p) {
  std::string code;
  for (const auto& [field, value] : pairing_fields(p)) code += (code.empty() ? "{" : ", ") + value;
  return code + "}";
}

/// Exercise 2a's kinds: each a family of pairings, one value drawn at a time.
inline std::vector<std::vector<Pairing>> pairing_kinds() {
  using L = OperandLayout;
  std::vector<std::vector<Pairing>> kinds(10);
  const auto tma = [&](int kind, L l, unsigned at, Change c, unsigned value) {
    kinds[static_cast<std::size_t>(kind)].push_back({Written::kByTma, l, 0, at, c, value});
  };
  for (L l : kOperandLayouts) {
    for (unsigned at = 0; at < 1024; at += 128) tma(0, l, at, Change::kNone, 0);
    for (unsigned at = 128; at < 1024; at += 128) tma(1, l, at, Change::kStartAtBoundary, 0);
    for (L other : kOperandLayouts) {
      if (other != l) tma(2, l, 0, Change::kLayoutType, static_cast<unsigned>(other));
    }
    for (unsigned sbo = 128; sbo <= 2048; sbo *= 2) tma(3, l, 0, Change::kStrideOffset, sbo);
    for (unsigned lbo = 16; lbo <= 4096; lbo *= 2) tma(4, l, 0, Change::kLeadingOffset, lbo);
    for (unsigned step : {16u, 32u, 64u, 128u, 512u, 1024u, 2048u, 4096u}) {
      tma(5, l, 0, Change::kLinearStep, step);
    }
    tma(6, l, 0, Change::kOffsetsSwapped, 0);
  }
  for (unsigned spacing = 128; spacing <= 256; spacing += 16) {
    kinds[7].push_back({Written::kCoreMatrixGaps, L::kInterleave, spacing, 0, Change::kNone, 0});
    for (unsigned scale = 128; scale <= 256; scale += 16) {
      kinds[8].push_back(
          {Written::kCoreMatrixGaps, L::kInterleave, spacing, 0, Change::kScaled, scale});
    }
    kinds[9].push_back({Written::kPaddedRows, L::kInterleave, spacing, 0, Change::kNone, 0});
  }
  return kinds;
}

/// Every pairing of every kind: the pool the reference checks hold the model to.
inline std::vector<Pairing> pairing_pool() {
  std::vector<Pairing> all;
  for (const auto& kind : pairing_kinds()) all.insert(all.end(), kind.begin(), kind.end());
  return all;
}

/// `count` pairings from `count` different kinds.
inline std::vector<Pairing> draw_pairings(grader::variant::Draw& d, std::size_t count) {
  const std::vector<std::vector<Pairing>> kinds = pairing_kinds();
  std::vector<std::size_t> all(kinds.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<Pairing> out;
  for (std::size_t kind : d.some(all, count)) out.push_back(d.pick(kinds[kind]));
  return out;
}

/// The variant's pairings: variant 0 the workbook's ten, a class variant eight of eight kinds.
inline std::vector<Pairing> variant_pairings(const grader::variant::Identity& v) {
  grader::variant::Draw d(v, "ch12.pairings");
  if (!d.self_study()) return draw_pairings(d, 8);
  using L = OperandLayout;
  const Written tma = Written::kByTma;
  return {{tma, L::k128B, 0, 0, Change::kLayoutType, static_cast<unsigned>(L::k64B)},
          {tma, L::k128B, 0, 0, Change::kStrideOffset, 128},
          {tma, L::k128B, 0, 0, Change::kLinearStep, 32},
          {tma, L::k128B, 0, 128, Change::kNone, 0},
          {tma, L::k64B, 0, 0, Change::kStrideOffset, 1024},
          {tma, L::k64B, 0, 0, Change::kLeadingOffset, 1024},
          {tma, L::k32B, 0, 0, Change::kLinearStep, 32},
          {tma, L::kInterleave, 0, 0, Change::kOffsetsSwapped, 0},
          {Written::kCoreMatrixGaps, L::kInterleave, 144, 0, Change::kScaled, 144},
          {Written::kPaddedRows, L::kInterleave, 160, 0, Change::kNone, 0}};
}

/// The least and the greatest pitch exercise 2c draws.
constexpr int kLeastAskedPitch = 258;
constexpr int kGreatestAskedPitch = 330;

/// The even pitches a class variant may ask about: 258 .. 330 but 260 and 264, and but the
/// multiples of 32 (288, 320), whose rows start in the banks of the lesson's worked 256.
inline std::vector<int> askable_pitches() {
  std::vector<int> out;
  for (int p = kLeastAskedPitch; p <= kGreatestAskedPitch; p += 2) {
    if (p != 260 && p != 264 && p % 32 != 0) out.push_back(p);
  }
  return out;
}

/// The variant's pitches of exercise 2c, ascending (variant 0: 258 and 272).
inline std::vector<int> epilogue_pitches(const grader::variant::Identity& v) {
  grader::variant::Draw d(v, "ch12");
  if (d.self_study()) return {258, 272};
  const std::vector<int> all = askable_pitches();
  const int first = d.pick(all);
  const int cost = smem::analyze(epilogue_store(first)).wavefronts;
  std::vector<int> others;
  for (int p : all) {
    if (p != first && smem::analyze(epilogue_store(p)).wavefronts != cost) others.push_back(p);
  }
  std::vector<int> out = {first, d.pick(others)};
  std::sort(out.begin(), out.end());
  return out;
}

/// "258 and 272 floats".
inline std::string pitches_text(const std::vector<int>& pitches) {
  std::string s;
  for (size_t i = 0; i < pitches.size(); ++i) {
    s += (i == 0 ? "" : i + 1 == pitches.size() ? " and " : ", ") + std::to_string(pitches[i]);
  }
  return s + " floats";
}

}  // namespace ch12::spec
