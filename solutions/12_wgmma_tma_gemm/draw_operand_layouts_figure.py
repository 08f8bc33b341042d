#!/usr/bin/env python3
"""Writes chapter 12's figure of a K-tile's core matrices in the four operand layouts (SVG):

    solutions/12_wgmma_tma_gemm/draw_operand_layouts_figure.py > chapters/12_wgmma_tma_gemm/figures/ch12-operand-layouts.svg

A worked example the exercises do not grade: a K-tile of 16 rows (64 halves of K, 128 bytes a
row), TMA-written at a 1024-byte boundary in each layout. Each panel is the tile's 2048 bytes of
shared memory as 16 lines of 128 bytes (8 chunks of 16 bytes); a cell is one 16-byte core-matrix
row, labelled with the K-tile row it holds and its chunk of K ("r5 c2": row 5, bytes 32-47), and
coloured by the k16 step that reads it (chunks 2 s and 2 s + 1). Where each chunk lands is the
TMA's layout (chapter 11's exercise 1, measured on the H200), written below for this script only:
no shipped file holds it. Three core
matrices of k16 step 1 are outlined: the one the descriptor's start address names (rows 0-7,
chunk 2), the next 8 rows (rows 8-15, chunk 2: what the stride byte offset steps to), and the
second chunk of the step (rows 0-7, chunk 3: what the leading byte offset steps to in the
interleaved layout; in a swizzled one it is the same rows' next 16 bytes).
"""

ROWS = 16
LAYOUTS = [("SW128 (k128B)", 128), ("SW64 (k64B)", 64), ("SW32 (k32B)", 32),
           ("interleave (kInterleave)", 16)]
STEP_COLORS = ["#d9ead3", "#cfe2f3", "#fce5cd", "#ead1dc"]  # k16 steps 0..3
CELL_W, CELL_H = 50, 22
PANEL_W = 8 * CELL_W + 60
PANEL_H = 16 * CELL_H + 66  # two panels a row, two rows: labels of 12 px stay 11 at a 913-px page
LEFT, TOP = 60, 108


def operand_byte_offset(w, rows, tile_address, row, byte):
    """Where the TMA puts byte `byte` of K-tile row `row`, slab width w (16: kInterleave)."""
    dense = byte // w * rows * w + row * w + byte % w
    if w == 16:
        return dense
    absolute = tile_address + dense
    mask = (w - 1) & 0x70
    return (absolute ^ ((absolute >> 3) & mask)) - tile_address


def text(x, y, s, size=11, anchor="middle", weight="normal"):
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}">{s}</text>')


def main():
    width = LEFT + 2 * PANEL_W + 10
    height = TOP + 2 * PANEL_H + 54
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 {width} {height}" '
           f'font-family="monospace">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           text(width / 2, 20, "A K-tile of 16 rows x 128 bytes, TMA-written in each layout:", 14,
                weight="bold"),
           text(width / 2, 38, "16 lines of 128 bytes of shared memory; a cell is one 16-byte "
                "core-matrix row,", 12),
           text(width / 2, 54, "'r ROW c CHUNK' of the K-tile, coloured by the k16 step that "
                "reads it", 12)]
    for p, (name, w) in enumerate(LAYOUTS):
        x0, top = LEFT + p % 2 * PANEL_W, TOP + p // 2 * PANEL_H
        if p % 2 == 0:
            for line in range(16):
                out.append(text(LEFT - 6, top + line * CELL_H + 15, f"+{128 * line}", 12, "end"))
        out.append(text(x0 + 4 * CELL_W, top - 24, name, 13, weight="bold"))
        out.append(text(x0 + 4 * CELL_W, top - 8,
                        f"{128 // w} slab{'s' if w < 128 else ''} of 16 rows x {w} B", 12))
        where = {}
        for row in range(ROWS):
            for chunk in range(8):
                a = operand_byte_offset(w, ROWS, 0, row, 16 * chunk)
                line, place = a // 128, a % 128 // 16
                where[(row, chunk)] = (line, place)
                x, y = x0 + place * CELL_W, top + line * CELL_H
                out.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" '
                           f'fill="{STEP_COLORS[chunk // 2]}" stroke="#999" stroke-width="0.5"/>')
                out.append(text(x + CELL_W / 2, y + 15, f"r{row} c{chunk}", 12))
        # The slabs' boundaries.
        for j in range(1, 128 // w):
            line = j * ROWS * w // 128
            y = top + line * CELL_H
            out.append(f'<line x1="{x0}" y1="{y}" x2="{x0 + 8 * CELL_W}" y2="{y}" '
                       f'stroke="black" stroke-width="1.5" stroke-dasharray="4 3"/>')
        # Three core matrices of k16 step 1, each 8 rows of one chunk: outline their cells.
        for (rows, chunk, colour) in ((range(0, 8), 2, "#c00000"), (range(8, 16), 2, "#1f4e9c"),
                                      (range(0, 8), 3, "#2e7d32")):
            for row in rows:
                line, place = where[(row, chunk)]
                out.append(f'<rect x="{x0 + place * CELL_W + 1.5}" y="{top + line * CELL_H + 1.5}" '
                           f'width="{CELL_W - 3}" height="{CELL_H - 3}" fill="none" '
                           f'stroke="{colour}" stroke-width="2.5"/>')
    y = TOP + 2 * PANEL_H - 22
    legend = [("#c00000", "rows 0-7, chunk 2: the first core matrix of k16 step 1 "
                          "(what the start address names)"),
              ("#1f4e9c", "rows 8-15, chunk 2: the next 8 rows (the stride byte offset's step)"),
              ("#2e7d32", "rows 0-7, chunk 3: the step's second chunk (the leading byte offset's "
                          "step in the interleaved layout)")]
    for i, (colour, what) in enumerate(legend):
        out.append(f'<rect x="{LEFT}" y="{y + 22 * i - 12}" width="26" height="15" fill="none" '
                   f'stroke="{colour}" stroke-width="2.5"/>')
        out.append(text(LEFT + 36, y + 22 * i, what, 12, "start"))
    out.append(text(LEFT, y + 70, "dashed: where one slab (one TMA box) ends and the next begins",
                    12, "start"))
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
