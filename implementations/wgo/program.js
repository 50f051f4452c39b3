// A JSON-lines program wrapping WGo.js's Game (`node program.js`), the game logic of the WGo.js player.
//
// What the library is (dist/index.js, `Game`, `Position`, the GoRules of dist/Game/rules.d.ts):
// a stack of positions, each with a side to move (`turn`). `play(x, y)` plays for `turn` and
// returns false, doing nothing, when `Position.applyMove` refuses (an occupied point, or a suicide
// unless `allowSuicide`) or when `hasPositionRepeated` says the new position repeats under
// `repeating`, documented as "KO - position cannot be same like previous position; ALL - position
// cannot be same like any previous position; NONE - position can be repeated". `pass(c)` passes
// for `c`; `addStone` sets up a stone; `turn` is a settable property (the WGo player sets it for
// a kifu's moves). No end of the game, no handicap placement, no resignation.
//
// So this program: sets up the stones with `addStone` and `turn`; plays each move by setting
// `turn` to the mover and calling `play` (WGo itself never refuses a move by the side not to
// move); uses the GoRules the documentation names for the ruleset's axes — `repeating` KO for
// simple ko, ALL for positional superko; `allowSuicide` for suicide allowed — and never
// `allowRewrite`; reports a refused `play` as `occupied` (a stone on the point), `suicide` (the
// same play is refused on a copy of the position with no history, so it is applyMove's refusal)
// or else `ko` / `superko`. It reports no end state: WGo has none.
"use strict";

const { capturesOf, describe, point, rows, stones, unsupported, serveOrExplain, versionOf, step } = require("../node-jsonl/jsonl");

function makeProgram() {
  const wgo = require("wgo");
  const { Color, Game, Repeating } = wgo;
  const SIGN = { B: Color.BLACK, W: Color.WHITE };
  const REPEATING = { "simple-ko": Repeating.KO, positional: Repeating.ALL };

  class Play {
    constructor(msg) {
      this.size = msg.width;
      this.rules = {
        repeating: REPEATING[msg.rules.repetition],
        allowRewrite: false,
        allowSuicide: msg.rules.suicide === "allowed",
        komi: 0,
      };
      this.game = new Game(this.size, this.rules);
      for (const c of ["B", "W"]) {
        for (const v of msg.stones[c] || []) {
          const [x, y] = this.xy(v);
          if (!this.game.addStone(x, y, SIGN[c])) throw new Error(`WGo refused the set-up stone ${c} ${v}`);
        }
      }
      this.game.turn = SIGN[msg.to_move];
      this.toMove = msg.to_move;
    }

    xy(v) {
      const { col, row } = point(v);
      return [col, this.size - 1 - row]; // WGo: x is the column, y = 0 the top row
    }

    colourAt(col, row) {
      const c = this.game.getStone(col, this.size - 1 - row);
      return c === Color.BLACK ? "B" : c === Color.WHITE ? "W" : null;
    }

    rows() {
      return rows(this.size, this.size, (c, r) => this.colourAt(c, r));
    }

    stones() {
      return stones(this.size, this.size, (c, r) => this.colourAt(c, r));
    }

    step(legal, reason, caps) {
      return step(legal, reason, caps, this.game.turn === Color.BLACK ? "B" : "W", this.rows());
    }

    whyNot(x, y, colour) {
      if (this.game.getStone(x, y) !== Color.EMPTY) return "occupied";
      const alone = this.game.position.clone();
      alone.turn = SIGN[colour];
      if (!alone.applyMove(x, y, SIGN[colour], this.rules.allowSuicide, false)) return "suicide";
      return this.rules.repeating === Repeating.KO ? "ko" : "superko";
    }

    play(act) {
      if (act.action === "virtual") return this.step(false, "virtual-not-allowed", null);
      if (act.action === "pass") {
        this.game.pass(SIGN[act.color]);
        return this.step(true, null, null);
      }
      const [x, y] = this.xy(act.vertex);
      if (!this.game.isOnBoard(x, y)) return this.step(false, "off-board", null);
      const before = this.stones();
      const turn = this.game.turn;
      this.game.turn = SIGN[act.color];
      if (!this.game.play(x, y)) {
        this.game.turn = turn;
        return this.step(false, this.whyNot(x, y, act.color), null);
      }
      return this.step(true, null, capturesOf(before, this.stones(), act.color, act.vertex));
    }
  }

  return {
    ready() {
      return {
        name: "wgo",
        version: versionOf("wgo"),
        supports: {
          rulesets: null,
          axes: {
            suicide: ["forbidden", "allowed"],
            repetition: ["simple-ko", "positional"],
            position: ["board"],
            "illegal-move": ["refuse"],
            "virtual-move": ["forbidden"],
            pass: ["allowed"],
          },
          features: ["illegal-move-refuse", "setup-stones"],
          max_size: 25,
          claims: ["legal", "reason", "captures", "self-captures", "to-move", "board"],
        },
      };
    },
    run(msg) {
      if (msg.width !== msg.height) throw unsupported(`WGo boards are square, not ${msg.width}x${msg.height}`);
      const actions = [...msg.history, ...msg.moves];
      if (actions.some((a) => a.action === "resign")) throw unsupported("WGo has no resignation");
      if (msg.handicap) throw unsupported("WGo places no handicap");
      const game = new Play(msg);
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


serveOrExplain("wgo", makeProgram);
