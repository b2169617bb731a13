"""The doubling cube and the stakes (docs/rules/games-and-matches.md §6-§9).

The stake after ``level`` doublings is :func:`stake`: ``geometric`` 1, 2, 4, 8 ... or
``arithmetic`` 1, 2, 3, 4 .... The player on roll may :meth:`~CubeActions.double` before
rolling while the cube is in the middle or his own; the opponent must take or drop (or, with
the rule options, beaver; the doubler may then raccoon). A refused double loses the stake in
force before it. The cube is out of play in the Crawford game and on the last roll of long
nardy's draw rule; ``max_cube`` caps it; automatic doubles turn it on tied opening throws;
the Jacoby rule and "no mars with the cube" change what a win counts while it is in play.

:class:`CubeActions` holds these actions of :class:`nardy.Game`; the game's state lives in
:class:`nardy.phases.GameCore`.
"""

from __future__ import annotations

from nardy.errors import CubeError
from nardy.phases import GameCore, Phase
from nardy.results import Action

GEOMETRIC = "geometric"
ARITHMETIC = "arithmetic"


def stake(stakes: str, level: int) -> int:
    """The stake after ``level`` doublings under ``stakes`` (``geometric``/``arithmetic``)."""
    return 2 ** level if stakes == GEOMETRIC else level + 1


class CubeActions(GameCore):
    """The cube's part of a game: its state, the offers and answers, what a win counts."""

    @property
    def cube_in_play(self) -> bool:
        """The cube is used in this game (the rules have it and it is not a Crawford game)."""
        return bool(self._rules.cube) and not self._crawford

    @property
    def cube_level(self) -> int:
        """How many times the stake has been doubled."""
        return self._cube_level

    @property
    def cube_value(self) -> int:
        """The current stake (1 until a double is taken)."""
        return self._rules.stake(self._cube_level)

    @property
    def cube_owner(self) -> int | None:
        """The colour that owns the cube, None while it is in the middle."""
        return self._cube_owner

    @property
    def cube_turned(self) -> bool:
        """A double announced by a player has been taken (what lifts the Jacoby rule)."""
        return self._cube_turned

    @property
    def automatic_doubles(self) -> int:
        """How many automatic doubles the opening throws have made so far."""
        return self._auto_done

    def _cube_refusal(self, extra_levels: int) -> str | None:
        r = self._rules
        if not r.cube:
            return "these rules have no doubling cube"
        if self._crawford:
            return "no doubling in the Crawford game"
        if self._last_roll:
            return "no doubling on the last roll"
        if r.max_cube is not None and r.stake(self._cube_level + extra_levels) > r.max_cube:
            return f"the cube may not go above {r.max_cube}"
        return None

    def can_double(self) -> bool:
        """Whether the player on roll may double now."""
        return (self._phase is Phase.ROLL and not self._doubled_this_turn
                and self._cube_owner in (None, self._position.turn)
                and self._cube_refusal(1) is None)

    def double(self) -> None:
        """The player on roll offers a double before rolling."""
        self._need(Phase.ROLL)
        why = self._cube_refusal(1)
        if why is None:
            if self._cube_owner not in (None, self._position.turn):
                why = "the cube belongs to the opponent"
            elif self._doubled_this_turn:
                why = "only one double per turn"
        if why is not None:
            raise CubeError(why)
        snap = self._snapshot()
        self._phase = Phase.DOUBLED
        self._doubled_this_turn = True
        self._record(Action("double", self._position.turn), snap)

    def can_beaver(self) -> bool:
        return (self._phase is Phase.DOUBLED and self._rules.beaver
                and self._cube_refusal(2) is None)

    def can_raccoon(self) -> bool:
        return (self._phase is Phase.BEAVERED and self._rules.raccoon
                and self._cube_refusal(3) is None)

    def take(self) -> None:
        """Accepts the double, beaver or raccoon on offer."""
        self._need(Phase.DOUBLED, Phase.BEAVERED, Phase.RACCOONED)
        snap = self._snapshot()
        who = self.to_act
        self._cube_level += 1
        self._cube_turned = True
        if self._phase is Phase.BEAVERED:  # the cube stays with the beaverer
            self._cube_owner = 1 - self._position.turn
        elif self._phase is Phase.RACCOONED:  # the cube stays with the raccooner
            self._cube_owner = self._position.turn
        else:
            self._cube_owner = who
        self._phase = Phase.ROLL
        self._record(Action("take", who), snap)

    def drop(self) -> None:
        """Refuses the double, beaver or raccoon on offer: the game ends, and the one who
        refused loses the stake in force before that offer."""
        self._need(Phase.DOUBLED, Phase.BEAVERED, Phase.RACCOONED)
        snap = self._snapshot()
        who = self.to_act
        assert who is not None
        self._end(1 - who, "drop", self._scoring.kinds[0][0], 1)
        self._record(Action("drop", who), snap)

    def beaver(self) -> None:
        """The doubled player takes and at once redoubles, keeping the cube (rule option)."""
        self._need(Phase.DOUBLED)
        if not self._rules.beaver:
            raise CubeError("these rules have no beaver")
        why = self._cube_refusal(2)
        if why is not None:
            raise CubeError(why)
        snap = self._snapshot()
        who = self.to_act
        self._cube_level += 1
        self._cube_turned = True
        self._cube_owner = who
        self._phase = Phase.BEAVERED
        self._record(Action("beaver", who), snap)

    def raccoon(self) -> None:
        """The beavered doubler takes the beaver and at once redoubles again (rule option)."""
        self._need(Phase.BEAVERED)
        if not self._rules.raccoon:
            raise CubeError("these rules have no raccoon")
        why = self._cube_refusal(3)
        if why is not None:
            raise CubeError(why)
        snap = self._snapshot()
        who = self._position.turn
        self._cube_level += 1
        self._cube_owner = who
        self._phase = Phase.RACCOONED
        self._record(Action("raccoon", who), snap)

    def _adjusted(self, value: int) -> int:
        r = self._rules
        if value > 1 and self.cube_in_play and (
                r.no_mars_with_cube or (r.jacoby and not self._cube_turned)):
            return 1
        return value

    def _auto_double(self) -> None:
        """A tied opening throw turns the cube while automatic doubles are agreed."""
        r = self._rules
        if (self.cube_in_play and self._auto_done < r.auto_doubles
                and (r.max_cube is None or r.stake(self._cube_level + 1) <= r.max_cube)):
            self._cube_level += 1
            self._auto_done += 1


__all__ = ["ARITHMETIC", "GEOMETRIC", "CubeActions", "stake"]
