#!/usr/bin/env python3
"""Writes the bank model in the browser as one self-contained HTML file: the page's layout with
its style, the WebAssembly build of the analyser (emscripten's JavaScript, the WebAssembly inside
it) and the page's script inlined, and the H200 cases it holds as JSON. The file works offline,
opened from disk. tools/meson.build runs it:

    make_bank_model_page.py PAGE.html STYLE.css PAGE.js TILE.js MODEL.js COUNTED.tsv OUTPUT.html

TILE.js (the tile view) goes into the page before PAGE.js, which uses it.

COUNTED.tsv is a case file (common/model/case_file.hpp) whose every line has its counts.
"""
import json
import os
import sys


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def counted_cases(path):
    """The cases of a case file with their counts, as the page reads them."""
    cases = []
    for number, line in enumerate(read(path).splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        where = f"{path}:{number}"
        if len(cells) != 6:
            sys.exit(f"{where}: {len(cells)} tab-separated fields; a counted case has 6 (name, "
                     f"width, op, wavefronts, conflicts, 32 addresses)")
        try:
            addresses = [int(a) for a in cells[5].split()]
            case = {"name": cells[0], "width": int(cells[1]), "op": cells[2],
                    "wavefronts": int(cells[3]), "conflicts": int(cells[4]),
                    "addresses": addresses}
        except ValueError as e:
            sys.exit(f"{where}: {e}")
        if len(addresses) != 32:
            sys.exit(f"{where}: {len(addresses)} addresses; a warp has 32")
        cases.append(case)
    if not cases:
        sys.exit(f"{path}: no case")
    return cases


def inline_script(text, what):
    """`text` as the body of a <script> element: it may not close the element early."""
    if "</script" in text.lower():
        sys.exit(f"make_bank_model_page.py: {what} holds '</script', which would end the page's "
                 f"script early")
    return text


def main():
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    page, style, page_script, tile_script, model_script, counted_path, output = sys.argv[1:]
    cases = counted_cases(counted_path)
    # The file's name as the workbook has it, for the page's text.
    counted_name = "tools/student/browser/" + os.path.basename(counted_path)
    fields = {
        "@STYLE@": read(style),
        "@COUNTED_CASES@": inline_script(json.dumps({"cases": cases}, separators=(",", ":")),
                                         counted_path),
        "@COUNTED_COUNT@": f"{len(cases):,}",
        "@COUNTED_FILE@": counted_name,
        "@MODEL_SCRIPT@": inline_script(read(model_script), model_script),
        "@PAGE_SCRIPT@": inline_script(read(tile_script), tile_script) + "\n" +
                         inline_script(read(page_script), page_script),
    }
    text = read(page)
    for key, value in fields.items():
        if text.count(key) != 1:
            sys.exit(f"make_bank_model_page.py: {page} holds {key} {text.count(key)} times, not "
                     f"once")
        text = text.replace(key, value)
    temporary = output + ".partial"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(temporary, output)


if __name__ == "__main__":
    main()
