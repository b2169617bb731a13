"""Scoring scales: the kinds of win of each variant, their values, and how to tell them.

A variant names the scales written for it (``Variant.scorings``, the first its default); a
game picks one by name through ``GameRules(scoring=...)``. The sources of every scale are in
``docs/rules/games-and-matches.md`` §4 and §11.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from nardy import _validate as _v
from nardy.errors import GameStateError, InvalidRuleError

if TYPE_CHECKING:
    from nardy.position import Position
    from nardy.variants import Variant


def _norm(name: str) -> str:
    return "_".join(name.strip().lower().replace("-", " ").replace("_", " ").split())


class Scoring:
    """A scoring scale: the kinds of win, in increasing order of value, and how to tell them.

    ``kinds`` is a tuple of ``(name, value)``; :meth:`classify` returns the index of the kind
    a bear-off win is worth, from the loser's side array (own coordinates: 0..5 home, 24 bar,
    25 borne off). A variant names the scales written for it (``Variant.scorings``).
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    kinds: ClassVar[tuple[tuple[str, int], ...]] = ()
    kind_aliases: ClassVar[dict[str, str]] = {}
    source: ClassVar[str] = ""

    def classify(self, loser: Sequence[int]) -> int:
        raise NotImplementedError

    @property
    def kind_names(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.kinds)

    def value(self, kind: str) -> int:
        """The value of a kind of win."""
        return self.kinds[self.level(kind)][1]

    def level(self, kind: int | str) -> int:
        """Index (0-based) of a kind of win given by name, by level number 1..n, or by the
        generic names ``single`` / ``gammon`` / ``backgammon`` (levels 1 / 2 / 3)."""
        n = len(self.kinds)
        if _v.is_bool(kind):
            raise InvalidRuleError(f"not a kind of win: {_v.show(kind)}")
        if _v.is_int(kind):
            level = int(kind)  # numpy integers too
            if 1 <= level <= n:
                return level - 1
            raise InvalidRuleError(f"{self.name}: a win has levels 1..{n}, not {_v.show(kind)}")
        if isinstance(kind, str):
            wanted = _norm(kind)
            wanted = self.kind_aliases.get(wanted, wanted)
            for i, (k, _) in enumerate(self.kinds):
                if k == wanted:
                    return i
            generic = {"single": 0, "gammon": 1, "backgammon": 2}
            if wanted in generic and generic[wanted] < n:
                return generic[wanted]
        raise InvalidRuleError(f"{self.name}: unknown kind of win {_v.show(kind)}; "
                               f"known: {', '.join(self.kind_names)}")

    def kind_of(self, value: int) -> str:
        """The kind of win worth ``value`` points (for end rules that give a value, such as
        Shlem's blockade length²)."""
        for k, v in self.kinds:
            if v == value:
                return k
        raise GameStateError(f"no {self.name} win is worth {value} points")

    def applies_to(self, variant: Variant) -> bool:
        return self.name in variant.scorings

    def evaluate(self, position: Position, winner: int) -> tuple[str, int]:
        """``(kind, value)`` of a win by ``winner``, who must have borne off every checker."""
        n = position.variant.checkers
        if position.borne_off(winner) != n:
            raise GameStateError(f"the winner has not borne off all {n} checkers")
        return self.kinds[self.classify(position.side(1 - winner))]

    def __repr__(self) -> str:
        return f"<Scoring {self.name}: " + ", ".join(f"{k} {v}" for k, v in self.kinds) + ">"

    def __reduce__(self) -> tuple[Any, ...]:
        return (find_scoring, (self.name,))  # the preset itself, not a copy


class StandardScoring(Scoring):
    """Seed 000, short nardy: single 1; gammon («марс») 2 when the loser bore off none;
    backgammon («кокс») 3 when, besides, a loser's checker is on the bar or in the winner's
    home (the loser's indices 18..23)."""

    name = "standard"
    aliases = ("backgammon", "seed_000")
    kinds = (("single", 1), ("gammon", 2), ("backgammon", 3))
    kind_aliases: ClassVar[dict[str, str]] = {"oin": "single", "mars": "gammon", "koks": "backgammon"}
    source = "seed 000, «Марс и Кокс»"

    def classify(self, loser: Sequence[int]) -> int:
        if loser[25] > 0:
            return 0
        if loser[24] > 0 or any(loser[18:24]):
            return 2
        return 1


class EncyclopediaScoring(Scoring):
    """Seed 001: x2 when the loser bore off none, x4 when besides not all his checkers are
    home, x8 when besides a checker is on the bar."""

    name = "encyclopedia"
    aliases = ("seed_001",)
    kinds = (("single", 1), ("x2", 2), ("x4", 4), ("x8", 8))
    source = "seed 001"

    def classify(self, loser: Sequence[int]) -> int:
        if loser[25] > 0:
            return 0
        if loser[24] > 0:
            return 3
        return 2 if any(loser[6:25]) else 1  # 1: every checker home


class OinMarsScoring(Scoring):
    """Seed 000 §4, long nardy: oin 1 when the loser bore off at least one checker, mars 2
    when he bore off none."""

    name = "oin_mars"
    aliases = ("federation", "seed_000_long")
    kinds = (("oin", 1), ("mars", 2))
    kind_aliases: ClassVar[dict[str, str]] = {"simple": "oin", "single": "oin"}
    source = "seed 000 §4.1-4.2"

    def classify(self, loser: Sequence[int]) -> int:
        return 0 if loser[25] > 0 else 1


class FourKindScoring(Scoring):
    """Seed 004's names and values, conditions ordered by severity (docs/rules/long-nardy.md
    §11.3): simple 1 (loser bore off some); mars 2 (none off, all 15 home); home mars 3 (none
    off, a checker outside home); koks 4 (none off, a checker still in his first quarter,
    indices 18..23)."""

    name = "four_kind"
    aliases = ("seed_004",)
    kinds = (("simple", 1), ("mars", 2), ("home_mars", 3), ("koks", 4))
    kind_aliases: ClassVar[dict[str, str]] = {"oin": "simple", "single": "simple"}
    source = "seed 004, lines 4-8"

    def classify(self, loser: Sequence[int]) -> int:
        if loser[25] > 0:
            return 0
        if any(loser[18:24]):
            return 3
        return 2 if any(loser[6:25]) else 1  # 1: every checker home


class SingleGammonScoring(Scoring):
    """Tavla, Portes and Fevga (docs/rules/tavla.md, portes.md, fevga.md): 1 point a win, 2 a
    gammon («mars»; a double game in Fevga) when the loser bore off none; no backgammon."""

    name = "single_gammon"
    aliases = ("tavla", "portes", "no_backgammon", "fevga", "moultezim")
    kinds = (("single", 1), ("gammon", 2))
    kind_aliases: ClassVar[dict[str, str]] = {"mars": "gammon", "oin": "single",
                                              "double": "gammon"}
    source = "«Tavla» (Backgammon Galore!); «Portes» (kafenio.eu, Ludii); «Fevga» (fevga.md)"

    def classify(self, loser: Sequence[int]) -> int:
        return 0 if loser[25] > 0 else 1


class PlakotoScoring(Scoring):
    """Plakoto (docs/rules/plakoto.md): 1 point a win, 2 a gammon (the loser bore off none),
    2 a win by the mother rule ("lost double"); ended by :meth:`nardy.Plakoto.status`."""

    name = "plakoto"
    aliases: ClassVar[tuple[str, ...]] = ("plakoto_double_mother",)
    kinds = (("single", 1), ("gammon", 2), ("mother", 2))
    kind_aliases: ClassVar[dict[str, str]] = {"oin": "single", "mars": "gammon"}
    source = "«Plakoto» (Wikipedia); «Backgammon Plakoto» (Mind Sports Olympiad)"

    def classify(self, loser: Sequence[int]) -> int:
        return 0 if loser[25] > 0 else 1


class PlakotoTripleMotherScoring(PlakotoScoring):
    """Plakoto with the mother rule's win counted as a backgammon, 3 points («won as a
    backgammon», game.history.free.fr)."""

    name = "plakoto_triple_mother"
    aliases = ()
    kinds = (("single", 1), ("gammon", 2), ("mother", 3))
    source = "«Backgammon: the game of the prisoner» (game.history.free.fr)"


class ShlemScoring(Scoring):
    """Seed 003 (docs/rules/shlem.md S13, S35): a game ended without a blockade is won by the
    player with more closed points on the opponent's territory, for 1 point
    (``closed_points``); a blockade of length n wins n² (``blockade_2`` 4, ``blockade_3`` 9,
    ``blockade_4`` 16, ``blockade_5`` 25, ... ``blockade_12`` 144). Shlem games are not
    decided by bearing off, so :meth:`classify` is never used; :meth:`Game` reads the end from
    :meth:`nardy.Shlem.status`."""

    name = "shlem"
    aliases = ("seed_003",)
    kinds = (("closed_points", 1),) + tuple((f"blockade_{n}", n * n) for n in range(2, 13))
    kind_aliases: ClassVar[dict[str, str]] = {
        "points": "closed_points", "single": "closed_points",
        "diad": "blockade_2", "double": "blockade_2",
        "triad": "blockade_3", "copper_helmet": "blockade_3",
        "tetrad": "blockade_4", "silver_helmet": "blockade_4",
        "pentad": "blockade_5", "golden_helmet": "blockade_5",
    }
    source = "seed 003, «Виды блокад (шлемов)», «Завершение партии»"

    def classify(self, loser: Sequence[int]) -> int:
        raise GameStateError("a Shlem game is not won by bearing off")

    def evaluate(self, position: Position, winner: int) -> tuple[str, int]:
        raise GameStateError("a Shlem game is not won by bearing off")



class GulBaraScoring(Scoring):
    """Gul bara (docs/rules/gul-bara.md): single 1 when the loser bore off a checker, double 2
    when he bore off none."""

    name = "gul_bara"
    aliases = ("rosespring",)
    kinds = (("single", 1), ("double", 2))
    kind_aliases: ClassVar[dict[str, str]] = {"gammon": "double", "mars": "double"}
    source = "docs/rules/gul-bara.md"

    def classify(self, loser: Sequence[int]) -> int:
        return 0 if loser[25] > 0 else 1


class AceyDeuceyScoring(Scoring):
    """Acey-deucey (docs/rules/acey-deucey.md): backgammon's single 1, gammon 2, backgammon 3,
    a checker still to enter counting as one on the bar."""

    name = "acey_deucey"
    aliases = ("acey-deucey",)
    kinds = (("single", 1), ("gammon", 2), ("backgammon", 3))
    source = "docs/rules/acey-deucey.md"

    def classify(self, loser: Sequence[int]) -> int:
        if loser[25] > 0:
            return 0
        if loser[25] < 0 or loser[24] > 0 or any(loser[18:24]):
            return 2
        return 1


class SingleOnlyScoring(Scoring):
    """Every win 1 point, whatever the loser has borne off (acey-deucey as some game rooms
    play it, docs/rules/acey-deucey.md)."""

    name = "single_only"
    aliases = ("single",)
    kinds = (("single", 1),)
    source = "docs/rules/acey-deucey.md"

    def classify(self, loser: Sequence[int]) -> int:
        return 0


SCORINGS: dict[str, Scoring] = {
    s.name: s for s in (StandardScoring(), EncyclopediaScoring(), OinMarsScoring(),
                        FourKindScoring(), ShlemScoring(), SingleGammonScoring(),
                        PlakotoScoring(), PlakotoTripleMotherScoring(), GulBaraScoring(),
                        AceyDeuceyScoring(), SingleOnlyScoring())
}



def find_scoring(name: str | Scoring) -> Scoring:
    """The scoring preset called ``name`` (or one of its aliases; ``-`` and ``_`` alike)."""
    if isinstance(name, Scoring):
        return name
    if not isinstance(name, str):
        raise InvalidRuleError(f"scoring must be a preset name, not {name!r}")
    wanted = _norm(name)
    for s in SCORINGS.values():
        if wanted == s.name or wanted in s.aliases:
            return s
    raise InvalidRuleError(f"unknown scoring preset {name!r}; known: {', '.join(SCORINGS)}")



__all__ = [
    "SCORINGS", "AceyDeuceyScoring", "EncyclopediaScoring", "FourKindScoring", "GulBaraScoring", "OinMarsScoring",
    "PlakotoScoring", "PlakotoTripleMotherScoring", "Scoring", "ShlemScoring",
    "SingleGammonScoring", "SingleOnlyScoring", "StandardScoring", "find_scoring",
]
