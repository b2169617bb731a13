"""What a game leaves behind: its recorded actions and its result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from nardy.errors import GameStateError
from nardy.position import Move
from nardy.variants import BLACK, WHITE


class Action(NamedTuple):
    """One recorded action.

    ``kind`` is one of ``opening`` (``dice`` = (white's die, black's die)), ``roll``, ``move``
    (with ``move`` and the ``dice`` it used), ``pass``, ``double``, ``take``, ``drop``,
    ``beaver``, ``raccoon``, ``resign`` (``level`` 1..n of the scoring preset), ``accept``,
    ``decline``, ``claim`` (Shlem, ``blockade_end="claim"``: the player on roll claims his
    blockade). ``player`` is the colour that acted (None for an opening throw).
    """

    kind: str
    player: int | None
    dice: tuple[int, int] | None = None
    move: Move | None = None
    level: int | None = None

    def __repr__(self) -> str:
        who = "" if self.player is None else ("white " if self.player == WHITE else "black ")
        extra = []
        if self.dice is not None:
            extra.append(f"{self.dice[0]}-{self.dice[1]}")
        if self.move is not None:
            extra.append(str(self.move))
        if self.level is not None:
            extra.append(f"level {self.level}")
        return f"<{who}{self.kind}{' ' if extra else ''}{' '.join(extra)}>"



@dataclass(frozen=True)
class Result:
    """How a game ended and what it is worth.

    ``reason``: ``bear-off`` (the winner bore off all 15), ``drop`` (a double was refused),
    ``resign`` (a resignation was accepted) or ``draw`` (long nardy's last-roll draw); for
    Shlem the end rule of :meth:`nardy.Shlem.status`: ``blockade`` (built, or claimed),
    ``left_start``, ``no_material`` or ``passes`` (a draw keeps its reason, kind ``draw``).
    ``kind``/``value``: the kind of win and its value in the scoring preset (``single``/1 for
    a drop; ``draw``/0 for a draw). ``counted``: the value after the Jacoby and "no mars with
    the cube" rules. ``cube``: the stake. ``points``: what the winner scores (``counted *
    cube``); for a draw, what each player scores (``draw_points * cube``).
    """

    winner: int | None
    reason: str
    kind: str
    value: int
    counted: int
    cube: int
    points: float

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner

    def points_for(self, color: int) -> float:
        """What ``color`` scores from this game."""
        if self.winner is None:
            return self.points
        return self.points if color == self.winner else 0

    @property
    def score(self) -> tuple[float, float]:
        """(white's points, black's points)."""
        return self.points_for(WHITE), self.points_for(BLACK)



def color_arg(c: Any) -> int:
    """A player given as an argument: WHITE or BLACK, else :class:`GameStateError`."""
    if isinstance(c, bool) or c not in (WHITE, BLACK):
        raise GameStateError(f"a player is WHITE (0) or BLACK (1), not {c!r}")
    return int(c)


def color_name(c: int | None) -> str:
    return "-" if c is None else ("white" if c == WHITE else "black")


__all__ = ["Action", "Result"]
