// A JSON-lines program wrapping godash (`node program.js`), immutable Go boards.
//
// What the library is (src/board.js; docs/api.md): functions on an immutable square `Board`.
// `addMove(board, Move(coordinate, color))` returns the board after the move, removing the
// captured chains; it throws "Not a valid position" when `isLegalMove` is false (the stone would
// have no liberty and captures nothing: godash has no suicide) and "There is already a stone
// there" for an occupied point. "Since no sequence information is available, this function does
// not respect ko. Use `followupKo` if you want to do ko-related things": `followupKo(board, move)`
// gives the point where the captured colour may not immediately retake, or null. No turn order,
// no pass, no end of the game, no resignation; `handicapBoard` only builds a handicap position.
//
// So this program: sets up the stones with `placeStones` (a position, not moves); plays each
// move with `addMove`, after asking `followupKo` about it; refuses, as `ko`, the opponent's move
// at the point `followupKo` named for the move just played (the ko it names lasts one action:
// any other move or a pass ends it); reports godash's two errors as `suicide` and `occupied`;
// leaves a pass as nothing on the board; declines runs with a virtual move, a resignation or a
// handicap. It reports no side to move and no end state (godash has none).
"use strict";

const { capturesOf, describe, opponent, point, rows, stones, unsupported, serveOrExplain, versionOf, step } = require("../node-jsonl/jsonl");

const REASON = { "Not a valid position": "suicide", "There is already a stone there": "occupied" };

function makeProgram() {
  const godash = require("godash");
  const { Board, Coordinate, Move, BLACK, WHITE } = godash;
  const COLOR = { B: BLACK, W: WHITE };

  class Play {
    constructor(msg) {
      this.size = msg.width;
      let board = Board(this.size);
      for (const c of ["B", "W"]) {
        const coords = (msg.stones[c] || []).map((v) => this.coordinate(v));
        board = godash.placeStones(board, coords, COLOR[c]);
      }
      this.board = board;
      this.ko = null; // {colour, coordinate}: the followupKo of the last move
    }

    coordinate(v) {
      const { col, row } = point(v);
      return Coordinate(col, this.size - 1 - row); // x: column; y = 0 the top row (toMap's rows)
    }

    colourAt(col, row) {
      const c = this.board.moves.get(Coordinate(col, this.size - 1 - row), null);
      return c === BLACK ? "B" : c === WHITE ? "W" : null;
    }

    rows() {
      return rows(this.size, this.size, (c, r) => this.colourAt(c, r));
    }

    stones() {
      return stones(this.size, this.size, (c, r) => this.colourAt(c, r));
    }

    step(legal, reason, caps) {
      return step(legal, reason, caps, null, this.rows());
    }

    play(act) {
      const ko = this.ko;
      this.ko = null;
      if (act.action === "pass") return this.step(true, null, null);
      const { col, row } = point(act.vertex);
      if (col >= this.size || row >= this.size) return this.step(false, "off-board", null);
      const coordinate = this.coordinate(act.vertex);
      if (ko && ko.colour === act.color && ko.coordinate.equals(coordinate)) {
        this.ko = ko;
        return this.step(false, "ko", null);
      }
      const move = Move(coordinate, COLOR[act.color]);
      const before = this.stones();
      let next;
      try {
        next = godash.addMove(this.board, move);
      } catch (err) {
        const reason = REASON[err.message];
        if (!reason) throw err;
        this.ko = ko;
        return this.step(false, reason, null);
      }
      const followup = godash.followupKo(this.board, move);
      this.board = next;
      if (followup) this.ko = { colour: opponent(act.color), coordinate: followup };
      return this.step(true, null, capturesOf(before, this.stones(), act.color, act.vertex));
    }
  }

  return {
    ready() {
      return {
        name: "godash",
        version: versionOf("godash"),
        supports: {
          rulesets: null,
          axes: {
            suicide: ["forbidden"],
            repetition: ["simple-ko"],
            "illegal-move": ["refuse"],
            "virtual-move": ["forbidden"],
            pass: ["allowed"],
          },
          features: ["illegal-move-refuse", "setup-stones"],
          max_size: 25,
          claims: ["legal", "reason", "captures", "self-captures", "board"],
        },
      };
    },
    run(msg) {
      if (msg.width !== msg.height) throw unsupported(`godash boards are square, not ${msg.width}x${msg.height}`);
      const actions = [...msg.history, ...msg.moves];
      if (actions.some((a) => a.action === "virtual")) throw unsupported("godash has no virtual move");
      if (actions.some((a) => a.action === "resign")) throw unsupported("godash has no resignation");
      if (msg.handicap) throw unsupported("godash places no handicap as moves (handicapBoard only builds a position)");
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

serveOrExplain("godash", makeProgram);
