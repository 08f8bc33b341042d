// The bank model in the browser: the form's fields become analyze_smem_access's argument vector,
// the WebAssembly build of the analyser (bank_model_in_browser.cpp) answers, and the page shows
// what the analyser prints. Where the request is one of the H200 cases the page holds, it shows
// what the H200 counted beside the model's answer.
"use strict";

(function () {
  const field = (id) => document.getElementById(id);
  const form = field("request");

  // The analyser page's examples (docs/analyzer.md), as its command lines give them.
  const WORKED_EXAMPLES = [
    ["stride 1", "load", 4, "t*4"],
    ["stride 2", "load", 4, "t*8"],
    ["stride 32", "load", 4, "t*128"],
    ["stride 33", "load", 4, "t*33*4"],
    ["broadcast", "load", 4, "28"],
    ["column 5 of float tile[32][32]", "load", 4, "t*32*4 + 5*4"],
    ["column 5 of float tile[32][33]", "load", 4, "t*33*4 + 5*4"],
    ["contiguous float4", "load", 16, "t*16"],
    ["ldmatrix.x4 of eight 128-byte rows", "ldmatrix.x4", 16, "(t%8)*128 + (t/8)*16"],
    ["the same rows, chunks swizzled", "ldmatrix.x4", 16, "(t%8)*128 + ((t/8 ^ t%8) & 7)*16"],
  ];

  // Before and after, drawn side by side: [what, op, width, first address, its tile row,
  // compared address, its tile row]. The lessons' own figures, no exercise's tile.
  const BEFORE_AFTER = [
    ["padding (chapter 06): column 3 of float tile[64][64], then of tile[64][65]", "load", 4,
     "t*64*4 + 3*4", 256, "t*65*4 + 3*4", 260],
    ["XOR swizzle (chapter 07): column 3 of a 16-word-wide tile, col ^ (row % 16), then " +
     "col ^ ((row / 2) % 16)", "load", 4, "t*64 + (3 ^ (t%16))*4", 64,
     "t*64 + (3 ^ ((t/2)%16))*4", 64],
    ["ldmatrix.x1 (chapter 10): rows 0-7 of 256-byte rows at chunk 0, then Swizzle<3, 4, 4>",
     "ldmatrix.x1", 16, "(t%8)*256", 256, "(t%8)*256 + (t%8)*16", 256],
  ];

  // The H200 cases: [{name, width, op, wavefronts, conflicts, addresses}], and the same keyed by
  // the request (width, op and the 32 addresses, -1 for an inactive lane).
  const counted = JSON.parse(field("counted-cases").textContent);
  const requestKey = (width, op, addresses) => `${width} ${op} ${addresses.join(" ")}`;
  const countedByRequest = new Map(
    counted.cases.map((c) => [requestKey(c.width, c.op, c.addresses), c]));

  const fixedWidth = (op) => op.startsWith("ldmatrix") || op.startsWith("cp.async");
  const given = () => form.elements.given.value;

  // The analyser's arguments for what the form says, in the order the page's command shows
  // them. Empty fields are left out (all lanes active, the default shared-memory size); what is
  // typed goes to the analyser as typed, so that it judges it as the terminal would.
  function argumentsOfForm(compared) {
    const args = [];
    const op = field("op").value;
    if (op !== "load") args.push("--op", op);
    if (!fixedWidth(op) && field("width").value !== "4") args.push("--width", field("width").value);
    if (field("active").value !== "") args.push("--active", field("active").value);
    if (field("shared-bytes").value !== "") {
      args.push("--shared-bytes", field("shared-bytes").value);
    }
    if (compared !== undefined) {
      args.push(compared);
    } else if (given() === "addresses") {
      args.push("--addresses", field("addresses").value);
    } else {
      args.push(field("expression").value);
    }
    return args;
  }

  // An argument as a POSIX shell reads it back: bare when it is plain, else in single quotes.
  function shellWord(word) {
    if (/^[A-Za-z0-9_.,:=+\/-]+$/.test(word)) return word;
    return "'" + word.replace(/'/g, "'\\''") + "'";
  }

  // Runs the analyser's code on `args`; returns its exit status and what it printed.
  function analyse(model, args) {
    const strings = args.map((a) => {
      const size = model.lengthBytesUTF8(a) + 1;
      const pointer = model._malloc(size);
      model.stringToUTF8(a, pointer, size);
      return pointer;
    });
    const argv = model._malloc(4 * Math.max(1, strings.length));
    strings.forEach((pointer, i) => model.setValue(argv + 4 * i, pointer, "i32"));
    try {
      const status = model._bank_model_analyse(strings.length, argv);
      return {
        status,
        json: model.UTF8ToString(model._bank_model_json()),
        picture: model.UTF8ToString(model._bank_model_picture()),
        svg: model.UTF8ToString(model._bank_model_svg()),
        error: model.UTF8ToString(model._bank_model_error()),
      };
    } finally {
      strings.forEach((pointer) => model._free(pointer));
      model._free(argv);
    }
  }

  // The analyser's picture, its colour codes shown as colours: a red code marks a bank that needs
  // the most passes, a cyan one a word that several lanes share.
  const COLOUR_CLASS = { "1;31": "worst", "36": "shared" };
  function showPicture(target, picture) {
    target.replaceChildren();
    let span = null;
    for (const part of picture.split(/(\x1b\[[0-9;]*m)/)) {
      const code = /^\x1b\[([0-9;]*)m$/.exec(part);
      if (code) {
        span = COLOUR_CLASS[code[1]] ? document.createElement("span") : null;
        if (span) {
          span.className = COLOUR_CLASS[code[1]];
          target.appendChild(span);
        }
      } else if (part !== "") {
        (span || target).appendChild(document.createTextNode(part));
      }
    }
  }

  let svgUrl = null;
  function showSvg(svg) {
    if (svgUrl) URL.revokeObjectURL(svgUrl);
    svgUrl = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    field("svg").src = svgUrl;
  }

  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  function showCounted(data) {
    const target = field("counted");
    const c = countedByRequest.get(requestKey(data.width, data.op, data.addresses));
    target.classList.toggle("measured", Boolean(c));
    if (c) {
      const agrees = c.wavefronts === data.wavefronts && c.conflicts === data.conflicts;
      target.textContent = `The H200 counted ${plural(c.wavefronts, "wavefront")} and ` +
        `${plural(c.conflicts, "bank conflict")} for this request (validator case ${c.name}); ` +
        `the model says ${data.wavefronts} and ${data.conflicts}` +
        (agrees ? "." : ": they disagree.");
      target.dataset.case = c.name;
    } else {
      const held = counted.cases.length.toLocaleString("en");
      target.textContent = `This request is not one of the ${held} H200 validator cases the ` +
        "page holds, so there is no counted figure to show beside the model's.";
      delete target.dataset.case;
    }
  }

  // The address bar follows the form (the names fillFromQuery reads), so that the link in it
  // shows this request to whoever opens it; empty and default fields are left out. Written once
  // typing pauses: browsers ignore an address rewritten hundreds of times a second.
  let queryTimer = null;
  function writeQuery() {
    window.clearTimeout(queryTimer);
    queryTimer = window.setTimeout(writeQueryNow, 250);
  }
  function writeQueryNow() {
    const query = new URLSearchParams();
    const typed = given() === "addresses" ? "addresses" : "expression";
    query.set(typed, field(typed).value);
    const op = field("op").value;
    if (op !== "load") query.set("op", op);
    if (!fixedWidth(op) && field("width").value !== "4") query.set("width", field("width").value);
    for (const name of ["active", "shared-bytes", "pitch", "compare", "compare-pitch"]) {
      if (field(name).value !== "") query.set(name, field(name).value);
    }
    try {
      window.history.replaceState(null, "", "?" + query.toString());
    } catch (error) {
      // A page opened from a file may not rewrite its address in every browser: the form works.
    }
  }

  function update(model) {
    const op = field("op").value;
    showWidth(op);
    writeQuery();
    field("async-note").hidden = !op.startsWith("cp.async");
    const args = argumentsOfForm();
    field("command").textContent = ["analyze_smem_access"].concat(args.map(shellWord)).join(" ");
    const printed = analyse(model, args);
    const ok = printed.status === 0;
    field("answer").hidden = !ok;
    field("error").hidden = ok;
    form.dataset.status = String(printed.status);
    // What a screen reader says after each change: the error, or the analyser's line of numbers.
    field("spoken").textContent = (ok ? printed.picture : printed.error).split("\n")[0];
    if (!ok) {
      field("error").textContent = printed.error;
      return;
    }
    const data = JSON.parse(printed.json);
    field("groups").textContent = data.groups;
    field("wavefronts").textContent = data.wavefronts;
    field("ideal").textContent = data.ideal;
    field("conflicts").textContent = data.conflicts;
    field("ways").textContent = data.ways;
    field("merged-pairs").textContent = data.merged_pairs ? "yes" : "no";
    field("json").textContent = printed.json;
    showPicture(field("picture"), printed.picture);
    showSvg(printed.svg);
    showCounted(data);
    showTiles(model, data);
  }

  // The request on its tile and, where an address to compare is given, that one beside it.
  let chosenBank = null;
  function showTiles(model, data) {
    const compared = field("compare").value.trim();
    const pitch = BankTile.rowBytes(field("pitch").value, 128);
    BankTile.draw(field("tile-first"), data, pitch, compared === "" ? "the request" : "before");
    field("tile-second").hidden = compared === "";
    if (compared !== "") {
      const other = analyse(model, argumentsOfForm(compared));
      if (other.status === 0) {
        const row = BankTile.rowBytes(field("compare-pitch").value, pitch);
        BankTile.draw(field("tile-second"), JSON.parse(other.json), row, `after: ${compared}`);
      } else {
        const p = document.createElement("p");
        p.className = "tile-problem";
        p.textContent = `The address to compare with: ${other.error.split("\n")[0]}`;
        field("tile-second").replaceChildren(p);
      }
    }
    showBank();
  }

  // The cells of the chosen bank marked in each tile, and the lanes they hold told.
  function showBank() {
    const told = [];
    for (const id of ["tile-first", "tile-second"]) {
      const lanes = BankTile.selectBank(field(id), chosenBank);
      if (chosenBank !== null && !field(id).hidden) {
        const caption = field(id).querySelector("figcaption");
        const where = caption ? caption.textContent.split(":")[0] : id;
        told.push(`${where}: ${lanes.length ? "lanes " + lanes.join(", ") : "no lane"}`);
      }
    }
    field("tile-info").textContent = chosenBank === null ? "Point at a cell."
      : `Bank ${chosenBank} is marked; ${told.join("; ")}.`;
  }

  // ldmatrix and cp.async move 16 bytes per lane whatever the width says: the field shows 16,
  // unchangeable, and the width chosen for loads and stores comes back with them.
  let chosenWidth = null;
  function showWidth(op) {
    const width = field("width");
    if (fixedWidth(op) && !width.disabled) {
      chosenWidth = width.value;
      width.value = "16";
      width.disabled = true;
    } else if (!fixedWidth(op) && width.disabled) {
      width.disabled = false;
      if (chosenWidth !== null) width.value = chosenWidth;
    }
  }

  function fill(values) {
    form.elements.given.value = values.addresses !== undefined ? "addresses" : "expression";
    field("op").value = values.op || "load";
    field("width").disabled = false;
    field("width").value = String(values.width || 4);
    field("active").value = values.active || "";
    field("shared-bytes").value = values.sharedBytes || "";
    if (values.addresses !== undefined) field("addresses").value = values.addresses;
    if (values.expression !== undefined) field("expression").value = values.expression;
    field("pitch").value = values.pitch || "";
    field("compare").value = values.compare || "";
    field("compare-pitch").value = values.comparePitch || "";
    showGiven();
  }

  function showGiven() {
    const addresses = given() === "addresses";
    field("addresses-row").hidden = !addresses;
    field("expression-row").hidden = addresses;
  }

  function fillMenus() {
    const worked = field("worked-examples");
    WORKED_EXAMPLES.forEach(([what, op, width, expression], i) => {
      const option = new Option(`${what}: ${expression}`, String(i));
      worked.appendChild(option);
    });
    BEFORE_AFTER.forEach(([what], i) => {
      field("before-after-examples").appendChild(new Option(what, `before-after ${i}`));
    });
    // The measured cases by operation (in the order of the operation menu) and width, in the
    // file's order within each group.
    const operations = [...field("op").options].map((o) => [o.value, o.textContent]);
    const groups = new Map();
    for (const [op, label] of operations) {
      for (const width of op === "load" || op === "store" ? [1, 2, 4, 8, 16] : [16]) {
        groups.set(`${width} ${op}`, {
          label: op === "load" || op === "store" ? `${width}-byte ${op}s` : label,
          cases: [],
        });
      }
    }
    counted.cases.forEach((c, i) => {
      const group = groups.get(`${c.width} ${c.op}`);
      if (group) group.cases.push([c, i]);
    });
    for (const { label, cases } of groups.values()) {
      if (cases.length === 0) continue;
      const group = document.createElement("optgroup");
      group.label = `${label} (${cases.length})`;
      for (const [c, i] of cases) group.appendChild(new Option(c.name, String(i)));
      field("measured").appendChild(group);
    }
  }

  // A link may fill in the form: bank_model.html?expression=t*8&op=store&width=8&active=0-15.
  function fillFromQuery() {
    const query = new URLSearchParams(window.location.search);
    if ([...query.keys()].length === 0) return;
    fill({
      expression: query.get("expression") ?? undefined,
      addresses: query.get("addresses") ?? undefined,
      op: query.get("op") ?? undefined,
      width: query.get("width") ?? undefined,
      active: query.get("active") ?? undefined,
      sharedBytes: query.get("shared-bytes") ?? undefined,
      pitch: query.get("pitch") ?? undefined,
      compare: query.get("compare") ?? undefined,
      comparePitch: query.get("compare-pitch") ?? undefined,
    });
  }

  function start(model) {
    fillMenus();
    fillFromQuery();
    const again = () => update(model);
    form.addEventListener("input", again);
    form.addEventListener("change", (event) => {
      if (event.target.name === "given") showGiven();
      again();
    });
    field("example").addEventListener("change", (event) => {
      event.stopPropagation();
      const pair = /^before-after (\d+)$/.exec(event.target.value);
      const chosen = pair ? null : WORKED_EXAMPLES[Number(event.target.value)];
      if (chosen) fill({ op: chosen[1], width: chosen[2], expression: chosen[3] });
      if (pair) {
        const [, op, width, expression, pitch, compare, comparePitch] = BEFORE_AFTER[pair[1]];
        fill({ op, width, expression, pitch: String(pitch), compare,
               comparePitch: String(comparePitch) });
      }
      event.target.value = "";
      again();
    });
    field("measured").addEventListener("change", (event) => {
      event.stopPropagation();
      const c = counted.cases[Number(event.target.value)];
      if (c) fill({ op: c.op, width: c.width, addresses: c.addresses.join(" ") });
      event.target.value = "";
      again();
    });
    // A cell read where it is pointed at or reached by the keyboard; a click marks its bank.
    const cellOf = (event) => event.target.closest && event.target.closest(".tile-cell");
    const read = (event) => {
      const cell = cellOf(event);
      if (cell) field("tile-info").textContent = cell.title;
    };
    field("tiles").addEventListener("mouseover", read);
    field("tiles").addEventListener("focusin", read);
    field("tiles").addEventListener("click", (event) => {
      const cell = cellOf(event);
      if (!cell) return;
      const bank = Number(cell.dataset.bank);
      chosenBank = chosenBank === bank ? null : bank;
      showBank();
    });
    field("copy-link").addEventListener("click", () => {
      writeQueryNow();
      const link = field("link");
      link.value = window.location.href;
      link.hidden = false;
      link.select();
      if (navigator.clipboard) navigator.clipboard.writeText(link.value).catch(() => {});
    });
    field("status").textContent = "";
    field("status").hidden = true;
    form.dataset.ready = "true";
    again();
  }

  if (typeof WebAssembly !== "object") {
    field("status").textContent =
      "This browser cannot run WebAssembly, which the bank model needs.";
    return;
  }
  createBankModel()
    .then(start)
    .catch((error) => {
      field("status").textContent = `The bank model did not load: ${error}`;
    });
})();
