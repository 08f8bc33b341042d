#!/usr/bin/env python3
"""Writes the workbook's own warp-request cases for the GPU validator, in case-file format
(name, width, op, -, -, 32 addresses; the costs are left for the GPU to measure).

    tools/maintainer/make_validation_cases.py > common/model/tests/data/workbook-cases.tsv

Each named case probes one rule of the bank model where the shared H200 cases say nothing:
ldmatrix, inactive lanes with 8- and 16-byte accesses, stores with conflicts, the SW32/SW64/SW128
swizzle atoms, and 1- and 2-byte accesses. Then come random cases (a fixed seed, so the file is
the same on every run): loads and stores of every width, most with some lanes inactive, with
addresses drawn from the shapes real kernels make (strides, lane pairs that share an address,
broadcasts, rows and columns of tiles, scattered words), and random ldmatrix requests. They let
the validator check the whole model, not only the rules someone thought of, on any GPU.
"""
import random

INACTIVE = -1
cases = []


def case(name, width, op, addresses):
    addresses = list(addresses)
    assert len(addresses) == 32, name
    cases.append((name, width, op, addresses))


lanes = range(32)

# ldmatrix: lanes 8m..8m+7 give the 16-byte rows of matrix m; unused lanes are written as -1.
def ldm(name, count, row_address):
    case(name, 16, f"ldmatrix.x{count}",
         [row_address(t) if t < 8 * count else INACTIVE for t in lanes])

ldm("ldm_x1_pitch128", 1, lambda t: 128 * t)                      # 8 rows in banks 0-3
ldm("ldm_x1_contiguous", 1, lambda t: 16 * t)
ldm("ldm_x1_swizzled", 1, lambda t: 128 * t + 16 * (t % 8))       # chunk ^= row, chunk 0
ldm("ldm_x2_pitch128", 2, lambda t: 128 * (t % 8) + 16 * (t // 8))
ldm("ldm_x2_swizzled", 2, lambda t: 128 * (t % 8) + 16 * ((t // 8) ^ (t % 8)))
ldm("ldm_x4_pitch128", 4, lambda t: 128 * (t % 8) + 16 * (t // 8))
ldm("ldm_x4_swizzled", 4, lambda t: 128 * (t % 8) + 16 * ((t // 8) ^ (t % 8)))
ldm("ldm_x4_pitch64", 4, lambda t: 64 * (t % 8) + 16 * (t // 8 % 4))
ldm("ldm_x4_contiguous", 4, lambda t: 16 * t)
ldm("ldm_x4_pitch144", 4, lambda t: 144 * (t % 8) + 16 * (t // 8))  # rows padded by 16 B
ldm("ldm_x4_same_row", 4, lambda t: 0)
ldm("ldm_x4_pairs", 4, lambda t: 16 * (t // 2))                    # lanes t, t^1 share a row

# Inactive lanes with 8- and 16-byte accesses.
case("w8_inactive_odd", 8, "load", [8 * t if t % 2 == 0 else INACTIVE for t in lanes])
case("w8_inactive_upper_half", 8, "load", [8 * t if t < 16 else INACTIVE for t in lanes])
case("w8_one_lane", 8, "load", [40 if t == 5 else INACTIVE for t in lanes])
case("w8_inactive_odd_s16", 8, "load", [128 * t if t % 2 == 0 else INACTIVE for t in lanes])
case("w16_inactive_upper", 16, "load", [16 * t if t < 8 else INACTIVE for t in lanes])
case("w16_inactive_first_quarter", 16, "load", [16 * t if t >= 8 else INACTIVE for t in lanes])
case("w16_inactive_odd", 16, "load", [16 * t if t % 2 == 0 else INACTIVE for t in lanes])
case("w16_one_lane", 16, "load", [48 if t == 9 else INACTIVE for t in lanes])
case("w16_inactive_odd_s8", 16, "load", [128 * t if t % 2 == 0 else INACTIVE for t in lanes])

# Two kinds of lane pair in one warp: lanes 0-15 share with t^1, lanes 16-31 with t^2. The pairs
# merge for the whole warp or not at all (chapter 03), so neither merges: 2 and 4 wavefronts,
# where pairs merged pair by pair would give 1 and 2.
def mixed_pair_key(t):
    return t // 2 if t < 16 else 8 + (t - 16) % 2 + 2 * ((t - 16) // 4)

case("w8_mixed_pairs", 8, "load", [8 * mixed_pair_key(t) for t in lanes])
case("w16_mixed_pairs", 16, "load", [16 * mixed_pair_key(t) for t in lanes])

# Stores with conflicts (and the broadcast-like store: one write wins).
case("st4_s2", 4, "store", [8 * t for t in lanes])
case("st4_col32", 4, "store", [128 * t + 20 for t in lanes])
case("st4_col33", 4, "store", [132 * t + 20 for t in lanes])
case("st4_same_word", 4, "store", [28 for t in lanes])
case("st4_two_words_bank0", 4, "store", [128 * (t % 2) for t in lanes])
case("st8_s1", 8, "store", [8 * t for t in lanes])
case("st8_s16", 8, "store", [128 * t for t in lanes])
case("st16_s1", 16, "store", [16 * t for t in lanes])
case("st16_s2", 16, "store", [32 * t for t in lanes])
case("st1_s128", 1, "store", [128 * t for t in lanes])
case("st2_s64", 2, "store", [128 * t for t in lanes])

# Swizzle atoms: 16-byte loads of chunk 0 of rows 0..31, plain and swizzled (CuTe Swizzle on
# byte offsets: SW128 a ^ ((a >> 3) & 0x70), SW64 a ^ ((a >> 3) & 0x30), SW32 a ^ ((a >> 3) & 0x10)).
def swizzle(a, mask):
    return a ^ ((a >> 3) & mask)

for span, mask in ((128, 0x70), (64, 0x30), (32, 0x10)):
    case(f"sw{span}_column_plain", 16, "load", [span * t for t in lanes])
    case(f"sw{span}_column_swizzled", 16, "load", [swizzle(span * t, mask) for t in lanes])
case("sw128_row_swizzled", 16, "load", [swizzle(16 * t, 0x70) for t in lanes])
case("sw128_column_4byte", 4, "load", [swizzle(128 * t, 0x70) for t in lanes])

# 1- and 2-byte accesses.
case("w1_bcast", 1, "load", [5 for t in lanes])
case("w1_s2", 1, "load", [2 * t for t in lanes])
case("w1_s4", 1, "load", [4 * t for t in lanes])
case("w1_s8", 1, "load", [8 * t for t in lanes])
case("w1_s64", 1, "load", [64 * t for t in lanes])
case("w2_bcast", 2, "load", [6 for t in lanes])
case("w2_s2", 2, "load", [4 * t for t in lanes])
case("w2_s4", 2, "load", [8 * t for t in lanes])
case("w2_s64", 2, "load", [128 * t for t in lanes])
# Byte strides that are not a multiple of 4: the gcd law in words does not apply (chapter 02).
case("w1_s129", 1, "load", [129 * t for t in lanes])
case("w2_s3", 2, "load", [6 * t for t in lanes])
case("w2_s33", 2, "load", [66 * t for t in lanes])
# A column of float4 tile[32][33] (rows of 528 bytes): padding and 16-byte accesses (chapter 07).
case("w16_col_pitch33", 16, "load", [528 * t for t in lanes])

# Groups are never repacked, with 8-byte accesses too.
case("w16_repack_11", 16, "load", [128 * t if t < 8 else 1024 + 16 * t for t in lanes])
case("w8_repack", 8, "load", [128 * t if t < 8 else 1024 + 8 * t for t in lanes])

# cp.async.cg of 16 bytes (LDGSTS): shared addresses per lane, the global side named by the op
# (cp.async.gN: lanes read global rows of N bytes, consecutive lanes consecutive chunks; 512 is
# one contiguous run). The layouts chapter 10 shows (plain, padded, swizzled rows of 32 to 128
# bytes) and structured neighbours; measured with tools/maintainer/probes/ldgsts_probe.cu first
# (measurements/h200/cp-async-probe.tsv holds all 183 of its requests, the random ones too).
def cp_async(name, global_row, to):
    case(name, 16, f"cp.async.g{global_row}", [to(t) for t in lanes])

shared_layouts = {
    "contig": lambda t: 16 * t,
    "pad144": lambda t: (t // 8) * 144 + 16 * (t % 8),
    "sw128": lambda t: swizzle((t // 8) * 128 + 16 * (t % 8), 0x70),
    "sw64": lambda t: swizzle(16 * t, 0x30),
    "sw32": lambda t: swizzle(16 * t, 0x10),
    "pad80": lambda t: (t // 4) * 80 + 16 * (t % 4),
    "col128": lambda t: 128 * t,
    "col144": lambda t: 144 * t,
    "stride32": lambda t: 32 * t,
    "same": lambda t: 0,
    "rowswap": lambda t: 16 * (t ^ 8),
    "reverse": lambda t: 16 * (31 - t),
    "rotate1": lambda t: (t // 8) * 128 + 16 * ((t + 1) % 8),
    "two_lines": lambda t: (t // 16) * 1024 + 16 * (t % 16),
    "quarter_lines": lambda t: (t // 4) * 256 + 16 * (t % 4),
}
for global_row in (512, 128, 64, 32, 16):
    for layout, to in shared_layouts.items():
        cp_async(f"cpa_g{global_row}_{layout}", global_row, to)
for pitch in (160, 192, 256, 272, 528):  # 128-byte rows at other pitches
    cp_async(f"cpa_g128_pitch{pitch}", 128, lambda t: (t // 8) * pitch + 16 * (t % 8))
for pitch in (96, 128, 144):  # 64-byte rows at other pitches
    cp_async(f"cpa_g64_pitch{pitch}", 64, lambda t: (t // 4) * pitch + 16 * (t % 4))
for off in (16, 32, 64, 112):  # 128-byte rows starting off a shared line
    cp_async(f"cpa_g128_off{off}", 128, lambda t: (t // 8) * 256 + off + 16 * (t % 8))
cp_async("cpa_g128_transposed", 128, lambda t: (t % 8) * 128 + 16 * (t // 8))
cp_async("cpa_g128_halfline", 128, lambda t: (t // 4) * 128 + 16 * (t % 4))
cp_async("cpa_g128_reversed_lines", 128, lambda t: (3 - t // 8) * 128 + 16 * (t % 8))
case("cpa_g512_inactive_upper", 16, "cp.async.g512", [16 * t if t < 16 else INACTIVE for t in lanes])
case("cpa_g512_inactive_even", 16, "cp.async.g512", [16 * t if t % 2 else INACTIVE for t in lanes])
case("cpa_g512_col128_first8", 16, "cp.async.g512", [128 * t if t < 8 else INACTIVE for t in lanes])
case("cpa_g512_one_lane", 16, "cp.async.g512", [80 if t == 5 else INACTIVE for t in lanes])
case("cpa_g128_pad144_rows13", 16, "cp.async.g128",
     [(t // 8) * 144 + 16 * (t % 8) if (t // 8) % 2 else INACTIVE for t in lanes])


# Random cases.
rng = random.Random(20261129)
REGION = 4096  # bytes of shared memory the random addresses fall in


def random_addresses(width):
    """32 width-aligned addresses of one random shape; returns (shape name, addresses)."""
    words = REGION // width
    shape = rng.choice(["scatter", "stride", "pairs1", "pairs2", "bcastmix", "tile", "xor"])
    if shape == "scatter":
        return shape, [width * rng.randrange(words) for _ in lanes]
    if shape == "stride":
        stride = rng.choice([0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, rng.randrange(64)])
        base = rng.randrange(words // 2)
        return f"stride{stride}", [width * ((base + stride * t) % words) for t in lanes]
    if shape == "pairs1":  # lanes t and t ^ 1 share an address
        picks = [width * rng.randrange(words) for _ in range(16)]
        return shape, [picks[t // 2] for t in lanes]
    if shape == "pairs2":  # lanes t and t ^ 2 share an address
        picks = {k: width * rng.randrange(words) for k in lanes if not k & 2}
        return shape, [picks[t & ~2] for t in lanes]
    if shape == "bcastmix":  # a few addresses shared by many lanes
        picks = [width * rng.randrange(words) for _ in range(rng.randrange(1, 5))]
        return shape, [rng.choice(picks) for _ in lanes]
    if shape == "tile":  # a column or row of a row-major tile with a random pitch
        per_row = rng.choice([1, 2, 4, 8, 16, 32])
        pitch = width * rng.randrange(1, 72)
        return f"tile{per_row}", [((t // per_row) * pitch + (t % per_row) * width) % REGION
                                  for t in lanes]
    row_bytes = rng.choice([32, 64, 128])  # an XOR swizzle of width-sized chunks in rows
    chunks = max(1, row_bytes // width)
    return shape, [(t * row_bytes + width * ((t ^ rng.randrange(chunks)) % chunks)) % REGION
                   for t in lanes]


def random_active():
    """A random set of active lanes (never empty); returns (name, mask as a list of bools)."""
    kind = rng.choice(["all", "all", "random", "random", "range", "odd", "even", "half",
                       "quarter", "one"])
    if kind == "all":
        return "", [True] * 32
    if kind == "random":
        p = rng.uniform(0.15, 0.9)
        mask = [rng.random() < p for _ in lanes]
    elif kind == "range":
        first = rng.randrange(32)
        last = rng.randrange(first, 32)
        mask = [first <= t <= last for t in lanes]
    elif kind in ("odd", "even"):
        mask = [t % 2 == (kind == "odd") for t in lanes]
    elif kind == "half":
        half = rng.randrange(2)
        mask = [t // 16 == half for t in lanes]
    elif kind == "quarter":
        quarters = rng.sample(range(4), rng.randrange(1, 4))
        mask = [t // 8 in quarters for t in lanes]
    else:
        one = rng.randrange(32)
        mask = [t == one for t in lanes]
    if not any(mask):
        mask[rng.randrange(32)] = True
    return "_" + kind, mask


number = 0
for width in (1, 2, 4, 8, 16):
    for op in ("load", "store"):
        for _ in range(56):
            shape, addresses = random_addresses(width)
            active_name, mask = random_active()
            number += 1
            case(f"rnd{number:03d}_{op[:2]}{width}_{shape}{active_name}", width, op,
                 [a if on else INACTIVE for a, on in zip(addresses, mask)])
for _ in range(48):
    count = rng.choice([1, 2, 4])
    shape, rows = random_addresses(16)
    number += 1
    ldm(f"rnd{number:03d}_ldm_x{count}_{shape}", count, lambda t: rows[t])

print("# Workbook cases for the GPU validator (tools/maintainer/make_validation_cases.py); costs measured")
print("# on a GPU by validate_bank_model (meson test --suite validator: <build>/measurements/smem-cases.tsv).")
print("# name\twidth_bytes\top\twavefronts\tncu_bank_conflicts\taddresses (lane 0 first; -1 = inactive)")
for name, width, op, addresses in cases:
    print(f"{name}\t{width}\t{op}\t-\t-\t" + " ".join(str(a) for a in addresses))
