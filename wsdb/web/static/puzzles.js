// The page for the other puzzles (`/puzzles`). As on the Wrapslide page, the
// server parses, checks, looks up, solves and plays moves; the page draws the
// board, swaps two cells when they are clicked in turn, and steps through an
// answer's states (those of /api/apply).
"use strict";

const $ = (id) => document.getElementById(id);
const S = { board: null, cells: [], picked: null, frames: null, moves: [], pos: 0, playing: false, seq: 0 };

async function api(path, body) {
  const init = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch (e) { /* reported below */ }
  if (!res.ok) throw new Error(data && typeof data.detail === "string" ? data.detail : `the server answered ${res.status}`);
  return data;
}

const which = () => (S.board.puzzle === "sliding" ? { puzzle: "sliding" } : { puzzle: S.board.puzzle, goal: S.board.solved });
const toCells = (text) => text.split("/").join("").split("");
const toText = (cells) => Array.from({ length: S.board.n },
  (_, r) => cells.slice(r * S.board.cols, (r + 1) * S.board.cols).join("")).join("/");

function showError(text) { $("message").textContent = text || ""; $("message").hidden = !text; }

function draw(cells, changed) {
  const b = S.board, px = b.cols > 5 || b.n > 5 ? 44 : 60;
  document.documentElement.style.setProperty("--cell", `${px}px`);
  const grid = $("grid");
  grid.style.width = `${b.cols * px}px`;
  grid.style.height = `${b.n * px}px`;
  grid.replaceChildren();
  cells.forEach((sym, i) => {
    const d = document.createElement("div");
    const k = b.symbols.indexOf(sym);
    d.className = `cell piece s${k % 8}` + (sym === "_" ? " blank" : "") + (i === S.picked ? " picked" : "") +
      (changed && changed.has(i) ? " changed" : "");
    d.style.left = `${(i % b.cols) * px}px`;
    d.style.top = `${Math.floor(i / b.cols) * px}px`;
    d.textContent = sym === "_" ? "" : sym;
    d.dataset.cell = i;
    d.setAttribute("role", "gridcell");
    d.setAttribute("aria-label", `row ${Math.floor(i / b.cols) + 1}, column ${i % b.cols + 1}: ${sym === "_" ? "blank" : sym}`);
    d.addEventListener("click", () => pick(i));
    grid.appendChild(d);
  });
  grid.dataset.state = toText(cells);
}

function pick(i) {
  if (S.frames) { S.cells = S.frames[S.pos].slice(); clearAnswer(); }
  if (S.picked === null) { S.picked = i; draw(S.cells); return; }
  const j = S.picked;
  S.picked = null;
  [S.cells[i], S.cells[j]] = [S.cells[j], S.cells[i]];
  edited();
}

function clearAnswer() { S.frames = null; S.moves = []; S.pos = 0; S.playing = false; $("result").hidden = true; }

function edited() {
  clearAnswer();
  showError("");
  $("state-text").value = toText(S.cells);
  draw(S.cells);
  lookup();
}

async function lookup() {
  const seq = ++S.seq;
  $("distance").textContent = "Looking it up…";
  try {
    const a = await api("/api/lookup", { state: toText(S.cells), ...which() });
    if (seq !== S.seq) return;
    $("distance").textContent = a.distance === 0 ? "At the goal." : a.distance !== null ?
      `Exact distance: ${a.distance} moves (from the database).` :
      `More than ${a.more_than} moves: beyond the stored part of the tree (Solve meets it in the middle).`;
  } catch (e) {
    if (seq === S.seq) $("distance").textContent = e.message;
  }
}

async function showBoard() {
  showError("");
  const puzzle = $("puzzle").value, n = $("rows").value, goal = $("goal").value.trim();
  $("cols-label").hidden = puzzle !== "sliding";
  $("goal").disabled = puzzle === "sliding";
  const q = new URLSearchParams({ puzzle, n });
  if (puzzle === "sliding") q.set("m", $("cols").value); else if (goal) q.set("goal", goal);
  try { S.board = await api(`/api/board?${q}`); } catch (e) { showError(e.message); return; }
  const b = S.board.build;
  $("tree").textContent = b ? `Stored tree: ${b.states.toLocaleString()} states, ` +
    (b.complete ? `largest distance ${b.height}.` : `depths 0-${b.height} (partial).`) :
    `No tree stored for this board: run ${S.board.hint} on the server.`;
  S.cells = toCells(S.board.solved);
  S.picked = null;
  edited();
}

async function loadText(text) {
  try {
    const played = await api("/api/apply", { state: text, moves: [], ...which() });
    S.cells = toCells(played.state);
    edited();
  } catch (e) { showError(e.message); }
}

async function solve() {
  showError("");
  const start = S.frames ? S.frames[S.pos].slice() : S.cells.slice();
  $("solve").disabled = true;
  try {
    const sol = await api("/api/solve", { state: toText(start), ...which() });
    const played = await api("/api/apply", { state: toText(start), moves: sol.moves, ...which() });
    S.cells = start;
    S.frames = played.states.map(toCells);
    S.moves = sol.moves;
    S.pos = 0;
    $("result").hidden = false;
    $("r-length").textContent = `${sol.length} moves`;
    $("r-optimal").textContent = sol.optimal ? "yes, proven optimal" : `lower bound ${sol.lower_bound}`;
    $("r-method").textContent = sol.method;
    jump(0);
  } catch (e) { showError(e.message); }
  finally { $("solve").disabled = false; }
}

function jump(pos) {
  const before = S.frames[S.pos];
  S.pos = pos;
  const now = S.frames[pos];
  draw(now, new Set(now.map((v, i) => (v !== before[i] ? i : -1)).filter((i) => i >= 0)));
  $("state-text").value = toText(now);
  const ol = $("moves");
  ol.replaceChildren(...S.moves.map((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    li.className = i < pos ? "done" : i === pos ? "next" : "";
    li.addEventListener("click", () => { S.playing = false; jump(i + 1); });
    return li;
  }));
  $("step").textContent = `move ${pos} of ${S.moves.length}` + (pos === S.moves.length ? " · at the goal" : "");
  $("back").disabled = $("first").disabled = pos === 0;
  $("forward").disabled = $("last").disabled = pos === S.moves.length;
  $("play").textContent = S.playing ? "❚❚ Pause" : "▶ Play";
}

async function play() {
  if (S.playing) { S.playing = false; jump(S.pos); return; }
  if (S.pos === S.moves.length) jump(0);
  S.playing = true;
  while (S.playing && S.pos < S.moves.length) {
    jump(S.pos + 1);
    await new Promise((r) => setTimeout(r, 450));
  }
  S.playing = false;
  jump(S.pos);
}

function init() {
  $("puzzle").addEventListener("change", () => { $("goal").value = ""; showBoard(); });
  $("rows").addEventListener("change", showBoard);
  $("cols").addEventListener("change", showBoard);
  $("board-go").addEventListener("click", showBoard);
  $("goal").addEventListener("keydown", (e) => { if (e.key === "Enter") showBoard(); });
  $("load").addEventListener("click", () => loadText($("state-text").value));
  $("state-text").addEventListener("keydown", (e) => { if (e.key === "Enter") loadText($("state-text").value); });
  $("random").addEventListener("click", async () => {
    const q = new URLSearchParams({ puzzle: S.board.puzzle, n: S.board.n });
    if (S.board.puzzle === "sliding") q.set("m", S.board.cols); else q.set("goal", S.board.solved);
    try { S.cells = toCells((await api(`/api/random?${q}`)).state); edited(); } catch (e) { showError(e.message); }
  });
  $("solved").addEventListener("click", () => { S.cells = toCells(S.board.solved); edited(); });
  $("solve").addEventListener("click", solve);
  $("first").addEventListener("click", () => { S.playing = false; jump(0); });
  $("last").addEventListener("click", () => { S.playing = false; jump(S.moves.length); });
  $("back").addEventListener("click", () => { S.playing = false; jump(S.pos - 1); });
  $("forward").addEventListener("click", () => { S.playing = false; jump(S.pos + 1); });
  $("play").addEventListener("click", play);
  showBoard();
}

init();
