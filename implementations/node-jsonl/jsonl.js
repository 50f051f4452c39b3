// The program side of the JSON-lines protocol (spec/jsonl-protocol.md) for the Node programs of
// this folder: read one message a line, answer it, repeat until `stop` or end of input. The
// programs speak versions 1 to 3 and answer `start` with the newest the harness offers; version 3
// reads `supports.features` (the rule features the library has), which older harnesses ignore.
// A library program gives `serve` an object with `ready()` (name, version, supports) and
// `run(msg)` (a `result`, or `unsupported(...)` / an exception, which becomes an `error`).
"use strict";

const path = require("path");
const readline = require("readline");

const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"; // GTP column letters (no I)

/** `C3` → {col: 2, row: 2}, row 0 = the bottom row (GTP row 1). */
function point(vertex) {
  const col = COLUMNS.indexOf(vertex[0].toUpperCase());
  const row = Number(vertex.slice(1)) - 1;
  if (col < 0 || !Number.isInteger(row) || row < 0) throw new Error(`not a GTP vertex: ${vertex}`);
  return { col, row };
}

function vertex(col, row) {
  return `${COLUMNS[col]}${row + 1}`;
}

function sortVertices(list) {
  return [...list].sort((a, b) => a[0].localeCompare(b[0]) || Number(a.slice(1)) - Number(b.slice(1)));
}

function opponent(colour) {
  return colour === "B" ? "W" : "B";
}

/** Board rows, top first, `/`-separated; `colourAt(col, row)` gives "B", "W" or null. */
function rows(width, height, colourAt) {
  const symbol = { B: "X", W: "O" };
  const out = [];
  for (let row = height - 1; row >= 0; row--) {
    let line = "";
    for (let col = 0; col < width; col++) line += symbol[colourAt(col, row)] || ".";
    out.push(line);
  }
  return out.join("/");
}

/** Every stone, as a Map vertex → colour. */
function stones(width, height, colourAt) {
  const out = new Map();
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const c = colourAt(col, row);
      if (c) out.set(vertex(col, row), c);
    }
  }
  return out;
}

/** The stones of `colour` in `before` that are gone in `after` (sorted GTP vertices). */
function removed(before, after, colour) {
  const gone = [];
  for (const [v, c] of before) if (c === colour && after.get(v) !== colour) gone.push(v);
  return sortVertices(gone);
}

/** Captures and self-captures of a move of `colour` at `played` (a GTP vertex, or null). */
function capturesOf(before, after, colour, played) {
  const mover = new Map(before);
  if (played) mover.set(played, colour);
  return { captures: removed(before, after, opponent(colour)), self_captures: removed(mover, after, colour) };
}

/** The step object of the protocol's `result.steps`: what the library did with one action. A
 * refusal is always a plain refusal (the libraries have no other illegal-move policy); `caps` is
 * capturesOf's answer, or null; `toMove` is "B", "W" or null for a library without turn order. */
function step(legal, reason, caps, toMove, board) {
  return {
    legal,
    effect: legal ? "played" : "refused",
    reason,
    captures: caps ? caps.captures : [],
    self_captures: caps ? caps.self_captures : [],
    to_move: toMove,
    board,
  };
}

function describe(act) {
  return `${act.color} ${act.action === "move" ? act.vertex : act.action}`;
}

const SPEAKS = [1, 2, 3];

class Unsupported extends Error {}

/** A refusal the program declines to report as the library's (the run becomes a skip). */
function unsupported(reason) {
  return new Unsupported(reason);
}

function answer(program, msg) {
  if (msg.type === "start") {
    const offered = Array.isArray(msg.protocols) && msg.protocols.length ? msg.protocols : [msg.protocol];
    const common = offered.filter((v) => SPEAKS.includes(v));
    if (!common.length) {
      return { type: "error", id: null, message: `protocol ${offered.join(", ")} is not supported (this program speaks ${SPEAKS.join(", ")})` };
    }
    const ready = program.ready();
    const protocol = Math.max(...common);
    const supports = { ...ready.supports };
    if (protocol < 3) delete supports.features; // a version 3 key: malformed under 1 and 2
    return { type: "ready", protocol, name: ready.name, version: ready.version, supports };
  }
  if (msg.type === "run") {
    try {
      return { type: "result", id: msg.id, ...program.run(msg) };
    } catch (err) {
      if (err instanceof Unsupported) return { type: "unsupported", id: msg.id, reason: err.message };
      return { type: "error", id: msg.id, message: err && err.message ? err.message : String(err) };
    }
  }
  return { type: "error", id: msg.id === undefined ? null : msg.id, message: `unexpected message ${JSON.stringify(msg.type)}` };
}

/** Answer messages until `stop` or end of input. */
function serve(program) {
  const input = readline.createInterface({ input: process.stdin, terminal: false });
  input.on("line", (raw) => {
    const line = raw.trim();
    if (!line) return;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (err) {
      process.stdout.write(JSON.stringify({ type: "error", id: null, message: `bad message: ${err.message}` }) + "\n");
      return;
    }
    if (msg && msg.type === "stop") {
      input.close();
      process.exit(0);
    }
    process.stdout.write(JSON.stringify(answer(program, msg)) + "\n");
  });
  input.on("close", () => process.exit(0));
}

/** The installed version of an npm package (its package.json, found from the program's folder). */
function versionOf(name) {
  return require.main.require(`${name}/package.json`).version;
}

/**
 * A library that failed to load: every answer is that error, so the harness reports one clear
 * reason (run `npm ci` in this folder) instead of a crash.
 */
function serveOrExplain(name, makeProgram) {
  let program;
  try {
    program = makeProgram();
  } catch (err) {
    const why = `${name} could not be loaded (${err.message.split("\n")[0]}); install it with: npm ci --prefix ${path.dirname(require.main.filename)}`;
    program = { ready() { throw new Error(why); }, run() { throw new Error(why); } };
    const input = readline.createInterface({ input: process.stdin, terminal: false });
    input.on("line", (raw) => {
      if (!raw.trim()) return;
      let id = null;
      try { const m = JSON.parse(raw); if (m.type === "stop") process.exit(0); id = m.id === undefined ? null : m.id; } catch (e) { /* unreadable */ }
      process.stdout.write(JSON.stringify({ type: "error", id, message: why }) + "\n");
    });
    input.on("close", () => process.exit(0));
    return;
  }
  serve(program);
}

module.exports = { COLUMNS, point, vertex, sortVertices, opponent, rows, stones, removed, capturesOf, step, describe, unsupported, serve, serveOrExplain, versionOf };
