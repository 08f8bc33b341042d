#!/usr/bin/env python3
"""Writes chapter 10's figure of one ldmatrix.x4 feeding mma.sync.m16n8k16 to stdout (SVG):

    solutions/10_ldmatrix_swizzle/draw_fragments_figure.py > chapters/10_ldmatrix_swizzle/figures/ch10-ldmatrix-fragments.svg

A 16 x 16 piece of a K-major half tile (16 rows, 16 halves of K = two 16-byte chunks per row)
split into its four 8 x 8 matrices; on each row, the lane that gives its address; beside it, what
lane l receives: register j holds matrix j, row l / 4, halves 2 (l % 4) and 2 (l % 4) + 1, and
which operand registers of the mma that is (A: a0..a3; B: b0, b1 of two n8 halves).
"""

HALF = 18          # pixels per half (column)
ROW = 20           # pixels per row
LEFT, TOP = 70, 78
COLORS = ["#d9ead3", "#cfe2f3", "#fce5cd", "#ead1dc"]  # matrices 0..3


def text(x, y, s, size=12, anchor="middle", weight="normal"):
    # At least 10: shown at the page's width (913 of 788), the labels show at 11 or more.
    return (f'<text x="{x}" y="{y}" font-family="monospace" font-size="{max(size, 10)}" '
            f'text-anchor="{anchor}" font-weight="{weight}">{s}</text>')


def main():
    out = []
    width, height = LEFT + 16 * HALF + 430, TOP + 16 * ROW + 70
    out.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" '
               f'viewBox="0 0 {width} {height}">')
    out.append(f'<rect width="{width}" height="{height}" fill="white"/>')
    out.append(text(4, 18, "a 16 x 16 piece: rows r0 .. r0+15, halves 16 kk .. 16 kk+15", 13,
                    "start", "bold"))
    out.append(text(4, 36, "in each cell, the lane that gives its row's address", 11, "start"))
    out.append(text(LEFT + 4 * HALF, TOP - 24, "chunk 2 kk", 11))
    out.append(text(LEFT + 12 * HALF, TOP - 24, "chunk 2 kk + 1", 11))
    for h in range(16):
        out.append(text(LEFT + h * HALF + HALF / 2, TOP - 6, str(h), 9))
    for r in range(16):
        y = TOP + r * ROW
        out.append(text(LEFT - 44, y + 14, f"row {r:2d}", 11, "start"))
        for half_block in range(2):
            m = (r // 8) + 2 * half_block  # matrix of this 8 x 8 block
            x = LEFT + 8 * half_block * HALF
            out.append(f'<rect x="{x}" y="{y}" width="{8 * HALF}" height="{ROW}" '
                       f'fill="{COLORS[m]}" stroke="#888" stroke-width="0.5"/>')
            lane = 8 * m + r % 8
            out.append(text(x + 5 * HALF, y + 14, f"lane {lane}", 11))
    for m in range(4):
        x = LEFT + (8 * (m // 2)) * HALF + 4
        y = TOP + (8 * (m % 2)) * ROW + 3
        out.append(f'<rect x="{x - 4}" y="{y - 3}" width="{8 * HALF}" height="{8 * ROW}" '
                   f'fill="none" stroke="black" stroke-width="2"/>')
        out.append(text(x + 2, y + 8 * ROW - 8, f"matrix {m}", 10, "start", "bold"))
    # The right-hand side: what the lanes receive.
    x0 = LEFT + 16 * HALF + 30
    lines = [
        ("ldmatrix.x4: lane l gives the address of", "bold"),
        ("row l % 8 of matrix l / 8", "bold"),
        ("  lanes 0-7:   rows 0-7,  chunk 2 kk      (matrix 0)", None),
        ("  lanes 8-15:  rows 8-15, chunk 2 kk      (matrix 1)", None),
        ("  lanes 16-23: rows 0-7,  chunk 2 kk + 1  (matrix 2)", None),
        ("  lanes 24-31: rows 8-15, chunk 2 kk + 1  (matrix 3)", None),
        ("", None),
        ("every lane l receives 4 registers: r[j] = matrix j,", "bold"),
        ("  its row l / 4, halves 2 (l % 4) and 2 (l % 4) + 1", None),
        ("", None),
        ("as mma.sync.m16n8k16 operands:", "bold"),
        ("  A piece (16 rows of M): a0 a1 a2 a3 = r[0] r[1] r[2] r[3]", None),
        ("  B piece (16 rows of N): the n8 of rows 0-7 takes", None),
        ("    b0 = r[0], b1 = r[2]; the n8 of rows 8-15", None),
        ("    b0 = r[1], b1 = r[3]", None),
        ("", None),
        ("Each 16-byte row address is where the tile's layout", None),
        ("put that chunk of that row (exercise 3b).", None),
    ]
    for k, (s, weight) in enumerate(lines):
        out.append(text(x0, TOP + 4 + 18 * k, s, 11, "start", weight or "normal"))
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
