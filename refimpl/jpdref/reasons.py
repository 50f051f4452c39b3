"""The closed list of reasons an action can be refused. {#play.reasons}

Every refusal the engine gives carries exactly one of these codes; nothing else is ever raised
for an action. The codes are part of the conformance format: cases name them, runners compare them.
"""

from enum import StrEnum


class Reason(StrEnum):
    # The action does not fit the board or the game state (never subject to a penalty policy).
    OCCUPIED = "occupied"  # a real move on a point that already holds a stone {#play.move}
    OFF_BOARD = "off-board"  # a vertex outside the board {#board.points}
    OUT_OF_TURN = "out-of-turn"  # a colour that is not the colour to move {#play.turn}
    GAME_OVER = "game-over"  # any action after the play phase halted or ended {#end.halt}
    PASS_NOT_ALLOWED = "pass-not-allowed"  # this ruleset has no pass {#turn.pass}
    VIRTUAL_NOT_ALLOWED = "virtual-not-allowed"  # this ruleset has no virtual move {#turn.virtual}
    HANDICAP_PLACEMENT = "handicap-placement"  # not a free handicap stone {#setup.handicap}
    # The action breaks a rule of play (subject to the ruleset's illegal-move policy).
    SUICIDE = "suicide"  # forbidden self-capture {#capture.suicide}
    KO = "ko"  # immediate recapture of a single-stone ko {#rep.simple-ko}
    SUPERKO = "superko"  # a whole-position repetition ban {#rep.positional} {#rep.situational}

    @property
    def is_rule_violation(self) -> bool:
        """True for refusals that an illegal-move policy (void, loss) applies to. {#play.illegal}"""
        return self in (Reason.SUICIDE, Reason.KO, Reason.SUPERKO)
