// Qilin's board page: draws the game the server holds, sends the person's moves and
// follows the game's server-sent events. No libraries, no network beyond this server.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// Piece characters: red upper case, black lower case (FEN letters).
const GLYPHS = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
};

let state = null;      // the last state from the server
let viewPly = null;    // null: the live position; else the ply shown
let selected = null;   // Xiangqi: the square of the piece picked up
let flipped = false;
let events = null;
let receivedAt = 0;

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function showMessage(text) { $("message").textContent = text || ""; }

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: "bad reply" }; }
  if (!response.ok) throw new Error(data && data.error ? data.error : response.statusText);
  return data;
}

async function action(name, body) {
  if (!state) return null;
  showMessage("");
  try {
    const next = await api("POST", `/api/games/${state.id}/${name}`, body || {});
    update(next);
    return next;
  } catch (e) {
    showMessage(e.message);
    return null;
  }
}

// ---- Xiangqi ----

function parseFen(fen) {
  const board = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else { board["abcdefghi"[file] + rank] = ch; file += 1; }
    }
  });
  return board;
}

function applyMove(board, mv) {
  const from = mv.slice(0, 2), to = mv.slice(2, 4);
  board[to] = board[from];
  delete board[from];
}

function xiangqiPosition(ply) {
  if (ply === null) return parseFen(state.board.fen);
  const board = parseFen(state.board.start_fen);
  state.moves.slice(0, ply).forEach((m) => applyMove(board, m));
  return board;
}

function drawXiangqi(svg) {
  const S = 60, M = 50;
  svg.setAttribute("viewBox", `0 0 ${8 * S + 2 * M} ${9 * S + 2 * M}`);
  const px = (file) => M + (flipped ? 8 - file : file) * S;
  const py = (rank) => M + (flipped ? rank : 9 - rank) * S;
  el("rect", { x: 4, y: 4, width: 8 * S + 2 * M - 8, height: 9 * S + 2 * M - 8,
    fill: "#e8c27a", stroke: "#6b4a1c", "stroke-width": 4, rx: 8 }, svg);
  const grid = el("g", { stroke: "#5a3c14", "stroke-width": 2, fill: "none" }, svg);
  for (let r = 0; r < 10; r++) el("line", { x1: px(0), y1: py(r), x2: px(8), y2: py(r) }, grid);
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) el("line", { x1: px(f), y1: py(0), x2: px(f), y2: py(9) }, grid);
    else {
      el("line", { x1: px(f), y1: py(0), x2: px(f), y2: py(4) }, grid);
      el("line", { x1: px(f), y1: py(5), x2: px(f), y2: py(9) }, grid);
    }
  }
  for (const [a, b] of [[0, 2], [7, 9]]) {
    el("line", { x1: px(3), y1: py(a), x2: px(5), y2: py(b) }, grid);
    el("line", { x1: px(5), y1: py(a), x2: px(3), y2: py(b) }, grid);
  }
  const river = el("text", { x: M + 4 * S, y: M + 4.5 * S + 10, "text-anchor": "middle",
    "font-size": 30, fill: "#5a3c14", "font-family": "serif", "letter-spacing": 18 }, svg);
  river.textContent = "楚 河        漢 界";
  for (let f = 0; f < 9; f++) {
    const label = el("text", { x: px(f), y: flipped ? M - 30 : 9 * S + M + 42,
      "text-anchor": "middle", "font-size": 14, fill: "#5a3c14" }, svg);
    label.textContent = "abcdefghi"[f];
  }
  for (let r = 0; r < 10; r++) {
    const label = el("text", { x: 12, y: py(r) + 5, "text-anchor": "middle", "font-size": 14,
      fill: "#5a3c14" }, svg);
    label.textContent = r;
  }
  const live = viewPly === null;
  const board = xiangqiPosition(viewPly);
  const ply = live ? state.moves.length : viewPly;
  const last = ply > 0 ? state.moves[ply - 1] : null;
  const at = (sq) => [px("abcdefghi".indexOf(sq[0])), py(Number(sq[1]))];
  if (last) {
    for (const sq of [last.slice(0, 2), last.slice(2, 4)]) {
      const [x, y] = at(sq);
      el("rect", { x: x - 29, y: y - 29, width: 58, height: 58, fill: "none",
        stroke: "#1d6fd6", "stroke-width": 3, "stroke-dasharray": "8 5", class: "last" }, svg);
    }
  }
  if (live && state.hint) {
    for (const sq of [state.hint.slice(0, 2), state.hint.slice(2, 4)]) {
      const [x, y] = at(sq);
      el("circle", { cx: x, cy: y, r: 31, fill: "none", stroke: "#19a34a", "stroke-width": 4,
        class: "hint" }, svg);
    }
  }
  if (live && state.board.check) {
    const [x, y] = at(state.board.check);
    el("circle", { cx: x, cy: y, r: 34, fill: "#ff2a2a", opacity: 0.55, class: "check" }, svg);
  }
  for (const [sq, ch] of Object.entries(board)) {
    const [x, y] = at(sq);
    const red = ch === ch.toUpperCase();
    const g = el("g", { class: "piece", "data-piece": ch }, svg);
    el("circle", { cx: x, cy: y, r: 26, fill: "#fbeccb", stroke: red ? "#b3121b" : "#222",
      "stroke-width": 3 }, g);
    el("circle", { cx: x, cy: y, r: 21, fill: "none", stroke: red ? "#b3121b" : "#222",
      "stroke-width": 1 }, g);
    const t = el("text", { x, y: y + 10, "text-anchor": "middle", "font-size": 29,
      "font-family": "'Noto Serif CJK SC','Noto Sans CJK SC',serif", "font-weight": "bold",
      fill: red ? "#b3121b" : "#111" }, g);
    t.textContent = GLYPHS[ch] || ch;
  }
  const targets = live && selected ? state.board.legal.filter((m) => m.startsWith(selected))
    .map((m) => m.slice(2, 4)) : [];
  if (selected && live) {
    const [x, y] = at(selected);
    el("circle", { cx: x, cy: y, r: 29, fill: "none", stroke: "#f0a000", "stroke-width": 4 }, svg);
  }
  for (const sq of targets) {
    const [x, y] = at(sq);
    el("circle", { cx: x, cy: y, r: board[sq] ? 29 : 9, fill: board[sq] ? "none" : "#2a9d3a",
      stroke: "#2a9d3a", "stroke-width": 4, opacity: 0.85, class: "target" }, svg);
  }
  for (let r = 0; r < 10; r++) {
    for (let f = 0; f < 9; f++) {
      const sq = "abcdefghi"[f] + r;
      const hit = el("rect", { x: px(f) - S / 2, y: py(r) - S / 2, width: S, height: S,
        fill: "transparent", class: "point", "data-sq": sq }, svg);
      hit.addEventListener("click", () => clickXiangqi(sq));
    }
  }
}

function clickXiangqi(sq) {
  if (!state || viewPly !== null || state.ending || state.thinking === "move") return;
  const legal = state.board.legal;
  if (selected && legal.includes(selected + sq)) {
    const mv = selected + sq;
    selected = null;
    action("move", { move: mv });
    return;
  }
  selected = legal.some((m) => m.startsWith(sq)) ? sq : null;
  render();
}

// ---- Gomoku ----

function drawGomoku(svg) {
  const W = state.board.width, H = state.board.height, S = 36, M = 42;
  svg.setAttribute("viewBox", `0 0 ${(W - 1) * S + 2 * M} ${(H - 1) * S + 2 * M}`);
  const px = (x) => M + x * S, py = (y) => M + y * S;
  el("rect", { x: 2, y: 2, width: (W - 1) * S + 2 * M - 4, height: (H - 1) * S + 2 * M - 4,
    fill: "#dcb36b", stroke: "#7a5a25", "stroke-width": 3, rx: 6 }, svg);
  const grid = el("g", { stroke: "#3d2b10", "stroke-width": 1.3 }, svg);
  for (let x = 0; x < W; x++) el("line", { x1: px(x), y1: py(0), x2: px(x), y2: py(H - 1) }, grid);
  for (let y = 0; y < H; y++) el("line", { x1: px(0), y1: py(y), x2: px(W - 1), y2: py(y) }, grid);
  for (let x = 0; x < W; x++) {
    const t = el("text", { x: px(x), y: 14, "text-anchor": "middle", "font-size": 12, fill: "#3d2b10" }, svg);
    t.textContent = x;
  }
  for (let y = 0; y < H; y++) {
    const t = el("text", { x: 11, y: py(y) + 4, "text-anchor": "middle", "font-size": 12, fill: "#3d2b10" }, svg);
    t.textContent = y;
  }
  if (W >= 9 && H >= 9) {
    const cx = Math.floor(W / 2), cy = Math.floor(H / 2);
    for (const [x, y] of [[3, 3], [W - 4, 3], [3, H - 4], [W - 4, H - 4], [cx, cy]]) {
      el("circle", { cx: px(x), cy: py(y), r: 4, fill: "#3d2b10" }, svg);
    }
  }
  const live = viewPly === null;
  const ply = live ? state.moves.length : viewPly;
  const moves = state.moves.slice(0, ply).map((m) => m.split(",").map(Number));
  moves.forEach(([x, y], i) => {
    const black = i % 2 === 0;
    el("circle", { cx: px(x), cy: py(y), r: S * 0.45, fill: black ? "#111" : "#f7f7f2",
      stroke: "#000", "stroke-width": 1.2, class: black ? "stone black" : "stone white" }, svg);
    if (i === ply - 1) {
      el("circle", { cx: px(x), cy: py(y), r: 5, fill: "#e01010", class: "last" }, svg);
    }
  });
  if (live) {
    for (const [x, y] of state.board.forbidden) {
      const d = 8;
      const g = el("g", { stroke: "#d01010", "stroke-width": 3, class: "forbidden" }, svg);
      el("line", { x1: px(x) - d, y1: py(y) - d, x2: px(x) + d, y2: py(y) + d }, g);
      el("line", { x1: px(x) - d, y1: py(y) + d, x2: px(x) + d, y2: py(y) - d }, g);
    }
    const line = state.board.win_line;
    if (line.length >= 2) {
      const [a, b] = [line[0], line[line.length - 1]];
      el("line", { x1: px(a[0]), y1: py(a[1]), x2: px(b[0]), y2: py(b[1]), stroke: "#e01010",
        "stroke-width": 6, "stroke-linecap": "round", opacity: 0.8, class: "win-line" }, svg);
    }
    if (state.hint) {
      const [x, y] = state.hint.split(",").map(Number);
      el("circle", { cx: px(x), cy: py(y), r: S * 0.42, fill: "none", stroke: "#19a34a",
        "stroke-width": 4, "stroke-dasharray": "6 4", class: "hint" }, svg);
    }
  }
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const hit = el("rect", { x: px(x) - S / 2, y: py(y) - S / 2, width: S, height: S,
        fill: "transparent", class: "point", "data-x": x, "data-y": y }, svg);
      hit.addEventListener("click", () => clickGomoku(x, y));
    }
  }
}

function clickGomoku(x, y) {
  if (!state || viewPly !== null || state.ending || state.thinking === "move") return;
  action("move", { move: `${x},${y}` });
}

// ---- panels ----

function clockText(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClock() {
  if (!state) return;
  const c = state.clock;
  for (const seat of [0, 1]) {
    let ms = c.used_ms[seat];
    const running = c.running === seat;
    if (running) ms += c.turn_ms + (Date.now() - receivedAt);
    const who = state.players[seat] === "engine" ? "Qilin" : "you";
    const box = $(`clock${seat}`);
    box.textContent = `${state.colours[seat]} (${who}) ${clockText(ms)}`;
    box.classList.toggle("running", running);
  }
}

function renderLines() {
  const list = $("lines");
  list.innerHTML = "";
  for (const line of state.lines) {
    const li = document.createElement("li");
    li.textContent = `d${line.depth} ${line.score}  ${line.pv.join(" ")}`;
    list.appendChild(li);
  }
}

function renderGraph() {
  const box = $("graph");
  box.innerHTML = "";
  const n = Math.max(state.evals.length, 2);
  const W = 400, H = 90;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none" }, box);
  el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: "#999", "stroke-dasharray": "4 3" }, svg);
  const X = (i) => (i / (n - 1)) * W;
  const Y = (cp) => H / 2 - (Math.max(-1000, Math.min(1000, cp)) / 1000) * (H / 2 - 4);
  let path = "";
  state.evals.forEach((cp, i) => {
    if (cp === null) return;
    path += `${path ? "L" : "M"}${X(i).toFixed(1)},${Y(cp).toFixed(1)}`;
    el("circle", { cx: X(i), cy: Y(cp), r: 2.5, fill: "#b3121b" }, svg);
  });
  if (path) el("path", { d: path, fill: "none", stroke: "#b3121b", "stroke-width": 2 }, svg);
  const ply = viewPly === null ? state.moves.length : viewPly;
  el("line", { x1: X(ply), y1: 0, x2: X(ply), y2: H, stroke: "#1d6fd6" }, svg);
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    const i = Math.round(((e.clientX - r.left) / r.width) * (n - 1));
    goTo(Math.max(0, Math.min(state.moves.length, i)));
  });
}

function renderMoves() {
  const list = $("moves");
  list.innerHTML = "";
  const current = viewPly === null ? state.moves.length : viewPly;
  state.moves.forEach((m, i) => {
    if (i % 2 === 0) {
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${i / 2 + 1}.`;
      list.appendChild(number);
    }
    const item = document.createElement("span");
    item.className = i + 1 === current ? "move current" : "move";
    item.textContent = m;
    item.addEventListener("click", () => goTo(i + 1));
    list.appendChild(item);
  });
  const shown = list.querySelector(".current");
  if (shown) shown.scrollIntoView({ block: "nearest" });
}

function renderStatus() {
  let text;
  if (state.ending) {
    const e = state.ending;
    text = e.winner ? `${e.winner} wins: ${e.reason} (${e.result})` : `draw: ${e.reason}`;
  } else {
    const side = state.colours[state.to_move];
    const who = state.players[state.to_move] === "engine" ? "Qilin is thinking" : "your move";
    text = `${side} to move, ${who}`;
    if (state.board.check) text += ", check!";
    if (state.thinking && state.thinking !== "move") text += ` (${state.thinking}...)`;
  }
  if (viewPly !== null) text += ` [viewing move ${viewPly} of ${state.moves.length}]`;
  if (state.note) text += ` - ${state.note}`;
  $("status").textContent = text;
}

function render() {
  if (!state) return;
  document.body.className = state.game;
  const box = $("board");
  box.innerHTML = "";
  const svg = el("svg", { id: "board-svg", "data-game": state.game,
    "data-ply": String(state.moves.length) }, box);
  if (state.game === "xiangqi") drawXiangqi(svg); else drawGomoku(svg);
  renderStatus();
  renderClock();
  renderLines();
  renderGraph();
  renderMoves();
  const busy = state.thinking !== null;
  $("stop").disabled = !(state.thinking === "analyse" || state.thinking === "hint");
  $("hint").disabled = busy || !!state.ending;
  $("analyse").disabled = busy || !!state.ending;
  $("resign").disabled = !!state.ending;
  $("undo").disabled = state.moves.length === 0;
}

function update(next) {
  // A reply may arrive after a newer event of the same game: keep the newer state.
  if (state && state.id === next.id && next.version < state.version) return;
  const changed = !state || state.id !== next.id || state.moves.length !== next.moves.length;
  state = next;
  receivedAt = Date.now();
  if (changed) { selected = null; viewPly = null; }
  render();
}

function goTo(ply) {
  if (!state) return;
  viewPly = ply >= state.moves.length ? null : Math.max(0, ply);
  selected = null;
  render();
}

function follow(id) {
  if (events) events.close();
  events = new EventSource(`/api/games/${id}/events`);
  events.addEventListener("state", (e) => update(JSON.parse(e.data)));
  events.addEventListener("info", (e) => {
    const line = JSON.parse(e.data);
    if (!state) return;
    const lines = state.lines.slice();
    lines[line.multipv - 1] = line;
    state.lines = lines.filter(Boolean);
    if (line.multipv === 1) state.evals[state.moves.length] = line.cp;
    renderLines();
    renderGraph();
  });
}

function formats(game) {
  const list = game === "xiangqi" ? ["pgn", "fen", "pos"] : ["sgf", "psq", "pos"];
  const select = $("format");
  if (select.dataset.game === game) return;
  select.dataset.game = game;
  select.innerHTML = "";
  for (const f of list) {
    const o = document.createElement("option");
    o.value = f; o.textContent = f.toUpperCase();
    select.appendChild(o);
  }
}

async function newGame(e) {
  if (e) e.preventDefault();
  const game = $("game").value;
  const colours = game === "xiangqi" ? ["red", "black"] : ["black", "white"];
  const body = { game, [colours[0]]: $("first").value, [colours[1]]: $("second").value,
    movetime_ms: Number($("movetime").value) || 1000 };
  if ($("depth").value) body.depth = Number($("depth").value);
  if (game === "gomoku") { body.size = Number($("size").value) || 15; body.rule = $("rule").value; }
  showMessage("");
  try {
    const next = await api("POST", "/api/games", body);
    location.hash = `g=${next.id}`;
    formats(next.game);
    update(next);
    follow(next.id);
  } catch (err) { showMessage(err.message); }
}

function setupNames() {
  const gomoku = $("game").value === "gomoku";
  document.body.className = gomoku ? "gomoku" : "xiangqi";
  $("first-name").textContent = gomoku ? "Black" : "Red";
  $("second-name").textContent = gomoku ? "White" : "Black";
}

$("setup").addEventListener("submit", newGame);
$("game").addEventListener("change", setupNames);
$("undo").addEventListener("click", () => action("undo"));
$("hint").addEventListener("click", () => action("hint"));
$("analyse").addEventListener("click", () => action("analyse", { multipv: 3 }));
$("stop").addEventListener("click", () => action("stop"));
$("resign").addEventListener("click", () => action("resign"));
$("flip").addEventListener("click", () => { flipped = !flipped; render(); });
$("nav-first").addEventListener("click", () => goTo(0));
$("nav-prev").addEventListener("click", () => goTo((viewPly === null ? state.moves.length : viewPly) - 1));
$("nav-next").addEventListener("click", () => goTo((viewPly === null ? state.moves.length : viewPly) + 1));
$("nav-last").addEventListener("click", () => goTo(Infinity));
$("save").addEventListener("click", async () => {
  if (!state) return;
  try {
    const saved = await api("GET", `/api/games/${state.id}/save?format=${$("format").value}`);
    $("record").value = saved.text;
    const link = $("download");
    link.href = URL.createObjectURL(new Blob([saved.text], { type: "text/plain" }));
    link.download = `qilin-${state.game}.${saved.format === "position" ? "txt" : saved.format}`;
    showMessage("");
  } catch (err) { showMessage(err.message); }
});
$("load").addEventListener("click", () => action("load", { text: $("record").value }));
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
  if (e.key === "ArrowLeft") $("nav-prev").click();
  if (e.key === "ArrowRight") $("nav-next").click();
});
setInterval(renderClock, 250);

(async function start() {
  setupNames();
  const m = location.hash.match(/g=([0-9a-f]+)/);
  if (m) {
    try {
      const current = await api("GET", `/api/games/${m[1]}`);
      $("game").value = current.game;
      setupNames();
      formats(current.game);
      update(current);
      follow(current.id);
      return;
    } catch (e) { /* the game ended: start a new one */ }
  }
  newGame();
})();
