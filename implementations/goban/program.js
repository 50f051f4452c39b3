// A JSON-lines program wrapping goban's GobanEngine (`node program.js`), the rules engine of the
// online-go.com client.
//
// What the library is (build/goban.js, class GobanEngine; build/src/engine/GobanEngine.d.ts): a
// game with a side to move (`colorToMove()`). `place(x, y, checkForKo, errorOnSuperKo)` — the
// client calls `place(x, y, true, true)` — plays for the side to move and throws a GobanMoveError
// whose `message_id` is `stone_already_placed_here`, `illegal_self_capture` (unless
// `allow_self_capture`), `illegal_ko_move` (the board equals the one before the opponent's last
// move, unless `allow_ko`) or `illegal_board_repetition` (unless `allow_superko`: the
// `superko_algorithm` "psk"/"csk" positional, "ssk" situational); `place(-1, -1)` passes.
// Config: any width × height, `initial_state` set-up stones, `initial_player`, `handicap` with
// `free_handicap_placement` (Black places them as moves). The engine never ends the game: two
// passes, resignation and scoring are the server's (the phase stays "play"). The browser bundle
// reads `self`, `window` and `document` when it loads, so this program gives it inert stand-ins
// (nothing of the rules engine uses them).
//
// So this program: sets up the stones through `initial_state` and `initial_player`; configures
// the engine's rule flags from the ruleset's axes (and `rules` by the closest of goban's rule
// names); refuses a move by the side not to move as `out-of-turn` (place can only play for the
// side to move); reports the engine's errors as `occupied`, `suicide`, and — for the ko and
// repetition errors — `ko` under simple ko, `superko` under a superko rule (where the simple ko is
// one of the repeated positions); reports a pass that the engine skips during free handicap
// placement as refused `handicap-placement`. It reports no end state (the engine has none).
"use strict";

const { capturesOf, describe, point, rows, stones, unsupported, serveOrExplain, versionOf, step } = require("../node-jsonl/jsonl");

function loadGoban() {
  const inert = () =>
    new Proxy(function () {}, {
      get: (_, key) => (key === Symbol.toPrimitive ? () => "" : inert()),
      apply: () => inert(),
      construct: () => inert(),
    });
  const noop = () => {};
  globalThis.self = globalThis;
  globalThis.window = globalThis;
  globalThis.addEventListener = noop;
  globalThis.document = { body: {}, documentElement: {}, createElement: () => inert(), addEventListener: noop };
  return require("goban");
}

const RULES = { "simple-ko": "japanese", positional: "chinese", situational: "aga" };
const SUPERKO = { positional: "psk", situational: "ssk" };
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

function makeProgram() {
  const goban = loadGoban();

  class Play {
    constructor(msg) {
      this.width = msg.width;
      this.height = msg.height;
      this.superko = msg.rules.repetition !== "simple-ko";
      const encode = (list) => list.map((v) => {
        const [x, y] = this.xy(v);
        return LETTERS[x] + LETTERS[y];
      }).join("");
      const config = {
        width: this.width,
        height: this.height,
        rules: RULES[msg.rules.repetition],
        komi: 0,
        initial_state: { black: encode(msg.stones.B || []), white: encode(msg.stones.W || []) },
        initial_player: msg.handicap || msg.to_move === "B" ? "black" : "white", // a handicap: Black places
        allow_self_capture: msg.rules.suicide === "allowed",
        allow_ko: false,
        allow_superko: !this.superko,
        throw_all_errors: true,
      };
      if (this.superko) config.superko_algorithm = SUPERKO[msg.rules.repetition];
      if (msg.handicap) {
        config.handicap = msg.handicap;
        config.free_handicap_placement = true;
      }
      this.engine = new goban.GobanEngine(config);
    }

    xy(v) {
      const { col, row } = point(v);
      return [col, this.height - 1 - row]; // goban: board[y][x], y = 0 the top row
    }

    colourAt(col, row) {
      const c = this.engine.board[this.height - 1 - row][col];
      return c === 1 ? "B" : c === 2 ? "W" : null;
    }

    rows() {
      return rows(this.width, this.height, (c, r) => this.colourAt(c, r));
    }

    stones() {
      return stones(this.width, this.height, (c, r) => this.colourAt(c, r));
    }

    toMove() {
      return this.engine.colorToMove() === "black" ? "B" : "W";
    }

    step(legal, reason, caps) {
      return step(legal, reason, caps, this.toMove(), this.rows());
    }

    reason(err) {
      switch (err.message_id) {
        case "stone_already_placed_here":
          return "occupied";
        case "illegal_self_capture":
          return "suicide";
        case "illegal_ko_move":
        case "illegal_board_repetition":
          return this.superko ? "superko" : "ko";
        default:
          return null;
      }
    }

    play(act) {
      if (act.color !== this.toMove()) return this.step(false, "out-of-turn", null);
      if (act.action === "virtual") return this.step(false, "virtual-not-allowed", null);
      if (act.action === "pass") {
        const placing = this.engine.handicapMovesLeft() > 0;
        this.engine.place(-1, -1, true, true);
        return placing ? this.step(false, "handicap-placement", null) : this.step(true, null, null);
      }
      const [x, y] = this.xy(act.vertex);
      if (x >= this.width || y < 0) return this.step(false, "off-board", null);
      const before = this.stones();
      try {
        this.engine.place(x, y, true, true);
      } catch (err) {
        const reason = this.reason(err);
        if (!reason) throw err;
        return this.step(false, reason, null);
      }
      return this.step(true, null, capturesOf(before, this.stones(), act.color, act.vertex));
    }
  }

  return {
    ready() {
      return {
        name: "goban",
        version: versionOf("goban"),
        supports: {
          rulesets: null,
          axes: {
            suicide: ["forbidden", "allowed"],
            repetition: ["simple-ko", "positional", "situational"],
            position: ["board"],
            "illegal-move": ["refuse"],
            "virtual-move": ["forbidden"],
            pass: ["allowed"],
          },
          features: ["turn-order", "illegal-move-refuse", "setup-stones", "free-handicap", "non-square"],
          max_size: 25,
          claims: ["legal", "reason", "captures", "self-captures", "to-move", "board"],
        },
      };
    },
    run(msg) {
      const actions = [...msg.history, ...msg.moves];
      if (actions.some((a) => a.action === "resign")) throw unsupported("goban's engine has no resignation (the server ends the game)");
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

serveOrExplain("goban", makeProgram);
