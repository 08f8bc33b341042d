// The bank model's tile view: one warp's request drawn on the tile it reads, rows of `pitch`
// bytes and columns of its element (the bytes a lane moves), each cell coloured by the bank of
// its first word. Cells a lane touches carry the lowest such lane; a cell served after its
// bank's first pass is outlined, for it costs a wavefront more. The page (bank_model_page.js)
// draws one tile, or two side by side for a before/after, from the analyser's --json output.
"use strict";

const BankTile = (() => {
  const MOST_COLUMNS = 256;
  const isAsync = (data) => data.op.startsWith("cp.async");

  // Every 4-byte word the request touches: [{bank, lanes, group, wave}], one entry per group
  // that touches it. The wave of a load, store or ldmatrix is the word's pass through its bank
  // (its place in the bank's list), after the earlier groups' wavefronts; cp.async moves a
  // group's words by a rule of its own (docs/analyzer.md), so only its group is told.
  function servedWords(data) {
    const words = new Map();
    let before = 0;
    data.group_detail.forEach((group, g) => {
      group.banks.forEach((served, bank) => {
        served.forEach((entry, pass) => {
          if (!words.has(entry.word)) words.set(entry.word, []);
          const wave = isAsync(data) ? null : before + pass + 1;
          words.get(entry.word).push({ bank, lanes: entry.lanes, group: g, wave });
        });
      });
      before += group.wavefronts;
    });
    return words;
  }

  // The tile's shape for the request, or why it cannot be drawn: {element, columns, rows}, rows
  // being the tile rows a lane touches, in order (at most 32: a lane's access is one element).
  function shape(data, pitch) {
    const element = data.width;
    if (!Number.isInteger(pitch) || pitch <= 0) {
      return { problem: "the tile's row must be a whole number of bytes, more than 0" };
    }
    if (pitch % element !== 0) {
      return { problem: `a row of ${pitch} bytes is not a whole number of ${element}-byte ` +
                        "elements: give a multiple of the bytes per lane" };
    }
    if (pitch / element > MOST_COLUMNS) {
      return { problem: `a row of ${pitch} bytes holds ${pitch / element} elements; the view ` +
                        `draws at most ${MOST_COLUMNS}` };
    }
    const touched = data.addresses.filter((a) => a >= 0).map((a) => Math.floor(a / pitch));
    const rows = [...new Set(touched)].sort((a, b) => a - b);
    return { element, columns: pitch / element, rows };
  }

  // What one cell holds: its address, banks, the lanes that access it (an access is one whole
  // element: the analyser refuses an address that is not a multiple of its width), and the
  // waves (or groups) that serve them.
  function cellOf(data, words, pitch, element, row, column) {
    const address = row * pitch + column * element;
    const lanes = [];
    data.addresses.forEach((a, lane) => {
      if (a === address) lanes.push(lane);
    });
    const banks = new Set();
    const waves = new Set();
    const groups = new Set();
    for (let w = Math.floor(address / 4); w <= Math.floor((address + element - 1) / 4); ++w) {
      banks.add(w % 32);
      for (const entry of words.get(w) || []) {
        if (!entry.lanes.some((l) => lanes.includes(l))) continue;
        groups.add(entry.group + 1);
        if (entry.wave !== null) waves.add(entry.wave);
      }
    }
    return { address, lanes, banks: [...banks], waves: [...waves].sort((a, b) => a - b),
             groups: [...groups].sort((a, b) => a - b) };
  }

  const listed = (values) => values.join(", ");

  // A cell told in words, as the info line and a screen reader say it.
  function describe(data, cell, row, column) {
    const bytes = data.width === 1 ? `byte ${cell.address}`
      : `bytes ${cell.address}-${cell.address + data.width - 1}`;
    const banks = cell.banks.length === 1 ? `bank ${cell.banks[0]}`
      : `banks ${cell.banks[0]}-${cell.banks[cell.banks.length - 1]}`;
    let text = `row ${row}, column ${column}: ${bytes}, ${banks}`;
    if (cell.lanes.length === 0) return text + "; no lane touches it.";
    text += `; lane${cell.lanes.length === 1 ? "" : "s"} ${listed(cell.lanes)}`;
    if (isAsync(data)) {
      return text + `, in group ${listed(cell.groups)} (one group per global line read).`;
    }
    return text + `, served in wavefront ${listed(cell.waves)} of ${data.wavefronts}.`;
  }

  // Draws the tile of `data` (the analyser's --json output) with rows of `pitch` bytes into
  // `target`, under `title`; a tile that cannot be drawn says why instead.
  function draw(target, data, pitch, title) {
    target.replaceChildren();
    const caption = document.createElement("figcaption");
    const s = data.wavefronts === 1 ? "" : "s";
    caption.textContent = `${title}: ${data.wavefronts} wavefront${s} (ideal ${data.ideal})`;
    target.appendChild(caption);
    const tile = shape(data, pitch);
    if (tile.problem) {
      const p = document.createElement("p");
      p.className = "tile-problem";
      p.textContent = `No tile drawn: ${tile.problem}.`;
      target.appendChild(p);
      return;
    }
    const words = servedWords(data);
    const box = document.createElement("div");
    box.className = "tile-box";
    const grid = document.createElement("div");
    grid.className = "tile-grid";
    grid.style.gridTemplateColumns = `auto repeat(${tile.columns}, minmax(0.85rem, 1fr))`;
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", `${title}: rows of ${pitch} bytes, ${tile.columns} ` +
                                    `columns of ${tile.element}-byte elements`);
    // The columns' numbers (every fourth where they are many), over an empty corner.
    grid.appendChild(document.createElement("span"));
    for (let column = 0; column < tile.columns; ++column) {
      const label = document.createElement("span");
      label.className = "tile-column";
      if (tile.columns <= 16 || column % 4 === 0) label.textContent = column;
      grid.appendChild(label);
    }
    for (const row of tile.rows) {
      const label = document.createElement("span");
      label.className = "tile-row";
      label.textContent = row;
      grid.appendChild(label);
      for (let column = 0; column < tile.columns; ++column) {
        const cell = cellOf(data, words, pitch, tile.element, row, column);
        const span = document.createElement("span");
        span.className = "tile-cell";
        // Neighbouring banks far apart on the colour wheel: bank b at hue 7 b / 32 of a turn.
        span.style.setProperty("--hue", `${((cell.banks[0] * 7) % 32) * 11.25}`);
        span.dataset.bank = cell.banks[0];
        span.dataset.banks = cell.banks.join(" ");
        span.dataset.address = cell.address;
        span.dataset.lanes = cell.lanes.join(" ");
        span.dataset.waves = cell.waves.join(" ");
        span.dataset.row = row;
        span.dataset.column = column;
        span.title = describe(data, cell, row, column);
        if (cell.lanes.length > 0) {
          span.classList.add("touched");
          span.textContent = cell.lanes[0];
          span.tabIndex = 0;
          if (!isAsync(data) && cell.waves.some((w) => !firstPass(data, w))) {
            span.classList.add("late");
          }
        }
        grid.appendChild(span);
      }
    }
    box.appendChild(grid);
    target.appendChild(box);
  }

  // Whether wave `w` is the first pass of its group (the earlier groups' wavefronts plus one).
  function firstPass(data, w) {
    let before = 0;
    for (const group of data.group_detail) {
      if (w === before + 1) return true;
      before += group.wavefronts;
    }
    return false;
  }

  // Marks the cells under `root` whose first bank is `bank` (the cells that hold it: elements
  // are aligned), or unmarks all for null; returns the lanes those cells hold, in order.
  function selectBank(root, bank) {
    const lanes = new Set();
    for (const cell of root.querySelectorAll(".tile-cell")) {
      const chosen = bank !== null && cell.dataset.bank === String(bank);
      cell.classList.toggle("chosen-bank", chosen);
      if (chosen && cell.dataset.lanes !== "") {
        cell.dataset.lanes.split(" ").forEach((l) => lanes.add(Number(l)));
      }
    }
    return [...lanes].sort((a, b) => a - b);
  }

  // A tile row as typed: its bytes, `otherwise` where nothing is typed, NaN where it is not a
  // number (the tile then says why it is not drawn).
  function rowBytes(text, otherwise) {
    if (text.trim() === "") return otherwise;
    return /^[0-9]+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  }

  return { draw, selectBank, rowBytes };
})();
