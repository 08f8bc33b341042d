#!/usr/bin/env python3
"""Prints chapter 09's tiling diagram (figures/ch09-tiling.svg) as SVG: a block's 128 x 128 tile
of C with its K-step of A and B, the tile cut into the warps of the shipped (contiguous) mapping,
and one thread's 8 x 8 outputs as four 4 x 4 pieces fed by 8 values of A and 8 of B per k.
draw_lesson_figures.py runs it (its figure list names it) and checks the committed file."""

FONT = 'font-family="monospace"'
out = []


def rect(x, y, w, h, fill, stroke="#333", width=1):
    out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" '
               f'stroke="{stroke}" stroke-width="{width}"/>')


def text(x, y, s, size=12, anchor="start", weight="normal"):
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # At least 12: drawn 980 wide, the figure shows about 913 wide, its labels at 11 or more.
    out.append(f'<text x="{x}" y="{y}" font-size="{max(size, 12)}" text-anchor="{anchor}" '
               f'font-weight="{weight}">{s}</text>')


def line(x1, y1, x2, y2, color="#333", width=1, dash=""):
    d = f' stroke-dasharray="{dash}"' if dash else ""
    out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{color}" '
               f'stroke-width="{width}"{d}/>')


A_FILL, B_FILL, C_FILL, HI = "#cfe3f7", "#f9dcc4", "#eeeeee", "#f4b942"
WIDTH, HEIGHT = 980, 400

# Panel 1: the block. C's tile is 256 px for 128 rows (2 px a row); a K-step of 8 is 24 px.
text(10, 18, "1. One block, one K-step", 14, weight="bold")
x0, y0, s = 70, 90, 256
rect(x0, y0 - 40, s, 24, B_FILL)
text(x0 + s / 2, y0 - 24, "B tile: 8 x 128 (Bs[k][n])", 11, "middle")
rect(x0 - 40, y0, 24, s, A_FILL)
text(x0 - 28, y0 + s + 14, "A tile", 11, "middle")
text(x0 - 28, y0 + s + 28, "128 x 8", 11, "middle")
rect(x0, y0, s, s, C_FILL)
text(x0 + s / 2, y0 + s / 2 - 8, "C tile 128 x 128", 12, "middle")
text(x0 + s / 2, y0 + s / 2 + 10, "256 threads", 12, "middle")
text(x0 + s / 2, y0 + s / 2 + 28, "8 x 8 outputs each", 12, "middle")
text(x0, y0 + s + 50, "A's tile is stored transposed: As[k][m],", 11)
text(x0, y0 + s + 64, "so 4 consecutive m are one float4.", 11)

# Panel 2: the warps of the shipped mapping (thread t: rows 8 (t / 16) ..., columns 8 (t % 16) ...).
px = 360
text(px, 18, "2. Warps (the shipped mapping)", 14, weight="bold")
wx, wy = px + 10, y0
for w in range(8):
    rect(wx, wy + 32 * w, s, 32, "#dde8d5" if w % 2 == 0 else "#c6dab8")
    text(wx + s / 2, wy + 32 * w + 20, f"warp {w}: threads {32 * w}-{32 * w + 31}", 11, "middle")
for c in range(1, 16):
    line(wx + 16 * c, wy, wx + 16 * c, wy + 32, "#777", 0.5)
line(wx, wy + 16, wx + s, wy + 16, "#777", 0.5)
rect(wx, wy, 16, 16, HI)
text(wx, wy + s + 18, "warp 0 = 2 rows of 16 threads; thread 0", 11)
text(wx, wy + s + 32, "(gold) owns a contiguous 8 x 8 block.", 11)
text(wx, wy + s + 50, "Exercise 2b may move each thread's four", 11)
text(wx, wy + s + 64, "4 x 4 pieces elsewhere in the tile.", 11)

# Panel 3: one thread and one k: 8 values of A, 8 of B, 64 multiply-adds.
qx = 680
text(qx, 18, "3. One thread, one k", 14, weight="bold")
cx, cy, cell = qx + 60, y0, 24
rect(cx, cy - 36, 8 * cell, cell, B_FILL)
for j in range(8):
    text(cx + cell * j + cell / 2, cy - 20, f"b{j}", 10, "middle")
line(cx + 4 * cell, cy - 40, cx + 4 * cell, cy - 8, "#333", 2)
text(cx + 2 * cell, cy - 44, "float4 g=0", 10, "middle")
text(cx + 6 * cell, cy - 44, "float4 g=1", 10, "middle")
rect(cx - 36, cy, cell, 8 * cell, A_FILL)
for i in range(8):
    text(cx - 24, cy + cell * i + 16, f"a{i}", 10, "middle")
line(cx - 40, cy + 4 * cell, cx - 8, cy + 4 * cell, "#333", 2)
for h in range(2):
    for g in range(2):
        rect(cx + 4 * cell * g, cy + 4 * cell * h, 4 * cell, 4 * cell,
             HI if (h, g) == (0, 0) else "#f6e7b9")
        text(cx + 4 * cell * g + 2 * cell, cy + 4 * cell * h + 2 * cell + 4,
             f"h={h}, g={g}", 11, "middle")
text(cx - 56, cy + 2 * cell + 4, "h=0", 10)
text(cx - 56, cy + 6 * cell + 4, "h=1", 10)
text(qx, cy + 8 * cell + 22, "rows thread_row(t, h) + i, columns", 11)
text(qx, cy + 8 * cell + 36, "thread_col(t, g) + j, i, j = 0..3", 11)
text(qx, cy + 8 * cell + 54, "per k: 4 float4 loads, 64 FFMA", 11, weight="bold")
text(qx, cy + 8 * cell + 68, "registers: 64 acc + 8 a + 8 b (+ 8 for", 11)
text(qx, cy + 8 * cell + 82, "the next K-step's two float4s)", 11)

print(f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT + 20}" '
      f'viewBox="0 0 {WIDTH} {HEIGHT + 20}" {FONT}>')
print(f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT + 20}" fill="white"/>')
print("\n".join(out))
print("</svg>")
