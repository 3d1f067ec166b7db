// The page of `wsdb serve`. All puzzle logic (parsing, colour counts, moves,
// solving) stays on the server; the page draws, paints and animates. States
// travel as the CLI writes them: rows of digits 1..c joined by '/'.
"use strict";

const $ = (id) => document.getElementById(id);
const CELL_PX = { 4: 64, 6: 50, 8: 42 };

const S = {
  n: 4, c: 4,
  puzzle: null,        // GET /api/puzzle: counts, solved, moves, build, hint
  cells: [],           // colours 1..c, row by row: what the grid shows
  colour: 1,           // the paint
  cursor: 0,           // keyboard cursor
  painting: false,
  solution: null,      // POST /api/solve answer for `frames[0]`
  frames: null,        // the state after each move of the solution
  pos: 0,              // how many of its moves the grid shows done
  playing: false,
  animating: false,
  lookupSeq: 0,
};

// ---- talking to the server ------------------------------------------------

async function api(path, body) {
  const init = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON: reported below */ }
  if (!res.ok) {
    const why = data && typeof data.detail === "string" ? data.detail : `the server answered ${res.status}`;
    throw new Error(why);
  }
  return data;
}

const parseText = (text) => text.split("/").join("").split("").map(Number);
const formatCells = (cells, n) =>
  Array.from({ length: n }, (_, r) => cells.slice(r * n, r * n + n).join("")).join("/");
const stateText = () => formatCells(S.cells, S.n);
const shownCells = () => (S.frames ? S.frames[S.pos] : S.cells);   // a replay shows its frame

function showError(text) {
  const m = $("message");
  m.textContent = text || "";
  m.hidden = !text;
}

// ---- the grid -------------------------------------------------------------

function buildGrid() {
  const grid = $("grid");
  document.documentElement.style.setProperty("--n", S.n);
  document.documentElement.style.setProperty("--cell", `${CELL_PX[S.n]}px`);
  grid.replaceChildren();
  for (let i = 0; i < S.n * S.n; i++) {
    const d = document.createElement("div");
    d.className = "cell";
    d.dataset.cell = i;
    d.setAttribute("role", "gridcell");
    place(d, Math.floor(i / S.n), i % S.n);
    grid.appendChild(d);
  }
}

function place(el, r, j) {
  el.style.left = `${j * CELL_PX[S.n]}px`;
  el.style.top = `${r * CELL_PX[S.n]}px`;
}

function drawCells(cells) {
  const grid = $("grid");
  grid.querySelectorAll(".ghost").forEach((g) => g.remove());
  grid.classList.remove("sliding");
  grid.querySelectorAll(".cell").forEach((d) => {
    const i = Number(d.dataset.cell);
    d.className = `cell k${cells[i]}` + (i === S.cursor && document.activeElement === grid ? " cursor" : "");
    d.style.transform = "";
    d.textContent = cells[i];
    d.setAttribute("aria-label", `row ${Math.floor(i / S.n) + 1}, column ${i % S.n + 1}: colour ${cells[i]}`);
  });
  grid.dataset.state = formatCells(cells, S.n);
}

function drawPalette() {
  const pal = $("palette");
  pal.replaceChildren();
  const have = countColours(S.cells);
  for (let k = 1; k <= S.c; k++) {
    const b = document.createElement("button");
    b.className = "swatch";
    b.dataset.colour = k;
    b.setAttribute("role", "radio");
    b.setAttribute("aria-checked", String(k === S.colour));
    const want = S.puzzle ? S.puzzle.counts[k - 1] : 0;
    b.title = `Paint colour ${k} (key ${k}): ${have[k]} of ${want} cells`;
    b.innerHTML = `<span class="chip k${k}">${k}</span><span class="count${have[k] === want ? "" : " off"}">` +
      `${have[k]}/${want}</span>`;
    b.addEventListener("click", () => { S.colour = k; drawPalette(); });
    pal.appendChild(b);
  }
}

function countColours(cells) {
  const have = Array(S.c + 1).fill(0);
  cells.forEach((k) => { have[k] += 1; });
  return have;
}

// The live check: do the colour counts fit the puzzle, and what is missing.
function checkCounts() {
  const have = countColours(S.cells);
  const want = S.puzzle.counts;
  const wrong = [];
  for (let k = 1; k <= S.c; k++) {
    const d = want[k - 1] - have[k];
    if (d > 0) wrong.push(`${d} more of colour ${k}`);
    if (d < 0) wrong.push(`${-d} fewer of colour ${k}`);
  }
  const el = $("check");
  if (wrong.length === 0) {
    el.textContent = "Colour counts fit: this is a state of the puzzle.";
    el.className = "ok";
    return true;
  }
  el.textContent = `Colour counts do not fit yet: paint ${wrong.join(", ")} ` +
    `(each state has ${want.map((w, i) => `${w} of colour ${i + 1}`).join(", ")}).`;
  el.className = "off";
  return false;
}

// ---- editing --------------------------------------------------------------

function edited() {
  stopReplay();
  S.solution = null; S.frames = null; S.pos = 0;
  $("result").hidden = true;
  showError("");
  $("state-text").value = stateText();
  drawCells(S.cells);
  drawPalette();
  if (checkCounts()) lookupSoon(); else showDistance(null);
}

function paint(i, k) {
  if (S.animating) return;
  if (S.frames) S.cells = shownCells().slice();   // paint on what is shown
  if (S.cells[i] === k && !S.frames) return;
  S.cells[i] = k;
  edited();
}

function cellAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el && el.classList.contains("cell") && !el.classList.contains("ghost") ? Number(el.dataset.cell) : null;
}

function setupPainting() {
  const grid = $("grid");
  grid.addEventListener("pointerdown", (e) => {
    const i = cellAt(e.clientX, e.clientY);
    if (i === null) return;
    e.preventDefault();
    grid.focus({ preventScroll: true });
    S.painting = true;
    S.cursor = i;
    paint(i, S.colour);
    drawCells(shownCells());
  });
  grid.addEventListener("pointermove", (e) => {
    if (!S.painting) return;
    const i = cellAt(e.clientX, e.clientY);
    if (i !== null) { S.cursor = i; paint(i, S.colour); }
  });
  window.addEventListener("pointerup", () => { S.painting = false; });
  grid.addEventListener("focus", () => drawCells(shownCells()));
  grid.addEventListener("blur", () => drawCells(shownCells()));
  grid.addEventListener("keydown", (e) => {
    const n = S.n;
    let r = Math.floor(S.cursor / n), j = S.cursor % n;
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (moves[e.key]) {
      r = (r + moves[e.key][0] + n) % n; j = (j + moves[e.key][1] + n) % n;
      S.cursor = r * n + j;
      drawCells(shownCells());
    } else if (/^[1-4]$/.test(e.key) && Number(e.key) <= S.c) {
      S.colour = Number(e.key);
      paint(S.cursor, S.colour);
      drawPalette();
    } else if (e.key === " " || e.key === "Enter") {
      paint(S.cursor, S.colour);
    } else {
      return;
    }
    e.preventDefault();
  });
}

// ---- puzzle, state text, random, solved -----------------------------------

let puzzleSeq = 0;
async function loadPuzzle(n, c, cells) {
  const seq = ++puzzleSeq;
  const p = await api(`/api/puzzle?n=${n}&c=${c}`);
  if (seq !== puzzleSeq) return;                     // a later choice has overtaken this one
  S.n = n; S.c = c; S.puzzle = p;
  $("size").value = String(n); $("colours").value = String(c);
  S.colour = Math.min(S.colour, c);
  S.cursor = 0;
  S.cells = cells || parseText(p.solved);
  buildGrid();
  edited();
}

async function loadText(text) {
  showError("");
  let played;
  try {
    played = await api("/api/apply", { state: text, moves: [] });   // parses as the CLI does
  } catch (e) {
    showError(e.message);
    return;
  }
  const rows = played.state.split("/");
  const cells = parseText(played.state);
  await loadPuzzle(rows.length, Math.max(...cells), cells);
}

// ---- the exact distance, as soon as a state is painted ------------------------

let lookupTimer = null;
function lookupSoon() {
  clearTimeout(lookupTimer);
  showDistance("Looking it up…", true);
  lookupTimer = setTimeout(lookupNow, 150);
}

async function lookupNow() {
  const seq = ++S.lookupSeq;
  const text = stateText();
  try {
    const a = await api("/api/lookup", { state: text });
    if (seq !== S.lookupSeq) return;
    if (a.distance === 0) showDistance("Solved.");
    else if (a.distance !== null) showDistance(`Exact distance: ${a.distance} moves (from the database).`);
    else showDistance(`More than ${a.more_than} moves from solved: beyond the stored part of the tree.`, false,
      "Solve finds a sequence and a proven lower bound.");
  } catch (e) {
    if (seq !== S.lookupSeq) return;
    showDistance("Exact distance not known here.", false, hintText(e.message));
  }
}

// Text with `command` spans shown as code.
function rich(text) {
  return text.split("`").map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const c = document.createElement("code");
    c.textContent = part;
    return c;
  });
}

function hintText(why) {
  const p = S.puzzle;
  if (p && p.hint) return `The database has no complete ${S.n}×${S.n} ${S.c}-colour tree: Solve still answers, ` +
    `with a proven lower bound. \`${p.hint}\` on the server gives exact answers wherever its tree reaches.`;
  return why;
}

function showDistance(text, pending, hint) {
  const el = $("distance");
  el.replaceChildren();
  if (!text) return;
  el.append(text);
  if (hint) {
    const h = document.createElement("span");
    h.className = "hint";
    h.append(" ", ...rich(hint));
    el.append(h);
  }
  el.style.opacity = pending ? 0.6 : 1;
}

// ---- solving --------------------------------------------------------------

async function solve() {
  showError("");
  if (!checkCounts()) { showError("Finish painting first: the colour counts do not fit yet."); return; }
  const lengthOnly = document.querySelector('input[name="answer"]:checked').value === "length";
  const start = shownCells().slice();
  if (S.frames) { S.cells = start; edited(); }
  const text = formatCells(start, S.n);
  $("solve").disabled = true;
  $("working").hidden = false;
  const wait = S.puzzle.first_solve_minutes;   // the server derives the solver's deeper trees first, once
  $("deriving").hidden = !wait;
  $("deriving").textContent = wait ? ` (the first ${S.n}×${S.n} solve on this server derives the solver's ` +
    `tables, once: about ${wait} min)` : "";
  const t0 = performance.now();
  const tick = setInterval(() => { $("elapsed").textContent = ((performance.now() - t0) / 1000).toFixed(0); }, 250);
  try {
    const sol = await api("/api/solve", { state: text, length_only: lengthOnly });
    S.puzzle.first_solve_minutes = null;   // derived now, for every later solve of this grid
    S.solution = sol;
    S.frames = null; S.pos = 0;
    if (sol.moves) {
      const played = await api("/api/apply", { state: text, moves: sol.moves });
      S.frames = played.states.map(parseText);
    }
    showSolution(sol);
  } catch (e) {
    showError(e.message);
  } finally {
    clearInterval(tick);
    $("solve").disabled = false;
    $("working").hidden = true;
  }
}

function showSolution(sol) {
  $("result").hidden = false;
  $("r-length").textContent = `${sol.length} moves`;
  $("r-lower").textContent = `${sol.lower_bound} moves (proven: no shorter sequence exists)`;
  $("r-optimal").textContent = sol.optimal ? "yes, proven optimal" :
    `not proven: at most ${sol.length - sol.lower_bound} moves above the optimum, which lies in ` +
    `${sol.lower_bound}..${sol.length}`;
  $("r-method").textContent = sol.method;
  $("r-time").textContent = `${sol.seconds.toFixed(2)} s, ` +
    (sol.effort > 0 ? `${sol.effort} M nodes of work` : "no search (read from the database)");
  const notes = [];
  if (sol.timed_out && !sol.capped) notes.push("The search spent its effort: this is the best verified sequence it found.");
  // the solver's notes are clauses ("for shorter answers build ..."): a sentence each here
  if (sol.note) notes.push(sol.note.charAt(0).toUpperCase() + sol.note.slice(1) + (/[.!?]$/.test(sol.note) ? "" : "."));
  // the server's hint, unless the note already names the same build
  if (!sol.optimal && S.puzzle.hint && !(sol.note || "").includes(S.puzzle.hint))
    notes.push(`\`${S.puzzle.hint}\` on the server gives exact answers wherever its tree reaches.`);
  $("r-note").replaceChildren(...rich(notes.join(" ")));
  $("r-note").hidden = notes.length === 0;
  $("replay").hidden = !S.frames;
  if (S.frames) drawMoves();
}

// ---- replaying the moves --------------------------------------------------

function drawMoves() {
  const ol = $("moves");
  ol.replaceChildren();
  S.solution.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    li.dataset.index = i;
    li.className = i < S.pos ? "done" : i === S.pos ? "next" : "";
    li.title = `Show the grid after move ${i + 1}`;
    li.addEventListener("click", () => { stopReplay(); jump(i + 1); });
    ol.appendChild(li);
  });
  if (S.solution.moves.length === 0) {
    const li = document.createElement("li");
    li.textContent = "already solved";
    ol.appendChild(li);
  }
  const total = S.solution.moves.length;
  $("step").textContent = `move ${S.pos} of ${total}` + (S.pos === total ? " · solved" : "");
  $("back").disabled = $("first").disabled = S.pos === 0;
  $("forward").disabled = $("last").disabled = S.pos === total;
  $("play").textContent = S.playing ? "❚❚ Pause" : "▶ Play";
}

function jump(pos) {
  if (S.animating) return;
  S.pos = pos;
  drawCells(S.frames[pos]);
  $("state-text").value = formatCells(S.frames[pos], S.n);
  drawMoves();
}

// Slide the moving half by k cells, its wrapped-round copy following it in
// from the far side, then show the next state as the server computed it.
// A player whose system asks for reduced motion sees each state at once.
function animate(from, name, forward) {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return Promise.resolve();
  const n = S.n, h = n / 2, px = CELL_PX[n];
  const fam = name[0], k = Number(name.slice(1));
  const rowsMove = fam === "T" || fam === "B";
  const inHalf = (r, j) => fam === "T" ? r < h : fam === "B" ? r >= h : fam === "L" ? j < h : j >= h;
  const shift = forward ? -k : k;                   // left/up forwards, back the other way
  const grid = $("grid");
  drawCells(from);
  const moving = [];
  grid.querySelectorAll(".cell").forEach((d) => {
    const i = Number(d.dataset.cell), r = Math.floor(i / n), j = i % n;
    if (!inHalf(r, j)) return;
    moving.push(d);
    const g = d.cloneNode(true);                     // the copy one grid-length away
    g.classList.add("ghost");
    g.removeAttribute("data-cell");
    const off = forward ? n : -n;
    place(g, rowsMove ? r : r + off, rowsMove ? j + off : j);
    grid.appendChild(g);
    moving.push(g);
  });
  moving.forEach((d) => d.classList.add("moving"));
  const ms = Math.min(180 + 110 * k, 700);
  grid.style.setProperty("--slide-ms", `${ms}ms`);
  void grid.offsetWidth;                             // start the transition from here
  grid.classList.add("sliding");
  const t = rowsMove ? `translateX(${shift * px}px)` : `translateY(${shift * px}px)`;
  moving.forEach((d) => { d.style.transform = t; });
  return new Promise((done) => setTimeout(done, ms + 30));
}

async function step(dir) {
  if (S.animating || !S.frames) return false;
  const total = S.solution.moves.length;
  const to = S.pos + dir;
  if (to < 0 || to > total) return false;
  S.animating = true;
  const name = S.solution.moves[dir > 0 ? S.pos : S.pos - 1];
  await animate(S.frames[S.pos], name, dir > 0);
  S.animating = false;
  jump(to);
  return true;
}

function stopReplay() {
  S.playing = false;
  if (S.frames && S.solution) drawMoves();
}

async function play() {
  if (S.playing) { stopReplay(); return; }
  if (S.pos === S.solution.moves.length) jump(0);
  S.playing = true;
  drawMoves();
  while (S.playing && await step(1)) await new Promise((r) => setTimeout(r, 250));
  S.playing = false;
  drawMoves();
}

// ---- wiring ---------------------------------------------------------------

function init() {
  setupPainting();
  const pick = () => loadPuzzle(Number($("size").value), Number($("colours").value)).catch((e) => showError(e.message));
  $("size").addEventListener("change", pick);
  $("colours").addEventListener("change", pick);
  $("load").addEventListener("click", () => loadText($("state-text").value));
  $("state-text").addEventListener("keydown", (e) => { if (e.key === "Enter") loadText($("state-text").value); });
  $("copy").addEventListener("click", async () => {
    const text = formatCells(shownCells(), S.n);
    $("state-text").value = text;
    try { await navigator.clipboard.writeText(text); $("copy").textContent = "Copied"; }
    catch (e) { $("state-text").select(); $("copy").textContent = "Press Ctrl-C"; }
    setTimeout(() => { $("copy").textContent = "Copy"; }, 1500);
  });
  $("random").addEventListener("click", async () => {
    const depth = $("random-depth").value.trim();   // blank: every arrangement equally likely
    const url = `/api/random?n=${S.n}&c=${S.c}` + (depth === "" ? "" : `&depth=${encodeURIComponent(depth)}`);
    try { S.cells = parseText((await api(url)).state); edited(); }
    catch (e) { showError(e.message); }
  });
  $("solved").addEventListener("click", () => { S.cells = parseText(S.puzzle.solved); edited(); });
  $("solve").addEventListener("click", solve);
  $("first").addEventListener("click", () => { stopReplay(); jump(0); });
  $("last").addEventListener("click", () => { stopReplay(); jump(S.solution.moves.length); });
  $("back").addEventListener("click", () => { stopReplay(); step(-1); });
  $("forward").addEventListener("click", () => { stopReplay(); step(1); });
  $("play").addEventListener("click", play);
  loadPuzzle(4, 4).catch((e) => showError(e.message));
}

init();
