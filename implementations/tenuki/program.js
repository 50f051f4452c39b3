// A JSON-lines program wrapping tenuki's Game (`node program.js`), run without a renderer.
//
// What the library is (lib/game.js, lib/ruleset.js, lib/board-state.js; README "Game play
// functions"): a game with a side to move. `playAt(y, x)` plays for `currentPlayer()` and returns
// false, doing nothing, when `isIllegalAt` says the point is occupied, a suicide or a ko
// violation under the `koRule` option ("simple", "positional-superko", "situational-superko");
// `pass()` passes for the current player and returns false once `isOver()` — the two most recent
// moves were passes. Options: square boards up to 19, `handicapStones` (fixed points on 9, 13 and
// 19 only) with `freeHandicapPlacement`. There is no resignation, no virtual move, no illegal-move
// policy other than doing nothing, and no way to set up stones.
//
// So this program: sets up the stones by giving the game an initial BoardState built with the
// library's own constructor (tenuki's API has no set-up; its initial state is otherwise the empty
// or handicap board); plays a move by the side not to move as refused `out-of-turn` (playAt can
// only play for `currentPlayer()`); reports a refused `playAt` with the reason the library's own
// checks give (`intersectionAt(...).isEmpty()`, `_ruleset._wouldBeSuicide`, else `ko` / `superko`);
// reports `pass()` returning false, and any action by the side not to move once `isOver()`, as
// `game-over`; a move by the side to move goes to `playAt` whatever `isOver()` says (tenuki's
// playAt does not look at it); reports the end from `isOver()`.
"use strict";

const { capturesOf, describe, opponent, point, rows, stones, unsupported, serveOrExplain, versionOf, step } = require("../node-jsonl/jsonl");

const KO_RULE = { "simple-ko": "simple", positional: "positional-superko", situational: "situational-superko" };
const COLOUR = { black: "B", white: "W" };
const NAME = { B: "black", W: "white" };

function makeProgram() {
  const tenuki = require("tenuki");
  const BoardState = require("tenuki/lib/board-state").default;
  const Intersection = require("tenuki/lib/intersection").default;

  class Play {
    constructor(msg) {
      this.size = msg.width;
      const handicap = msg.handicap || 0;
      const options = { boardSize: this.size, koRule: KO_RULE[msg.rules.repetition] };
      if (handicap) {
        options.handicapStones = handicap;
        options.freeHandicapPlacement = msg.rules.handicap === "free";
      }
      this.game = new tenuki.Game(options);
      const setup = [...(msg.stones.B || []), ...(msg.stones.W || [])];
      if (setup.length || (!handicap && msg.to_move === "W")) {
        const colourAt = new Map();
        for (const c of ["B", "W"]) for (const v of msg.stones[c] || []) colourAt.set(v, NAME[c]);
        const intersections = [];
        for (let y = 0; y < this.size; y++) {
          for (let x = 0; x < this.size; x++) {
            intersections.push(new Intersection(y, x, colourAt.get(this.vertexOf(y, x))));
          }
        }
        // tenuki's repetition history is `_moves` (its `_initialState`, the empty or handicap board,
        // is never compared): the set-up position is pushed there, as the protocol says it is the
        // first entry of the history. Its `color` is the side that "made" it: the other side moves.
        this.game._moves.push(new BoardState({
          color: NAME[opponent(msg.to_move)],
          moveNumber: 0,
          intersections: Object.freeze(intersections),
          blackStonesCaptured: 0,
          whiteStonesCaptured: 0,
          whitePassStones: 0,
          blackPassStones: 0,
          boardSize: this.size,
        }));
      }
      this.positional = msg.rules.repetition !== "simple-ko";
    }

    yx(v) {
      const { col, row } = point(v);
      return [this.size - 1 - row, col]; // tenuki: y = 0 is the top row
    }

    vertexOf(y, x) {
      return `${"ABCDEFGHJKLMNOPQRSTUVWXYZ"[x]}${this.size - y}`;
    }

    colourAt(col, row) {
      return COLOUR[this.game.intersectionAt(this.size - 1 - row, col).value] || null;
    }

    rows() {
      return rows(this.size, this.size, (c, r) => this.colourAt(c, r));
    }

    stones() {
      return stones(this.size, this.size, (c, r) => this.colourAt(c, r));
    }

    toMove() {
      return COLOUR[this.game.currentPlayer()];
    }

    step(legal, reason, caps) {
      return step(legal, reason, caps, this.toMove(), this.rows());
    }

    /** Why tenuki refuses (y, x): the checks of Ruleset.isIllegal, in its order. */
    whyNot(y, x) {
      const state = this.game.currentState();
      if (!state.intersectionAt(y, x).isEmpty()) return "occupied";
      if (this.game._ruleset._wouldBeSuicide(y, x, state)) return "suicide";
      return this.positional ? "superko" : "ko";
    }

    play(act) {
      if (act.action === "pass" && act.color === this.toMove()) {
        const ok = this.game.pass({ render: false });
        return this.step(ok, ok ? null : "game-over", null);
      }
      if (act.color !== this.toMove()) return this.step(false, this.game.isOver() ? "game-over" : "out-of-turn", null);
      if (act.action === "virtual") return this.step(false, "virtual-not-allowed", null);
      const [y, x] = this.yx(act.vertex);
      if (y < 0 || x >= this.size) return this.step(false, "off-board", null);
      const before = this.stones();
      if (!this.game.playAt(y, x, { render: false })) return this.step(false, this.whyNot(y, x), null);
      return this.step(true, null, capturesOf(before, this.stones(), act.color, act.vertex));
    }

    end() {
      const to_move = this.toMove();
      if (this.game.isOver()) return { phase: "halted", to_move, kind: "two-passes", result: "to-count", winner: null };
      if (this.game._stillPlayingHandicapStones()) return { phase: "handicap", to_move, kind: null, result: null, winner: null };
      return { phase: "contest", to_move, kind: null, result: null, winner: null };
    }
  }

  return {
    ready() {
      return {
        name: "tenuki",
        version: versionOf("tenuki"),
        supports: {
          rulesets: null,
          axes: {
            suicide: ["forbidden"],
            repetition: ["simple-ko", "positional", "situational"],
            position: ["board"],
            "illegal-move": ["refuse"],
            "virtual-move": ["forbidden"],
            pass: ["allowed"],
            halt: ["two-passes"],
          },
          features: ["turn-order", "end-of-play", "illegal-move-refuse", "setup-stones", "fixed-handicap", "free-handicap"],
          max_size: 19,
          claims: ["legal", "reason", "captures", "self-captures", "to-move", "board", "end"],
        },
      };
    },
    run(msg) {
      if (msg.width !== msg.height) throw unsupported(`tenuki boards are square, not ${msg.width}x${msg.height}`);
      const actions = [...msg.history, ...msg.moves];
      if (actions.some((a) => a.action === "resign")) throw unsupported("tenuki has no resignation");
      if (msg.handicap && ![9, 13, 19].includes(msg.width)) {
        throw unsupported("tenuki takes a handicap on 9x9, 13x13 and 19x19 boards only");
      }
      const game = new Play(msg);
      const initial_board = game.rows();
      msg.history.forEach((act, n) => {
        const step = game.play(act);
        if (!step.legal) throw new Error(`history action ${n + 1} (${describe(act)}) was refused: ${step.reason}`);
      });
      const steps = msg.moves.map((act) => game.play(act));
      return { initial_board, steps, end: game.end() };
    },
  };
}

serveOrExplain("tenuki", makeProgram);
