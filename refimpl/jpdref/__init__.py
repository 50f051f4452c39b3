"""jpdref — the reference implementation of the jipingdian rules specification.

A pure rules engine: no network or terminal I/O, and one file read — the named presets of
``spec/rulesets.yaml``, which the distribution carries inside the package (:func:`jpdref.rules.preset`,
:mod:`jpdref.specfiles`). Every public function that implements a clause of ``spec/`` names the
clause anchor in its docstring (``{#anchor}``).

Use (the public API is listed in the README, "jpdref as a library")::

    from jpdref import BLACK, Action, Game, Geometry, rules
    game = Game.new(rules.preset("chinese"), Geometry.square(9))
    step = game.play(Action.move(BLACK, game.geometry.from_gtp("E5")))  # a Step: legal, effect, reason

Naming conventions used throughout (written once, here):

* a *point* is an int index ``y * width + x`` with ``y = 0`` the top line of a diagram;
* a *vertex* is the GTP spelling of a point (``"C3"``; columns skip ``I``; row 1 is the bottom);
* ``BLACK``/``WHITE`` are ``Color`` values; ``EMPTY`` is 0 on the board arrays;
* a *chain* (棋子组成的整体) is a maximal set of same-coloured, orthogonally connected stones;
* a *board position* (盘内棋形) is the stones on the board; a *global position* (全局棋形) is
  the board position plus the virtual-move stones (虚着之子) each side has put off the board.
"""

from jpdref.board import Board
from jpdref.coords import Geometry
from jpdref.game import Action, ActionKind, Game, Outcome, Phase, Step
from jpdref.reasons import Reason
from jpdref.rules import Rules, RulesError
from jpdref.stones import BLACK, WHITE, Color

__all__ = [
    "BLACK",
    "WHITE",
    "Action",
    "ActionKind",
    "Board",
    "Color",
    "Game",
    "Geometry",
    "Outcome",
    "Phase",
    "Reason",
    "Rules",
    "RulesError",
    "Step",
]
