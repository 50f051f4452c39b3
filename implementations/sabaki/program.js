// A JSON-lines program wrapping @sabaki/go-board (`node program.js`), the board of the Sabaki editor.
//
// What the library is (src/GoBoard.js, README "board.makeMove"): a board, not a game.
// `makeMove(sign, vertex, {preventOverwrite, preventSuicide, preventKo})` returns the board after a
// stone of `sign` at `vertex`, removing captured chains, and — without `preventSuicide` — the
// mover's own chain when it has no liberty; each `prevent…` option makes it throw instead
// ("Overwrite prevented", "Suicide prevented", "Ko prevented": the README says preventKo refuses
// "the attempted move [that] repeats the position that led to board"). It has no turn order, no
// pass, no end of the game, no handicap placement of its own and no resignation.
//
// So this program: sets up the stones with `set` (a position, not moves); plays each real move
// with preventOverwrite, preventKo, and preventSuicide unless the ruleset allows suicide; reports
// the library's refusal as `occupied`, `ko` or `suicide`; leaves a pass as nothing on the board;
// declines runs with a virtual move, a resignation or a handicap. It reports no side to move and
// no end state (the library has none).
"use strict";

const { capturesOf, describe, point, rows, stones, unsupported, serveOrExplain, versionOf, step } = require("../node-jsonl/jsonl");

const SIGN = { B: 1, W: -1 };
const REASON = { "Overwrite prevented": "occupied", "Suicide prevented": "suicide", "Ko prevented": "ko" };

function makeProgram() {
  const GoBoard = require("@sabaki/go-board");

  class Game {
    constructor(msg) {
      this.width = msg.width;
      this.height = msg.height;
      this.board = GoBoard.fromDimensions(msg.width, msg.height);
      for (const colour of ["B", "W"]) {
        for (const v of msg.stones[colour] || []) this.board.set(this.xy(v), SIGN[colour]);
      }
      this.preventSuicide = msg.rules.suicide !== "allowed";
    }

    xy(v) {
      const { col, row } = point(v);
      return [col, this.height - 1 - row]; // sabaki: y = 0 is the top row
    }

    colourAt(col, row) {
      const sign = this.board.get([col, this.height - 1 - row]);
      return sign === 1 ? "B" : sign === -1 ? "W" : null;
    }

    rows() {
      return rows(this.width, this.height, (c, r) => this.colourAt(c, r));
    }

    stones() {
      return stones(this.width, this.height, (c, r) => this.colourAt(c, r));
    }

    step(legal, reason, caps) {
      return step(legal, reason, caps, null, this.rows());
    }

    play(act) {
      if (act.action === "pass") return this.step(true, null, null);
      const xy = this.xy(act.vertex);
      if (!this.board.has(xy)) return this.step(false, "off-board", null);
      const before = this.stones();
      try {
        this.board = this.board.makeMove(SIGN[act.color], xy, {
          preventOverwrite: true,
          preventKo: true,
          preventSuicide: this.preventSuicide,
        });
      } catch (err) {
        const reason = REASON[err.message];
        if (!reason) throw err;
        return this.step(false, reason, null);
      }
      return this.step(true, null, capturesOf(before, this.stones(), act.color, act.vertex));
    }
  }

  return {
    ready() {
      return {
        name: "@sabaki/go-board",
        version: versionOf("@sabaki/go-board"),
        supports: {
          rulesets: null,
          axes: {
            suicide: ["forbidden", "allowed"],
            repetition: ["simple-ko"],
            "illegal-move": ["refuse"],
            "virtual-move": ["forbidden"],
            pass: ["allowed"],
          },
          features: ["illegal-move-refuse", "setup-stones", "non-square"],
          max_size: 25,
          claims: ["legal", "reason", "captures", "self-captures", "board"],
        },
      };
    },
    run(msg) {
      const actions = [...msg.history, ...msg.moves];
      if (actions.some((a) => a.action === "virtual")) throw unsupported("@sabaki/go-board has no virtual move");
      if (actions.some((a) => a.action === "resign")) throw unsupported("@sabaki/go-board has no resignation");
      if (msg.handicap) throw unsupported("@sabaki/go-board places no handicap (getHandicapPlacement only suggests points)");
      const game = new Game(msg);
      if (!game.board.isValid()) throw new Error("the set-up position has a chain without liberties");
      const initial_board = game.rows();
      msg.history.forEach((act, n) => {
        const step = game.play(act);
        if (!step.legal) throw new Error(`history action ${n + 1} (${describe(act)}) was refused: ${step.reason}`);
      });
      const steps = msg.moves.map((act) => game.play(act));
      return { initial_board, steps, end: null };
    },
  };
}

serveOrExplain("@sabaki/go-board", makeProgram);
