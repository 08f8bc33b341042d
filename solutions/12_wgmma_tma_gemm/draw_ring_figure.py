#!/usr/bin/env python3
"""Writes chapter 12's figure of the kernel's ring of stages (SVG):

    solutions/12_wgmma_tma_gemm/draw_ring_figure.py > chapters/12_wgmma_tma_gemm/figures/ch12-ring.svg

The interface's ring (wgmma_tma_gemm.cuh: kStages stages of kATileBytes + kBTileBytes, a
producer warpgroup and kConsumers consumer warpgroups, full and empty mbarriers per stage), drawn
at one moment of the k-loop: K-tile kt is in stage kt % 4 and being multiplied, K-tile kt + 1
waits queued behind it, kt - 1's stage has just been released, and the producer refills it.
"""

STAGES = 4            # kStages
A_KIB, B_KIB = 16, 32  # kATileBytes, kBTileBytes / 1024
SW, SH = 170, 96      # a stage's box
LEFT, TOP = 190, 150
GAP = 36


def text(x, y, s, size=12, anchor="middle", weight="normal", fill="black"):
    # Two pixels over the size asked: the figure is drawn 1,054 wide, shown about 913 wide.
    return (f'<text x="{x}" y="{y}" font-size="{size + 2}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{s}</text>')


def arrow(x1, y1, x2, y2, colour="black"):
    return (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="2"'
            f' marker-end="url(#head-{colour.lstrip("#")})"/>')


def main():
    width = LEFT + STAGES * (SW + GAP) + 40
    height = TOP + SH + 250
    colours = ["#c00000", "#1f4e9c", "#2e7d32", "black"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 {width} {height}" '
           f'font-family="monospace">',
           f'<rect width="{width}" height="{height}" fill="white"/>', "<defs>"]
    for c in colours:
        out.append(f'<marker id="head-{c.lstrip("#")}" markerWidth="10" markerHeight="8" refX="9" '
                   f'refY="4" orient="auto"><path d="M0,0 L10,4 L0,8 z" fill="{c}"/></marker>')
    out.append("</defs>")
    out.append(text(width / 2, 24, f"The ring: {STAGES} stages of one K-tile each "
                    f"(A {A_KIB} KiB, then B {B_KIB} KiB), two mbarriers per stage", 15,
                    weight="bold"))
    # What each stage holds at this moment: stage s holds K-tile ...
    state = {0: ("K-tile kt - 1", "wgmma done?", "#eeeeee"),
             1: ("K-tile kt", "wgmma running", "#fce5cd"),
             2: ("K-tile kt + 1", "landed, queued", "#d9ead3"),
             3: ("K-tile kt + 2", "TMA in flight", "#cfe2f3")}
    for s in range(STAGES):
        x = LEFT + s * (SW + GAP)
        tile, what, fill = state[s]
        out.append(f'<rect x="{x}" y="{TOP}" width="{SW}" height="{SH}" fill="{fill}" '
                   f'stroke="black" stroke-width="1.5"/>')
        out.append(f'<line x1="{x + SW / 3}" y1="{TOP}" x2="{x + SW / 3}" y2="{TOP + SH}" '
                   f'stroke="#777" stroke-dasharray="3 3"/>')
        out.append(text(x + SW / 6, TOP + 20, "A", 11))
        out.append(text(x + 2 * SW / 3, TOP + 20, "B", 11))
        out.append(text(x + SW / 2, TOP - 10, f"stage {s}", 13, weight="bold"))
        out.append(text(x + SW / 2, TOP + 52, tile, 12, weight="bold"))
        out.append(text(x + SW / 2, TOP + 72, what, 11))
        # The two mbarriers.
        for i, name in enumerate(("full", "empty")):
            bx = x + 10 + i * (SW / 2)
            out.append(f'<rect x="{bx}" y="{TOP + SH + 10}" width="{SW / 2 - 20}" height="22" '
                       f'fill="white" stroke="black"/>')
            out.append(text(bx + (SW / 2 - 20) / 2, TOP + SH + 26, f"{name}[{s}]", 11))
    # The producer, left, above; the consumers, below.
    out.append(f'<rect x="10" y="{TOP - 90}" width="170" height="54" fill="#cfe2f3" '
               f'stroke="black"/>')
    out.append(text(95, TOP - 68, "producer warpgroup", 12, weight="bold"))
    out.append(text(95, TOP - 50, "one thread, 40 regs", 11))
    x3 = LEFT + 3 * (SW + GAP)
    out.append(arrow(180, TOP - 63, x3 + SW / 2, TOP - 30, "#1f4e9c"))
    out.append(text(x3 - 60, TOP - 62, "expect_tx on full[s], then TMA loads", 11, fill="#1f4e9c"))
    cy = TOP + SH + 130
    out.append(f'<rect x="10" y="{cy}" width="170" height="66" fill="#fce5cd" stroke="black"/>')
    out.append(text(95, cy + 20, "2 consumer", 12, weight="bold"))
    out.append(text(95, cy + 36, "warpgroups", 12, weight="bold"))
    out.append(text(95, cy + 54, "232 regs each", 11))
    x1 = LEFT + (SW + GAP)
    out.append(arrow(180, cy + 20, x1 + SW / 4, TOP + SH + 36, "#c00000"))
    out.append(text(x1 + SW / 4 + 6, cy + 40, "wait full[s], 4 wgmma, commit", 11, "start",
                    fill="#c00000"))
    out.append(text(x1 + SW / 4 + 6, cy + 60, "then wait_group N, and arrive on empty[] of the",
                    11, "start", fill="#2e7d32"))
    out.append(text(x1 + SW / 4 + 6, cy + 78, "stage no wgmma reads any more, on which the",
                    11, "start", fill="#2e7d32"))
    out.append(text(x1 + SW / 4 + 6, cy + 96, "producer waits before it refills it: which N?",
                    11, "start", fill="#2e7d32"))
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
