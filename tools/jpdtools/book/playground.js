// The book's rules playground (jpdtools/book/playground.py): loads Pyodide and the reference
// implementation on this page only, then plays the position and moves under every ruleset through
// jpdtools.book.playengine (the same adapter as `jpd play`). Every text comes from the edition's
// catalogue (the page's #pg-data); every verdict, clause and board from the Python side.
const data = JSON.parse(document.getElementById("pg-data").textContent);
const here = new URL(".", import.meta.url).href; // OUTDIR/playground/
const root = document.baseURI.replace(/[#?].*$/, "").replace(/[^/]*$/, ""); // the edition's folder

function say(key, values = {}) {
  const text = data.strings[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const progress = document.getElementById("pg-progress");
const stageText = document.getElementById("pg-stage");
function stage(n, key, values) {
  progress.value = n;
  stageText.textContent = say(key, values);
}

const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

// -- the state (what the URL holds) ---------------------------------------------------------------
const state = {
  width: 9,
  height: 9,
  toMove: "B",
  handicap: 0, // handicap stones on an empty board (from a pasted SGF's HA)
  stones: new Map(), // vertex -> "B" | "W"
  moves: [], // "B C3", "W pass", ...
  cursor: 0, // how many of the moves are played on the board shown
  variants: [], // "chinese:repetition=simple-ko", ...
  focus: "",
  dead: new Set(),
  seki: new Set(),
  mode: "play",
};

function rowsOf() {
  const grid = [];
  for (let y = 0; y < state.height; y++) {
    let row = "";
    for (let x = 0; x < state.width; x++) {
      const c = state.stones.get(COLUMNS[x] + (state.height - y));
      row += c === "B" ? "X" : c === "W" ? "O" : ".";
    }
    grid.push(row);
  }
  return grid.join("/");
}

function setRows(rows) {
  const grid = rows.split("/");
  state.height = grid.length;
  state.width = grid[0].length;
  state.stones = new Map();
  grid.forEach((row, y) =>
    [...row].forEach((ch, x) => {
      if (ch === "X" || ch === "O") state.stones.set(COLUMNS[x] + (state.height - y), ch === "X" ? "B" : "W");
    }),
  );
}

function toHash() {
  const p = new URLSearchParams();
  p.set("b", rowsOf());
  p.set("to", state.toMove);
  if (state.handicap) p.set("h", String(state.handicap));
  if (state.moves.length) p.set("m", state.moves.join(" "));
  if (state.cursor !== state.moves.length) p.set("at", String(state.cursor));
  if (state.variants.length) p.set("x", state.variants.join(" "));
  if (state.focus && state.focus !== presetNames[0]) p.set("f", state.focus);
  if (state.dead.size) p.set("d", [...state.dead].sort().join(" "));
  if (state.seki.size) p.set("s", [...state.seki].sort().join(" "));
  return "#" + p.toString().replace(/%2F/g, "/"); // the rows stay readable in the link
}

function fromHash(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  if (!p.has("b")) return false;
  setRows(p.get("b"));
  state.toMove = p.get("to") === "W" ? "W" : "B";
  state.handicap = Number(p.get("h")) || 0;
  const m = (p.get("m") || "").trim();
  state.moves = m ? m.match(/[BW] +\S+/g).map((s) => s.replace(/ +/, " ")) : [];
  state.cursor = p.has("at") ? Math.max(0, Math.min(state.moves.length, Number(p.get("at")) || 0)) : state.moves.length;
  state.variants = (p.get("x") || "").split(" ").filter(Boolean);
  state.focus = p.get("f") || "";
  state.dead = new Set((p.get("d") || "").split(" ").filter(Boolean));
  state.seki = new Set((p.get("s") || "").split(" ").filter(Boolean));
  return true;
}

// -- the engine -----------------------------------------------------------------------------------
let engine = null;
let presetNames = [];
let axes = {}; // every axis and its values

function rulesList() {
  return [...presetNames, ...state.variants];
}

function play(moves, withDead) {
  const request = {
    width: state.width,
    height: state.height,
    to_move: state.toMove,
    stones: [...state.stones.entries()],
    handicap: state.handicap,
    moves: moves.join(" "),
    rules: rulesList(),
    dead: withDead ? [...state.dead] : [],
    seki: withDead ? [...state.seki] : [],
    lang: data.lang,
  };
  return JSON.parse(engine.play(JSON.stringify(request)));
}

function svgOf(picture) {
  return engine.svg(JSON.stringify({ ...picture, lang: data.lang }));
}

// -- the page -------------------------------------------------------------------------------------
const ui = {};
let current = null; // play() of moves[:cursor]
let whole = null; // play() of every move

function button(key, onclick, attrs = {}) {
  return el("button", { type: "button", onclick, "data-key": key, ...attrs }, say(key));
}

function build() {
  const pg = document.getElementById("pg");
  const modes = el("fieldset", { class: "pg-modes" }, el("legend", {}, say("pg.mode")));
  for (const mode of ["play", "black", "white", "erase", "dead", "seki"]) {
    const input = el("input", { type: "radio", name: "pg-mode", value: mode, checked: mode === state.mode });
    input.addEventListener("change", () => {
      state.mode = mode;
      render();
    });
    modes.append(el("label", {}, input, " " + say("pg.mode." + mode)));
  }
  ui.size = el("input", { id: "pg-size", size: 6, value: `${state.width}x${state.height}` });
  ui.toMove = el(
    "select",
    { id: "pg-to-move" },
    el("option", { value: "B" }, say("pg.black")),
    el("option", { value: "W" }, say("pg.white")),
  );
  ui.toMove.addEventListener("change", () => {
    state.toMove = ui.toMove.value;
    state.moves = [];
    state.cursor = 0;
    update();
  });
  const setup = el(
    "div",
    { class: "pg-row" },
    el("label", {}, say("pg.size") + " ", ui.size),
    button("pg.size.new", newBoard),
    el("label", {}, say("pg.to-move") + " ", ui.toMove),
  );
  ui.board = el("div", { id: "pg-board", class: "pg-board" });
  ui.board.addEventListener("click", boardClick);
  ui.stepLine = el("p", { id: "pg-step", class: "pg-step" });
  const actions = el(
    "div",
    { class: "pg-row pg-actions" },
    button("pg.pass", () => act("pass"), { id: "pg-pass" }),
    button("pg.virtual", () => act("virtual"), { id: "pg-virtual" }),
    button("pg.resign", () => act("resign"), { id: "pg-resign" }),
    button("pg.undo", () => goTo(state.cursor - 1), { id: "pg-undo" }),
    button("pg.redo", () => goTo(state.cursor + 1), { id: "pg-redo" }),
    button("pg.first", () => goTo(0), { id: "pg-first" }),
    button("pg.last", () => goTo(state.moves.length), { id: "pg-last" }),
    button("pg.clear-moves", () => {
      state.moves = [];
      state.cursor = 0;
      update();
    }),
  );
  ui.focus = el("select", { id: "pg-focus" });
  ui.focus.addEventListener("change", () => {
    state.focus = ui.focus.value;
    update();
  });
  ui.diagram = el("textarea", { id: "pg-diagram", rows: 5, cols: 30, spellcheck: "false" });
  ui.movesText = el("input", { id: "pg-moves", size: 40, spellcheck: "false" });
  ui.message = el("p", { id: "pg-message", class: "pg-message", role: "alert" });
  const inputs = el(
    "details",
    { class: "pg-inputs" },
    el("summary", {}, say("pg.diagram.load") + " / " + say("pg.moves.apply")),
    el("label", { class: "pg-block" }, say("pg.diagram"), ui.diagram),
    button("pg.diagram.load", loadDiagram, { id: "pg-diagram-load" }),
    el("p", { class: "pg-note" }, say("pg.setup-note")),
    el("label", { class: "pg-block" }, say("pg.moves"), ui.movesText),
    button("pg.moves.apply", applyMoves, { id: "pg-moves-apply" }),
  );
  ui.variant = el("input", { id: "pg-variant", size: 30, placeholder: "chinese:repetition=situational", list: "pg-variant-choices" });
  ui.variantChoices = el("datalist", { id: "pg-variant-choices" });
  ui.variantList = el("span", { class: "pg-variants" });
  const variants = el(
    "div",
    { class: "pg-row" },
    el("label", {}, say("pg.variants") + " ", ui.variant),
    button("pg.variants.add", addVariant, { id: "pg-variant-add" }),
    ui.variantChoices,
    ui.variantList,
  );
  ui.verdicts = el("div", { id: "pg-verdicts", class: "pg-scroll" });
  ui.agreement = el("p", { id: "pg-agreement" });
  ui.history = el("div", { id: "pg-history", class: "pg-scroll" });
  ui.count = el("div", { id: "pg-count" });
  ui.share = el("input", { id: "pg-share", readonly: true, class: "pg-wide" });
  ui.proposeId = el("input", { id: "pg-propose-id", size: 30 });
  ui.proposeTitle = el("input", { id: "pg-propose-title", class: "pg-wide" });
  ui.proposeZh = el("input", { id: "pg-propose-zh", class: "pg-wide" });
  ui.proposeSeeds = el("input", { id: "pg-propose-seeds", class: "pg-wide" });
  ui.proposal = el("textarea", { id: "pg-proposal", rows: 12, class: "pg-wide", readonly: true, spellcheck: "false" });
  ui.download = el("a", { id: "pg-download", hidden: true });
  pg.append(
    el(
      "div",
      { class: "pg-grid" },
      el(
        "section",
        { class: "pg-left" },
        modes,
        setup,
        ui.board,
        ui.stepLine,
        actions,
        el("p", { class: "pg-note" }, say("pg.keys")),
        el("label", {}, say("pg.shown") + " ", ui.focus),
        ui.message,
        inputs,
      ),
      el(
        "section",
        { class: "pg-right" },
        el("h2", {}, say("pg.verdicts")),
        ui.agreement,
        ui.verdicts,
        variants,
        el("h2", {}, say("pg.history")),
        ui.history,
        el("h2", {}, say("pg.count")),
        ui.count,
        el("h2", {}, say("pg.share")),
        el("p", {}, say("pg.share.note")),
        ui.share,
        button("pg.share.copy", () => navigator.clipboard && navigator.clipboard.writeText(ui.share.value)),
        el("h2", {}, say("pg.propose")),
        el("p", {}, say("pg.propose.note")),
        el("label", { class: "pg-block" }, say("pg.propose.id"), ui.proposeId),
        el("label", { class: "pg-block" }, say("pg.propose.title"), ui.proposeTitle),
        el("label", { class: "pg-block" }, say("pg.propose.zh-title"), ui.proposeZh),
        el("label", { class: "pg-block" }, say("pg.propose.seeds"), ui.proposeSeeds),
        button("pg.propose.make", propose, { id: "pg-propose" }),
        ui.proposal,
        ui.download,
      ),
    ),
  );
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowLeft") goTo(state.cursor - 1);
    else if (e.key === "ArrowRight") goTo(state.cursor + 1);
    else if (e.key === "p") act("pass");
    else if (e.key === "v") act("virtual");
    else return;
    e.preventDefault();
  });
  pg.hidden = false;
}

function message(text) {
  ui.message.textContent = text || "";
}

function newBoard() {
  const m = ui.size.value.trim().match(/^(\d+)(?:[xX](\d+))?$/);
  if (!m) return message(say("pg.error", { error: ui.size.value }));
  state.width = Number(m[1]);
  state.height = Number(m[2] || m[1]);
  state.stones = new Map();
  state.handicap = 0;
  state.moves = [];
  state.cursor = 0;
  state.dead = new Set();
  state.seki = new Set();
  update();
}

function loadDiagram() {
  const answer = JSON.parse(engine.diagram(ui.diagram.value));
  if (answer.error) return message(answer.error);
  const p = answer.position;
  state.width = p.width;
  state.height = p.height;
  state.toMove = p.to_move;
  state.stones = new Map(p.stones.map(([v, c]) => [v, c]));
  state.handicap = p.handicap;
  state.moves = answer.moves;
  state.cursor = state.moves.length;
  state.dead = new Set(answer.dead);
  state.seki = new Set();
  update();
}

function applyMoves() {
  const text = ui.movesText.value.trim();
  const moves = text ? text.match(/[BWbw]\s+\S+/g) || [] : [];
  const before = [state.moves, state.cursor];
  state.moves = moves.map((s) => s.replace(/\s+/, " ").replace(/^[bw]/, (c) => c.toUpperCase()));
  state.cursor = state.moves.length;
  if (!update()) [state.moves, state.cursor] = before;
}

function addVariant() {
  const name = ui.variant.value.trim();
  if (!name || rulesList().includes(name)) return;
  state.variants.push(name);
  if (!update()) {
    state.variants.pop();
    update();
    message(say("pg.variant-bad", { error: name }));
  }
  ui.variant.value = "";
}

function focusResult(result) {
  return result.results.find((r) => r.rules === state.focus) || result.results[0];
}

function toMoveNow() {
  if (state.cursor === 0 || !current) return state.toMove;
  const f = focusResult(current);
  return f.to_move || state.toMove;
}

function act(kind, vertex) {
  const colour = toMoveNow();
  state.moves = state.moves.slice(0, state.cursor);
  state.moves.push(`${colour} ${vertex || kind}`);
  state.cursor = state.moves.length;
  state.dead = new Set();
  state.seki = new Set();
  if (!update()) {
    state.moves.pop();
    state.cursor = state.moves.length;
    update(true);
  }
}

function goTo(n) {
  state.cursor = Math.max(0, Math.min(state.moves.length, n));
  update();
}

function chainAt(rows, vertex) {
  const grid = rows.split("/");
  const h = grid.length;
  const at = (v) => grid[h - Number(v.slice(1))]?.[COLUMNS.indexOf(v[0])];
  const colour = at(vertex);
  if (colour !== "X" && colour !== "O") return [];
  const seen = new Set([vertex]);
  const todo = [vertex];
  while (todo.length) {
    const v = todo.pop();
    const x = COLUMNS.indexOf(v[0]);
    const y = Number(v.slice(1));
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      if (x + dx < 0 || x + dx >= grid[0].length || y + dy < 1 || y + dy > h) continue;
      const n = COLUMNS[x + dx] + (y + dy);
      if (!seen.has(n) && at(n) === colour) {
        seen.add(n);
        todo.push(n);
      }
    }
  }
  return [...seen];
}

function boardClick(event) {
  const svg = ui.board.querySelector("svg");
  if (!svg) return;
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  const x = Math.floor((p.x - data.margin) / data.cell);
  const y = Math.floor((p.y - data.margin) / data.cell);
  if (x < 0 || y < 0 || x >= state.width || y >= state.height) return;
  clickVertex(COLUMNS[x] + (state.height - y));
}

function clickVertex(vertex) {
  if (state.mode === "play") return act("move", vertex);
  if (state.mode === "dead" || state.mode === "seki") {
    const marks = state.mode === "dead" ? state.dead : state.seki;
    const other = state.mode === "dead" ? state.seki : state.dead;
    const chain = chainAt(shownRows(), vertex);
    const marking = !marks.has(vertex);
    for (const v of chain) {
      other.delete(v);
      marking ? marks.add(v) : marks.delete(v);
    }
    return update();
  }
  if (state.mode === "erase") state.stones.delete(vertex);
  else {
    const colour = state.mode === "black" ? "B" : "W";
    if (state.stones.get(vertex) === colour) state.stones.delete(vertex);
    else state.stones.set(vertex, colour);
  }
  state.handicap = 0;
  state.moves = [];
  state.cursor = 0;
  state.dead = new Set();
  state.seki = new Set();
  update();
}

function shownRows() {
  if (state.cursor === 0 || !current) return current ? current.initial : rowsOf();
  return focusResult(current).boards[state.cursor - 1];
}

// -- rendering ------------------------------------------------------------------------------------
function update(quiet) {
  let played;
  try {
    played = play(state.moves.slice(0, state.cursor), true);
    if (!played.error) whole = state.cursor === state.moves.length ? played : play(state.moves, false);
  } catch (err) {
    played = { error: String(err) };
  }
  if (played.error || (whole && whole.error)) {
    if (!quiet) message(say("pg.error", { error: played.error || whole.error }));
    return false;
  }
  current = played;
  message("");
  render();
  return true;
}

function clauseLinks(parts) {
  const out = el("span", { class: "pg-clauses" });
  parts.forEach(([anchor, axis, value], i) => {
    if (i) out.append(" → ");
    const clause = data.clauses[anchor];
    out.append(
      clause
        ? el("a", { href: root + clause.href, title: clause.h, "data-anchor": anchor }, anchor)
        : el("code", { "data-anchor": anchor }, anchor),
    );
    if (clause && clause.h) out.append(" " + clause.h);
    if (axis) out.append(el("span", { class: "pg-axis" }, ` (${axis}=${value})`));
  });
  return out;
}

// What a verdict is, whatever the words a ruleset or a language gives it (the zh edition names a
// superko refusal as each ruleset does): disagreement is on these, never on the text shown.
function verdictKey(step) {
  return JSON.stringify([step.legal, step.effect, step.reason, step.captures, step.self_captures, step.to_move]);
}

function endKey(result) {
  return JSON.stringify([result.phase, result.to_move, result.outcome]);
}

function majority(keys) {
  const counts = new Map();
  for (const k of keys) counts.set(k, (counts.get(k) || 0) + 1);
  let best = keys[0];
  for (const [k, n] of counts) if (n > counts.get(best)) best = k;
  return best;
}

function rulesetLink(name) {
  const href = data.rulesets[name];
  return href ? el("a", { href: root + href }, name) : el("span", { class: "pg-variant" }, name);
}

function render() {
  const n = state.cursor;
  const results = current.results;
  const focus = focusResult(current);
  // the ruleset whose board is shown
  const names = rulesList();
  if (!names.includes(state.focus)) state.focus = names[0];
  ui.focus.replaceChildren(...names.map((name) => el("option", { value: name, selected: name === state.focus }, name)));
  ui.toMove.value = state.toMove;
  ui.size.value = `${state.width}x${state.height}`;
  // the board
  const picture = { rows: shownRows() };
  if (n > 0) {
    const step = focus.steps[n - 1];
    const [colour, what] = state.moves[n - 1].split(" ");
    const isMove = !["pass", "virtual", "resign"].includes(what);
    if (isMove && step.legal) picture.last = what;
    if (isMove && !step.legal) picture.refused = what;
    const other = colour === "B" ? "W" : "B";
    picture.captured = [...step.captures.map((v) => [v, other]), ...step.self_captures.map((v) => [v, colour])];
  }
  if (focus.values["virtual-move"] === "allowed") picture.virtual = n > 0 ? focus.virtual[n - 1] : [0, 0];
  if (state.dead.size) {
    const grid = picture.rows.split("/").map((r) => [...r]);
    for (const v of state.dead) {
      const y = state.height - Number(v.slice(1));
      const x = COLUMNS.indexOf(v[0]);
      if (grid[y] && (grid[y][x] === "X" || grid[y][x] === "O")) grid[y][x] = grid[y][x].toLowerCase();
    }
    picture.rows = grid.map((r) => r.join("")).join("/");
  }
  if (focus.count && !focus.count.error) picture.owners = focus.count.points;
  ui.board.innerHTML = svgOf(picture);
  ui.board.dataset.mode = state.mode;
  ui.stepLine.textContent =
    n === 0 ? say("pg.step.start", { total: state.moves.length }) : say("pg.step", { n, total: state.moves.length, action: state.moves[n - 1] });
  // every ruleset at this step
  const keys = results.map((r) => (n > 0 ? verdictKey(r.steps[n - 1]) : "") + "|" + endKey(r));
  const common = majority(keys);
  const differ = keys.filter((k) => k !== common).length;
  ui.agreement.textContent = differ ? say("pg.differ", { n: differ }) : say("pg.agree");
  ui.agreement.className = differ ? "pg-differ-note" : "pg-agree-note";
  const head = el(
    "tr",
    {},
    ...["pg.col.rules", ...(n > 0 ? ["pg.col.verdict", "pg.col.clause"] : []), "pg.col.state"].map((k) =>
      el("th", {}, say(k)),
    ),
  );
  const rows = results.map((r, i) => {
    const cells = [el("th", { scope: "row" }, rulesetLink(r.rules))];
    if (n > 0) {
      const step = r.steps[n - 1];
      cells.push(el("td", { class: step.legal ? "pg-legal" : "pg-illegal", "data-reason": step.reason || "" }, r.cells[n - 1]));
      cells.push(el("td", { class: "pg-clause" }, clauseLinks(r.decisions[n - 1])));
    }
    const end = el("td", { class: "pg-end", "data-label": say("pg.col.state") }, r.end_cell);
    if (r.end_decision.length) end.append(el("br"), clauseLinks(r.end_decision));
    cells.push(end);
    return el("tr", { class: keys[i] !== common ? "differ" : "", "data-rules": r.rules }, ...cells);
  });
  ui.verdicts.replaceChildren(el("table", { class: "pg-table pg-verdict-table" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  ui.variantList.replaceChildren(
    ...state.variants.map((v) =>
      el("button", { type: "button", class: "pg-chip", title: say("pg.variants.remove", { name: v }), onclick: () => removeVariant(v) }, v + " ×"),
    ),
  );
  // the variants of the ruleset shown: each axis set to each of its other values
  const base = state.focus.split(":")[0];
  const preset = results.find((r) => r.rules === base);
  if (preset && ui.variantChoices.dataset.base !== base) {
    ui.variantChoices.dataset.base = base;
    ui.variantChoices.replaceChildren(
      ...Object.entries(axes).flatMap(([axis, values]) =>
        values.filter((v) => v !== preset.values[axis]).map((v) => el("option", { value: `${base}:${axis}=${v}` })),
      ),
    );
  }
  renderHistory();
  renderCount();
  const hash = toHash();
  if (location.hash !== hash) history.replaceState(null, "", hash);
  ui.share.value = location.href;
  const total = state.moves.length;
  ui.proposeId.value = ui.proposeId.value || "";
  ui.proposeTitle.placeholder = say("pg.propose.default-title", { n: total });
  ui.proposeZh.placeholder = say("pg.propose.default-zh-title", { n: total });
  document.getElementById("pg-undo").disabled = n === 0;
  document.getElementById("pg-redo").disabled = n === state.moves.length;
}

function removeVariant(name) {
  state.variants = state.variants.filter((v) => v !== name);
  update();
}

function renderHistory() {
  const results = whole.results;
  const head = el("tr", {}, el("th", {}, say("pg.col.step")), el("th", {}, say("pg.col.action")), ...results.map((r) => el("th", {}, r.rules)));
  const body = state.moves.map((move, i) => {
    const cells = results.map((r) => r.cells[i]);
    const verdicts = results.map((r) => verdictKey(r.steps[i]));
    const common = majority(verdicts);
    const row = el(
      "tr",
      { class: (i + 1 === state.cursor ? "pg-current " : "") + (verdicts.some((c) => c !== common) ? "differ-row" : ""), "data-step": i + 1 },
      el("th", {}, el("a", { href: "#", onclick: (e) => (e.preventDefault(), goTo(i + 1)) }, String(i + 1))),
      el("td", {}, move),
      ...results.map((r, j) => el("td", { class: (r.steps[i].legal ? "pg-legal" : "pg-illegal") + (verdicts[j] !== common ? " differ" : "") }, cells[j])),
    );
    return row;
  });
  const ends = results.map((r) => r.end_cell);
  const endKeys = results.map(endKey);
  const commonEnd = majority(endKeys);
  body.push(el("tr", {}, el("th", {}, say("pg.history.end")), el("td", {}), ...ends.map((e, j) => el("td", { class: endKeys[j] !== commonEnd ? "differ" : "" }, e))));
  ui.history.replaceChildren(el("table", { class: "pg-table pg-matrix" }, el("thead", {}, head), el("tbody", {}, ...body)));
}

function renderCount() {
  const counted = current.results.filter((r) => r.count);
  if (!counted.length) {
    ui.count.replaceChildren(el("p", {}, say("pg.count.none")));
    return;
  }
  const rows = counted.map((r) => {
    const c = r.count;
    if (c.error) return el("tr", { "data-rules": r.rules }, el("th", { scope: "row" }, rulesetLink(r.rules)), el("td", { class: "pg-count-refused", lang: "en" }, c.message || c.error));
    const winner = c.winner === "draw" ? say("pg.count.draw") : say("pg.count.result", { winner: c.winner === "B" ? say("pg.black") : say("pg.white"), margin: c.margin.replace("-", "") });
    const detail = el("details", {}, el("summary", {}, c.method + " — " + say("pg.count.figures", c)), el("pre", { lang: "en" }, c.text));
    return el("tr", { "data-rules": r.rules }, el("th", { scope: "row" }, rulesetLink(r.rules)), el("td", { class: "pg-count-result" }, winner, detail));
  });
  ui.count.replaceChildren(el("p", { class: "pg-note" }, say("pg.count.note")), el("table", { class: "pg-table" }, el("tbody", {}, ...rows)));
}

function hashId() {
  let h = 2166136261;
  for (const ch of rowsOf() + state.toMove + state.moves.join(" ")) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return "playground." + h.toString(16).padStart(8, "0");
}

function propose() {
  const given = ui.proposeSeeds.value.split(";").map((s) => s.trim()).filter(Boolean);
  const request = {
    width: state.width,
    height: state.height,
    to_move: state.toMove,
    stones: [...state.stones.entries()],
    handicap: state.handicap,
    moves: state.moves.join(" "),
    id: ui.proposeId.value.trim() || hashId(),
    title: ui.proposeTitle.value.trim() || ui.proposeTitle.placeholder,
    zh_title: ui.proposeZh.value.trim() || ui.proposeZh.placeholder,
    seeds: given,
  };
  if (!given.length) {
    // the seed sentence of the first of the case's clauses that has one (a reviewer checks it)
    const first = JSON.parse(engine.propose(JSON.stringify(request)));
    const clause = (first.clauses || []).find((a) => data.seeds[a]);
    if (clause) request.seeds = [data.seeds[clause]];
  }
  const answer = JSON.parse(engine.propose(JSON.stringify(request)));
  if (answer.error) return message(say("pg.error", { error: answer.error }));
  ui.proposal.value = answer.yaml;
  const file = request.id + ".yaml";
  ui.download.href = URL.createObjectURL(new Blob([answer.yaml], { type: "text/yaml" }));
  ui.download.download = file;
  ui.download.textContent = say("pg.propose.download", { file });
  ui.download.hidden = false;
}

// -- start ----------------------------------------------------------------------------------------
async function start() {
  const t0 = performance.now();
  if (location.protocol === "file:") {
    stageText.textContent = say("pg.file", { lang: data.lang });
    progress.hidden = true;
    document.getElementById("pg-loading").classList.add("pg-missing");
    return;
  }
  try {
    stage(1, "pg.load.runtime");
    const { loadPyodide } = await import(here + "pyodide/pyodide.mjs");
    const py = await loadPyodide({ indexURL: here + "pyodide/" });
    stage(2, "pg.load.sources");
    const zip = await (await fetch(here + "jpd.zip")).arrayBuffer();
    py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/jpd" });
    py.runPython("import sys; sys.path.insert(0, '/home/pyodide/jpd')");
    stage(3, "pg.load.presets");
    const presets = await (await fetch(here + "presets.json")).json();
    const Engine = py.pyimport("jpdtools.book.playengine").Engine;
    engine = Engine(JSON.stringify({ presets: presets.presets, anchors: Object.keys(data.clauses) }));
    presetNames = presets.presets.map((p) => p.name);
    axes = JSON.parse(engine.axes());
    if (!fromHash(location.hash)) state.focus = presetNames[0];
    build();
    update();
    stage(4, "pg.load.ready", { ms: Math.round(performance.now() - t0) });
    document.getElementById("pg-loading").dataset.ready = "true";
    // for the browser tests and the curious: the state and the page's own functions
    const reload = () => fromHash(location.hash) && update();
    window.playground = { state, update, play, reload, clickVertex, act, goTo, loadMs: performance.now() - t0 };
  } catch (err) {
    stage(0, "pg.load.failed", { error: String(err) });
    document.getElementById("pg-loading").dataset.failed = "true";
  }
}

window.addEventListener("hashchange", () => {
  if (engine && location.hash !== toHash() && fromHash(location.hash)) update();
});
start();
