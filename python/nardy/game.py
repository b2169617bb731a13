"""Whole games: the opening roll, turns, the doubling cube, resignation, results and scoring.

A :class:`Game` is a small state machine on top of :class:`~nardy.position.Position` (the C++
core answers "what may I play"; this module decides who acts, with which dice, and what the
game is worth). Every action is recorded in :attr:`Game.history`; :meth:`Game.undo` takes the
last one back and :meth:`Game.replay` rebuilds a game from a history.

The rules behind every option, with the sentence of the rule texts each rests on, are in
``docs/rules/games-and-matches.md``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any, ClassVar, NamedTuple

from nardy import _core
from nardy.errors import (
    CubeError,
    GameStateError,
    IllegalMoveError,
    InvalidDiceError,
    InvalidRuleError,
)
from nardy.position import PASS, LegalMoves, Move, Position
from nardy.variants import BLACK, WHITE, Variant, as_variant

# ---------------------------------------------------------------------------------------------
# Scoring presets
# ---------------------------------------------------------------------------------------------


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
        if isinstance(kind, bool):
            raise InvalidRuleError(f"not a kind of win: {kind!r}")
        if isinstance(kind, int):
            if 1 <= kind <= n:
                return kind - 1
            raise InvalidRuleError(f"{self.name}: a win has levels 1..{n}, not {kind}")
        if isinstance(kind, str):
            wanted = _norm(kind)
            wanted = self.kind_aliases.get(wanted, wanted)
            for i, (k, _) in enumerate(self.kinds):
                if k == wanted:
                    return i
            generic = {"single": 0, "gammon": 1, "backgammon": 2}
            if wanted in generic and generic[wanted] < n:
                return generic[wanted]
        raise InvalidRuleError(f"{self.name}: unknown kind of win {kind!r}; "
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
        return 1 if sum(loser[0:6]) == 15 else 2


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
        return 1 if sum(loser[0:6]) == 15 else 2


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



SCORINGS: dict[str, Scoring] = {
    s.name: s for s in (StandardScoring(), EncyclopediaScoring(), OinMarsScoring(),
                        FourKindScoring(), ShlemScoring())
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


# ---------------------------------------------------------------------------------------------
# Rules of play
# ---------------------------------------------------------------------------------------------

ROLLOFF = "rolloff"
FRESH = "fresh"
GEOMETRIC = "geometric"
ARITHMETIC = "arithmetic"


@dataclass(frozen=True)
class GameRules:
    """The rules of play around the moves. ``None`` means "the variant's default".

    ================= ===============================================================
    scoring           scoring preset: ``standard`` (default) or ``encyclopedia`` for
                      backgammon; ``oin_mars`` (default) or ``four_kind`` for long nardy;
                      ``shlem`` for Shlem
    opening_roll      ``rolloff``: the starter plays the two roll-off dice (backgammon
                      default); ``fresh``: he throws two new dice (long-nardy default)
    cube              the doubling cube («даве»); default on in backgammon, off in long
                      nardy (on = Nardegammon); Shlem has none
    max_cube          the highest stake the cube may reach (None: no limit)
    stakes            ``geometric`` (1, 2, 4, 8 ...) or ``arithmetic`` (1, 2, 3, 4 ...)
    beaver            a doubled player may beaver (redouble at once, keeping the cube)
    raccoon           a beavered doubler may raccoon (redouble the beaver at once)
    jacoby            gammons etc. count single unless a double was taken
    auto_doubles      how many tied opening throws double the stake (0: none)
    no_mars_with_cube every bear-off win counts single while the cube is in play
    last_roll_draw    long nardy: when the starter bears off his last checker the other
                      player has one more turn, and a draw if he bears off all in it
    draw_points       what each player scores for a draw (0.5 or 1), times the stake
    ================= ===============================================================
    """

    scoring: str | None = None
    opening_roll: str | None = None
    cube: bool | None = None
    max_cube: int | None = None
    stakes: str = GEOMETRIC
    beaver: bool = False
    raccoon: bool = False
    jacoby: bool = False
    auto_doubles: int = 0
    no_mars_with_cube: bool = False
    last_roll_draw: bool = False
    draw_points: float = 0.5

    def resolve(self, variant: Variant | type[Variant] | str | None = None) -> GameRules:
        """These rules with the variant's defaults filled in, validated."""
        v = as_variant(variant)
        r = replace(
            self,
            scoring=find_scoring(self.scoring).name if self.scoring is not None
            else v.default_scoring,
            opening_roll=self.opening_roll if self.opening_roll is not None
            else v.default_opening_roll,
            cube=self.cube if self.cube is not None else (v.cube_allowed and v.default_cube),
        )
        r._validate(v)
        return r

    def _validate(self, v: Variant) -> None:
        bad = InvalidRuleError
        sc = find_scoring(self.scoring)  # type: ignore[arg-type]
        if not sc.applies_to(v):
            raise bad(f"scoring {sc.name!r} is not a scale of {v.name}")
        if self.opening_roll not in (ROLLOFF, FRESH):
            raise bad(f"opening_roll must be {ROLLOFF!r} or {FRESH!r}, not {self.opening_roll!r}")
        if self.stakes not in (GEOMETRIC, ARITHMETIC):
            raise bad(f"stakes must be {GEOMETRIC!r} or {ARITHMETIC!r}, not {self.stakes!r}")
        for name in ("cube", "beaver", "raccoon", "jacoby", "no_mars_with_cube",
                     "last_roll_draw"):
            if not isinstance(getattr(self, name), bool):
                raise bad(f"{name} must be True or False")
        if self.max_cube is not None and (
                not isinstance(self.max_cube, int) or isinstance(self.max_cube, bool)
                or self.max_cube < 1):
            raise bad(f"max_cube must be None or an integer >= 1, not {self.max_cube!r}")
        if (not isinstance(self.auto_doubles, int) or isinstance(self.auto_doubles, bool)
                or self.auto_doubles < 0):
            raise bad(f"auto_doubles must be an integer >= 0, not {self.auto_doubles!r}")
        if not self.cube:
            for name in ("beaver", "raccoon", "jacoby", "no_mars_with_cube"):
                if getattr(self, name):
                    raise bad(f"{name} needs the cube (cube=True)")
            if self.auto_doubles or self.max_cube is not None:
                raise bad("auto_doubles and max_cube need the cube (cube=True)")
        if self.raccoon and not self.beaver:
            raise bad("raccoon needs beaver")
        if self.cube and not v.cube_allowed:
            raise bad(f"{v.name} is played without the doubling cube")
        if self.last_roll_draw and not v.last_roll_draw_allowed:
            raise bad("the last-roll draw is a long-nardy rule (seed 000 §4.3)")
        if self.draw_points not in (0.5, 1) or isinstance(self.draw_points, bool):
            raise bad(f"draw_points must be 0.5 or 1, not {self.draw_points!r}")

    def stake(self, level: int) -> int:
        """The stake after ``level`` doublings."""
        return 2 ** level if self.stakes == GEOMETRIC else level + 1

    def level_of(self, stake: int) -> int | None:
        """How many doublings make ``stake`` (None when no number of them does)."""
        return next((k for k in range(64) if self.stake(k) == stake), None)

    @staticmethod
    def make(rules: GameRules | dict[str, Any] | None = None,
             variant: Variant | type[Variant] | str | None = None,
             **overrides: Any) -> GameRules:
        """The validated rules a :class:`Game` of ``variant`` made with ``rules`` and
        ``overrides`` plays by (the variant's defaults filled in)."""
        return _make_rules(rules, overrides).resolve(variant)


def _make_rules(rules: GameRules | dict[str, Any] | None, overrides: dict[str, Any]) -> GameRules:
    if rules is None:
        base = GameRules()
    elif isinstance(rules, GameRules):
        base = rules
    elif isinstance(rules, dict):
        overrides = {**rules, **overrides}
        base = GameRules()
    else:
        raise InvalidRuleError(f"rules must be a GameRules or a dict, not {type(rules).__name__}")
    known = {f.name for f in fields(GameRules)}
    unknown = set(overrides) - known
    if unknown:
        raise InvalidRuleError(f"unknown game rule(s) {sorted(unknown)}; known: {sorted(known)}")
    return replace(base, **overrides) if overrides else base


# ---------------------------------------------------------------------------------------------
# Game records
# ---------------------------------------------------------------------------------------------


class Phase(str, Enum):
    """What the game waits for."""

    OPENING = "opening"      # the opening throw (one die each)
    ROLL = "roll"            # the player on roll may double, resign or roll
    DOUBLED = "doubled"      # the opponent must take, drop (or beaver)
    BEAVERED = "beavered"    # the doubler must take or drop the beaver (or raccoon)
    RACCOONED = "raccooned"  # the beaverer must take or drop the raccoon
    MOVE = "move"            # the player on roll must play (or pass)
    RESIGNED = "resigned"    # the opponent must accept or decline a resignation
    OVER = "over"

    def __str__(self) -> str:
        return self.value


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


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------

def _color_arg(c: Any) -> int:
    if isinstance(c, bool) or c not in (WHITE, BLACK):
        raise GameStateError(f"a player is WHITE (0) or BLACK (1), not {c!r}")
    return int(c)


def _color_name(c: int | None) -> str:
    return "-" if c is None else ("white" if c == WHITE else "black")


class Game:
    """One game of a variant, from the opening roll to the result.

    >>> g = Game("backgammon", seed=1)
    >>> g.roll()                     # the opening throw (ties are re-thrown)
    >>> moves = g.legal_moves()      # the starter plays the two opening dice
    >>> g.play(moves[0])

    Actions, each allowed only at its moment (else :class:`GameStateError` / :class:`CubeError`):
    :meth:`roll`, :meth:`play`, :meth:`pass_turn`, :meth:`double`, :meth:`take`, :meth:`drop`,
    :meth:`beaver`, :meth:`raccoon`, :meth:`resign`, :meth:`accept`, :meth:`decline`,
    :meth:`claim` (Shlem), :meth:`undo`.

    ``position``: start from that position instead of the opening (the colour on roll in it is
    on roll, no opening throw); ``starter`` says who started the game (default: the colour on
    roll), which the long-nardy draw needs. ``crawford``: the Crawford game of a match - the
    cube may not be used at all. ``seed``: the dice generator's seed (None: a fresh one, kept
    in :attr:`seed` so the game can be reproduced). ``passes`` (Shlem, with ``position``): the
    turns passed in a row just before that position, for the pass-limit end rule.
    ``cube_level`` / ``cube_owner``: the cube as it stands at the start (doubled that many
    times, owned by that colour; None: in the middle, where automatic doubles leave it). ``last_roll`` (long
    nardy with the draw rule, with ``position``): the starter has borne off and the colour on
    roll takes the last roll. These set-up values are kept (:attr:`setup`) so that
    :meth:`replayed`, pickling and the JSON form rebuild the same game.

    Shlem (docs/rules/games-and-matches.md §11): no cube; after every move and pass the game
    ends when :meth:`nardy.Shlem.status` says so (a blockade wins its length², otherwise more
    closed points on the opponent's territory wins 1, equal counts draw).
    """

    def __init__(
        self,
        variant: Variant | type[Variant] | str | None = None,
        rules: GameRules | dict[str, Any] | None = None,
        seed: int | str | bytes | None = None,
        *,
        position: Position | None = None,
        starter: int | None = None,
        crawford: bool = False,
        passes: int = 0,
        cube_level: int = 0,
        cube_owner: int | None = None,
        last_roll: bool = False,
        **rule_options: Any,
    ) -> None:
        if position is not None:
            if variant is not None and as_variant(variant) != position.variant:
                raise InvalidRuleError("position is of another variant than the game")
            v = position.variant
        else:
            v = as_variant(variant)
        self._variant = v
        self._rules = GameRules.make(rules, v, **rule_options)
        self._scoring = find_scoring(self._rules.scoring)  # type: ignore[arg-type]
        self._crawford = bool(crawford)
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        self._seed = seed
        self._rng = random.Random(seed)
        self._random = self._rng.random
        self._engine = v.engine
        self._pending_rolls: list[tuple[int, int]] = []
        self._pending_opening: list[tuple[int, int]] = []
        self._history: list[Action] = []
        self._undo: list[tuple[Any, ...]] = []
        self._sealed = False
        self._setup: dict[str, Any] = {
            "position": position, "starter": starter, "passes": passes,
            "cube_level": cube_level, "cube_owner": cube_owner, "last_roll": last_roll}

        self._dice: tuple[int, int] | None = None
        self._moves: Any = None                  # the core's move set for the dice
        self._legal: LegalMoves | None = None     # the Python LegalMoves, built on demand
        self._check_setup(cube_level, cube_owner, last_roll, position, starter)
        self._cube_level = cube_level
        self._cube_owner: int | None = cube_owner
        # an owned cube was doubled by a player; a doubled cube still in the middle was raised
        # by automatic doubles only
        self._cube_turned = cube_owner is not None
        self._auto_done = cube_level if cube_owner is None else 0
        self._doubled_this_turn = False
        self._resign: tuple[int, int, Phase] | None = None
        self._last_roll = bool(last_roll)
        self._result: Result | None = None
        if (not isinstance(passes, int) or isinstance(passes, bool) or passes < 0
                or (passes and not (v.counts_passes and position is not None))):
            raise InvalidRuleError("passes is the count of consecutive passed turns before a "
                                   "game started from a position, in a variant whose end rules "
                                   "count them (Shlem; an integer >= 0)")
        self._passes = passes   # consecutive passed turns just before this one
        if position is None:
            if starter is not None:
                raise InvalidRuleError("starter is only for games started from a position")
            self._start = Position.start(v)
            self._position = self._start
            self._phase = Phase.OPENING
            self._starter: int | None = None
        else:
            if starter not in (None, WHITE, BLACK):
                raise InvalidRuleError(f"starter must be WHITE or BLACK, not {starter!r}")
            self._start = position
            self._position = position
            self._starter = position.turn if starter is None else starter
            self._phase = Phase.ROLL
            if not v.bears_off:
                self._check_status_end()
            else:
                w = position.winner()
                # on the last roll the starter has borne off already: the game goes on
                if w is not None and not (self._last_roll and w == self._starter):
                    self._finish_bear_off(w)

    def _check_setup(self, cube_level: Any, cube_owner: Any, last_roll: Any,
                     position: Position | None, starter: int | None) -> None:
        if not isinstance(cube_level, int) or isinstance(cube_level, bool) or cube_level < 0:
            raise InvalidRuleError(f"cube_level is how many times the stake was doubled (an "
                                   f"integer >= 0), not {cube_level!r}")
        if cube_owner not in (None, WHITE, BLACK):
            raise InvalidRuleError(f"cube_owner must be None, WHITE or BLACK, not {cube_owner!r}")
        if cube_level or cube_owner is not None:
            if not self.cube_in_play:
                raise InvalidRuleError("these rules put no cube in play"
                                       + (" (a Crawford game)" if self._crawford else ""))
            if cube_level == 0:
                raise InvalidRuleError("a cube that was never doubled is in the middle: "
                                       "cube_owner must be None at cube_level 0")
            r = self._rules
            if r.max_cube is not None and r.stake(cube_level) > r.max_cube:
                raise InvalidRuleError(f"cube_level {cube_level}: a stake of "
                                       f"{r.stake(cube_level)} is above max_cube {r.max_cube}")
        if not isinstance(last_roll, bool):
            raise InvalidRuleError(f"last_roll must be True or False, not {last_roll!r}")
        if last_roll:
            if not self._rules.last_roll_draw:
                raise InvalidRuleError("last_roll needs the last_roll_draw rule")
            on_roll = None if position is None else position.turn
            if position is None or (starter if starter is not None else on_roll) == on_roll:
                raise InvalidRuleError("last_roll: a game from a position whose colour on roll "
                                       "is not the starter (the second player takes the last "
                                       "roll)")

    # -- construction helpers ----------------------------------------------------------
    @classmethod
    def replay(
        cls,
        history: Iterable[Action],
        variant: Variant | type[Variant] | str | None = None,
        rules: GameRules | dict[str, Any] | None = None,
        *,
        position: Position | None = None,
        starter: int | None = None,
        crawford: bool = False,
        passes: int = 0,
        cube_level: int = 0,
        cube_owner: int | None = None,
        last_roll: bool = False,
        **rule_options: Any,
    ) -> Game:
        """A new game built by applying ``history`` (with its recorded dice) in order. Rolls
        after the end of the history draw new dice from seed 0 (pass dice to control them)."""
        g = cls(variant, rules, 0, position=position, starter=starter, crawford=crawford,
                passes=passes, cube_level=cube_level, cube_owner=cube_owner,
                last_roll=last_roll, **rule_options)
        for action in history:
            g.apply(action)
        return g

    def replayed(self) -> Game:
        """A fresh game rebuilt from this game's history (same rules, start and dice)."""
        g = Game(self._variant, self._rules, self._seed, crawford=self._crawford,
                 **self.setup)
        for action in self._history:
            g.apply(action)
        return g

    def apply(self, action: Action) -> None:
        """Applies a recorded action (with its recorded dice)."""
        k = action.kind
        if k == "opening" or k == "roll":
            self.roll(action.dice)
        elif k == "move":
            if action.dice is not None and action.dice != self._dice:
                raise GameStateError(f"recorded move used {action.dice}, the dice are {self._dice}")
            self.play(action.move if action.move is not None else PASS)
        elif k == "pass":
            self.pass_turn()
        elif k == "claim":
            self.claim()
        elif k == "resign":
            self.resign(action.level if action.level is not None else 1, action.player)
        elif k in ("double", "take", "drop", "beaver", "raccoon", "accept", "decline"):
            getattr(self, k)()
        else:
            raise GameStateError(f"unknown action {k!r}")
        if action.player is not None and self._history[-1].player != action.player:
            raise GameStateError(f"recorded {k} by {_color_name(action.player)}, "
                                 f"but it is {_color_name(self._history[-1].player)}'s")

    # -- read-only state --------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def rules(self) -> GameRules:
        """The game rules in force (variant defaults filled in)."""
        return self._rules

    @property
    def scoring(self) -> Scoring:
        return self._scoring

    @property
    def seed(self) -> int | str | bytes:
        return self._seed

    @property
    def crawford(self) -> bool:
        """True in the Crawford game of a match: the cube is out of play."""
        return self._crawford

    @property
    def position(self) -> Position:
        return self._position

    @property
    def start_position(self) -> Position:
        return self._start

    @property
    def setup(self) -> dict[str, Any]:
        """The set-up arguments this game was made with (``position``, ``starter``, ``passes``,
        ``cube_level``, ``cube_owner``, ``last_roll``; ``position`` None for a game from the
        opening): ``Game(variant, rules, seed, crawford=..., **game.setup)`` starts it again."""
        return dict(self._setup)

    @property
    def automatic_doubles(self) -> int:
        """How many automatic doubles the opening throws have made so far."""
        return self._auto_done

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def turn(self) -> int | None:
        """The colour on roll (None before the opening throw decided it)."""
        return None if self._phase is Phase.OPENING else self._position.turn

    @property
    def to_act(self) -> int | None:
        """The colour that must act now (None at the opening throw and when the game is over)."""
        p = self._phase
        if p is Phase.OPENING or p is Phase.OVER:
            return None
        t = self._position.turn
        if p is Phase.RESIGNED and self._resign is not None:
            return 1 - self._resign[0]
        if p is Phase.DOUBLED or p is Phase.RACCOONED:
            return 1 - t
        return t

    @property
    def starter(self) -> int | None:
        """The colour that moved first (None before the opening throw)."""
        return self._starter

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice to be played now (None outside the move phase)."""
        return self._dice

    @property
    def is_last_roll(self) -> bool:
        """True while the second player takes the last roll of the long-nardy draw rule."""
        return self._last_roll

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._history)

    @property
    def passes(self) -> int | None:
        """Shlem: how many turns in a row have just been passed (both players; a move resets
        it), the count the pass-limit end rule reads. None for other variants."""
        return self._passes if self._variant.counts_passes else None

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
    def pending_resignation(self) -> tuple[int, int] | None:
        """(colour that resigned, level 1..n) while a resignation waits for an answer."""
        return None if self._resign is None else (self._resign[0], self._resign[1] + 1)

    def is_game_over(self) -> bool:
        return self._phase is Phase.OVER

    def winner(self) -> int | None:
        """The winning colour, None while the game goes on or after a draw."""
        return None if self._result is None else self._result.winner

    def result(self) -> Result | None:
        """The :class:`Result` once the game is over, else None."""
        return self._result

    def legal_moves(self) -> LegalMoves:
        """The legal moves for the current dice (empty: the player must pass)."""
        if self._phase is not Phase.MOVE:
            raise GameStateError(f"no dice to play: the game is in phase {self._phase}")
        if self._legal is None:
            self._legal = self._position.legal_moves(self._dice)  # type: ignore[arg-type]
        return self._legal

    def move_count(self) -> int:
        """How many legal moves the current dice allow (0: the player must pass), without
        building them: with :meth:`play` by index, the fast path for bots and self-play."""
        if self._phase is not Phase.MOVE:
            raise GameStateError(f"no dice to play: the game is in phase {self._phase}")
        return len(self._moves)

    # -- internals --------------------------------------------------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        return (self._position, self._phase, self._dice, self._moves, self._legal, self._starter,
                self._cube_level, self._cube_owner, self._cube_turned, self._auto_done,
                self._doubled_this_turn, self._resign, self._last_roll, self._result,
                self._passes)

    def _restore(self, s: tuple[Any, ...]) -> None:
        (self._position, self._phase, self._dice, self._moves, self._legal, self._starter,
         self._cube_level, self._cube_owner, self._cube_turned, self._auto_done,
         self._doubled_this_turn, self._resign, self._last_roll, self._result,
         self._passes) = s

    def _record(self, action: Action, snapshot: tuple[Any, ...]) -> None:
        self._history.append(action)
        self._undo.append(snapshot)

    def _need(self, *phases: Phase) -> None:
        if self._phase not in phases:
            if self._phase is Phase.OVER:
                raise GameStateError("the game is over")
            want = " or ".join(str(p) for p in phases)
            raise GameStateError(f"not now: the game is in phase {self._phase}, not {want}")

    def _die(self) -> int:
        return int(self._random() * 6) + 1

    def _adjusted(self, value: int) -> int:
        r = self._rules
        if value > 1 and self.cube_in_play and (
                r.no_mars_with_cube or (r.jacoby and not self._cube_turned)):
            return 1
        return value

    def _end(self, winner: int | None, reason: str, kind: str, value: int) -> None:
        cube = self.cube_value
        if winner is None:
            counted = 0
            points: float = self._rules.draw_points * cube
        else:
            counted = self._adjusted(value)
            points = counted * cube
        self._result = Result(winner, reason, kind, value, counted, cube, points)
        self._phase = Phase.OVER
        self._dice = None
        self._moves = None
        self._legal = None

    def _check_status_end(self) -> None:
        """Ends a game not decided by bearing off when the variant's status says it is over
        (the player on roll is the one about to act, ``passes`` the passed turns just before)."""
        st = self._variant.status(self._position, self._passes)
        if not st["over"]:
            return
        winner = st["winner"]
        if winner is None:
            self._end(None, st["reason"], "draw", 0)
        else:
            kind = self._scoring.kind_of(st["value"])
            self._end(winner, st["reason"], kind, st["value"])

    def _finish_bear_off(self, winner: int) -> None:
        kind, value = self._scoring.evaluate(self._position, winner)
        self._end(winner, "bear-off", kind, value)

    # -- the opening and rolling ------------------------------------------------------
    def roll(self, dice: Sequence[int] | None = None) -> None:
        """Rolls the dice, or uses ``dice`` (a pair of 1..6).

        At the opening each player throws one die: ``dice`` is then (white's die, black's
        die); without dice, ties are re-thrown until the dice differ (each throw is recorded).
        Otherwise the player on roll throws two dice and must then :meth:`play` or
        :meth:`pass_turn`.
        """
        if self._phase is Phase.OPENING:
            if dice is not None:
                self._opening_throw(_dice_pair(dice), explicit=True)
                return
            while self._phase is Phase.OPENING:
                if self._pending_opening:
                    throw = self._pending_opening.pop()
                else:
                    throw = (self._die(), self._die())
                self._opening_throw(throw, explicit=False)
            return
        self._need(Phase.ROLL)
        if dice is not None:
            pair = _dice_pair(dice)
            self._pending_rolls.clear()
        elif self._pending_rolls:
            pair = self._pending_rolls.pop()
        else:
            pair = (self._die(), self._die())
        snap = self._snapshot()
        pos = self._position
        self._dice = pair
        self._moves = self._engine.legal(pos.key, pair[0], pair[1])
        self._legal = None
        self._phase = Phase.MOVE
        self._history.append(Action("roll", pos.turn, pair))
        self._undo.append(snap)

    def _opening_throw(self, throw: tuple[int, int], explicit: bool) -> None:
        if explicit:
            self._pending_opening.clear()
        snap = self._snapshot()
        w, b = throw
        if w == b:
            r = self._rules
            if (self.cube_in_play and self._auto_done < r.auto_doubles
                    and (r.max_cube is None or r.stake(self._cube_level + 1) <= r.max_cube)):
                self._cube_level += 1
                self._auto_done += 1
        else:
            starter = WHITE if w > b else BLACK
            self._starter = starter
            pos = self._start if starter == WHITE else self._start.pass_turn()
            self._position = pos
            if self._rules.opening_roll == ROLLOFF:
                pair = (max(w, b), min(w, b))
                self._dice = pair
                self._moves = self._engine.legal(pos.key, pair[0], pair[1])
                self._legal = None
                self._phase = Phase.MOVE
            else:
                self._phase = Phase.ROLL
        self._record(Action("opening", None, throw), snap)

    # -- moving ----------------------------------------------------------------------
    def play(self, move: Move | str | int) -> None:
        """Plays a legal move for the current dice: a :class:`Move`, its notation, or an
        index into :meth:`legal_moves`. :data:`nardy.PASS` passes when nothing is legal.
        Raises :class:`IllegalMoveError` for a move that is not legal."""
        self._need(Phase.MOVE)
        pos = self._position
        dice: tuple[int, int] = self._dice  # type: ignore[assignment]
        if isinstance(move, bool):
            raise IllegalMoveError(f"not a move: {move!r}")
        if isinstance(move, int):
            moves = self._moves
            n = len(moves)
            if not 0 <= move < n:
                raise IllegalMoveError(f"move index {move} out of range: {n} legal move(s)")
            if self._legal is not None:
                mv = self._legal[move]
                key = self._legal.key(move)
            else:
                mv = Move(moves.steps(move))
                key = moves.key(move)
        else:
            legal = self.legal_moves()
            if isinstance(move, str):
                if move.strip().lower() in ("pass", "-", ""):
                    move = PASS
                else:
                    move = pos.parse_move(move, dice)
            if not isinstance(move, Move):
                raise IllegalMoveError(f"not a move: {move!r}")
            if not move:
                if len(legal):
                    raise IllegalMoveError("cannot pass: a legal move exists")
                self.pass_turn()
                return
            idx = legal.index_of(move)
            if idx < 0:
                raise IllegalMoveError(f"{move.notation(pos.variant, pos.turn)} is not legal "
                                       f"for {dice[0]}-{dice[1]} in {pos!r}")
            # Keep the caller's steps when each is one die (their order is the record's); a
            # chain written as one step (24/13) is recorded as the canonical single-die steps.
            mv = move if pos.variant.one_die_each(move.steps, legal[idx].steps, dice) \
                else legal[idx]
            key = legal.key(idx)
        snap = self._snapshot()
        key = _core.swap(key)
        mover = pos.turn
        self._position = Position._raw(pos.variant, key, 1 - mover)
        self._history.append(Action("move", mover, dice, mv))
        self._undo.append(snap)
        self._after_move(mover, _core.decode(key)[1][25] == pos.variant.checkers)

    def pass_turn(self) -> None:
        """Passes when the dice allow no move (else :class:`IllegalMoveError`)."""
        self._need(Phase.MOVE)
        if len(self._moves):
            raise IllegalMoveError("cannot pass: a legal move exists")
        snap = self._snapshot()
        mover = self._position.turn
        self._position = self._position.pass_turn()
        self._record(Action("pass", mover, self._dice), snap)
        self._after_move(mover, False, passed=True)

    def _after_move(self, mover: int, finished: bool, passed: bool = False) -> None:
        self._dice = None
        self._moves = None
        self._legal = None
        self._doubled_this_turn = False
        if not self._variant.bears_off:
            self._passes = self._passes + 1 if passed else 0
            self._phase = Phase.ROLL
            self._check_status_end()
            return
        if self._last_roll:
            # the last roll of the long-nardy draw rule has been played: the game ends
            if finished:
                self._end(None, "draw", "draw", 0)
            else:
                self._finish_bear_off(1 - mover)
            return
        if finished:
            if self._rules.last_roll_draw and mover == self._starter:
                self._last_roll = True
                self._phase = Phase.ROLL
                return
            self._finish_bear_off(mover)
            return
        self._phase = Phase.ROLL

    # -- Shlem: claiming a blockade --------------------------------------------------------
    def can_claim(self) -> bool:
        """Shlem with ``blockade_end="claim"``: whether the player on roll may claim a blockade
        now (at the start of his turn, before rolling)."""
        if not self._variant.has_claims or self._phase is not Phase.ROLL:
            return False
        st = self._variant.status(self._position, self._passes)
        return bool(st["claimable"])

    def claim(self) -> None:
        """Shlem with ``blockade_end="claim"``: the player on roll claims the blockade he holds
        on the opponent's line, before rolling; the game ends and he wins its length²."""
        self._need(Phase.ROLL)
        if not self._variant.has_claims:
            raise GameStateError(f"{self._variant!r} has no claims (Shlem has them with "
                                 "blockade_end='claim')")
        turn = self._position.turn
        st = self._variant.status(self._position, self._passes)
        if not st["claimable"]:
            raise GameStateError(f"{_color_name(turn)} holds no blockade to claim")
        n = st["blockade"][turn]
        snap = self._snapshot()
        self._end(turn, "blockade", self._scoring.kind_of(n * n), n * n)
        self._record(Action("claim", turn), snap)

    # -- the cube ----------------------------------------------------------------------
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

    # -- resignation --------------------------------------------------------------------
    def resign(self, level: int | str = 1, player: int | None = None) -> None:
        """``player`` (default: the player on roll) offers to resign a win of ``level`` (1..n
        or a kind name: ``single`` / ``gammon`` / ``backgammon``, ``oin`` / ``mars``...); the
        other player must :meth:`accept` or :meth:`decline`. Either player may resign while a
        turn is being rolled or played, as on FIBS and in gnubg."""
        self._need(Phase.ROLL, Phase.MOVE)
        if self._last_roll:
            raise GameStateError("no resignation on the last roll")
        by = self._position.turn if player is None else _color_arg(player)
        i = self._scoring.level(level)
        snap = self._snapshot()
        self._resign = (by, i, self._phase)
        self._phase = Phase.RESIGNED
        self._record(Action("resign", by, level=i + 1), snap)

    def accept(self) -> None:
        """Accepts the resignation on offer: the game ends at that level times the stake."""
        self._need(Phase.RESIGNED)
        assert self._resign is not None
        snap = self._snapshot()
        by, i, _ = self._resign
        kind, value = self._scoring.kinds[i]
        self._resign = None
        self._end(1 - by, "resign", kind, value)
        self._record(Action("accept", 1 - by), snap)

    def decline(self) -> None:
        """Declines the resignation on offer: play goes on where it stopped."""
        self._need(Phase.RESIGNED)
        assert self._resign is not None
        snap = self._snapshot()
        by, _, phase = self._resign
        self._resign = None
        self._phase = phase
        self._record(Action("decline", 1 - by), snap)

    # -- undo --------------------------------------------------------------------------
    def undo(self) -> Action:
        """Takes back the last action and returns it. Undoing a roll keeps its dice: the next
        :meth:`roll` without dice throws them again (no fishing for better dice)."""
        if self._sealed:
            raise GameStateError("this game is part of a match that has gone on; it is final")
        if not self._history:
            raise GameStateError("nothing to undo")
        action = self._history.pop()
        self._restore(self._undo.pop())
        if action.kind == "roll":
            self._pending_rolls.append(action.dice)  # type: ignore[arg-type]
        elif action.kind == "opening":
            self._pending_opening.append(action.dice)  # type: ignore[arg-type]
        return action

    # -- pickle and copy ------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """State for pickle and copy: the core's engine and move sets are left out and rebuilt
        on load; the lists and the dice generator are copied, so ``copy.copy`` gives a game
        independent of this one (same history, same future dice)."""
        state = self.__dict__.copy()
        for name in ("_engine", "_random", "_moves", "_legal"):
            state.pop(name, None)
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        state["_rng"] = rng
        for name in ("_history", "_pending_rolls", "_pending_opening"):
            state[name] = list(state[name])
        state["_undo"] = [s[:3] + (None, None) + s[5:] for s in self._undo]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._engine = self._variant.engine
        self._random = self._rng.random
        self._legal = None

        def moves(pos: Position, dice: tuple[int, int] | None) -> Any:
            return None if dice is None else self._engine.legal(pos.key, dice[0], dice[1])

        self._moves = moves(self._position, self._dice)
        self._undo = [s[:3] + (moves(s[0], s[2]), None) + s[5:] for s in self._undo]

    # -- display ------------------------------------------------------------------------
    def _repr_svg_(self) -> str:
        from nardy.svg import board

        return board(self, size=400)

    def __repr__(self) -> str:
        parts = [f"{self._variant.name}", f"phase={self._phase}"]
        if self._phase is not Phase.OPENING and self._phase is not Phase.OVER:
            parts.append(f"turn={_color_name(self._position.turn)}")
        if self._dice:
            parts.append(f"dice={self._dice[0]}-{self._dice[1]}")
        if self.cube_in_play:
            parts.append(f"cube={self.cube_value}@{_color_name(self._cube_owner)}")
        if self._result is not None:
            r = self._result
            parts.append(f"result={r.reason}:{r.kind} {_color_name(r.winner)} +{r.points}")
        return f"<Game {' '.join(parts)}>"


def _dice_pair(dice: Sequence[int]) -> tuple[int, int]:
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise InvalidDiceError(f"dice must be a pair of integers from 1 to 6, got {dice!r}") from None
    for d in (d1, d2):
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise InvalidDiceError(f"dice must be a pair of integers from 1 to 6, got {dice!r}")
    return d1, d2


__all__ = [
    "ARITHMETIC", "FRESH", "GEOMETRIC", "ROLLOFF", "SCORINGS",
    "Action", "EncyclopediaScoring", "FourKindScoring", "Game", "GameRules", "OinMarsScoring",
    "Phase", "Result", "Scoring", "ShlemScoring", "StandardScoring", "find_scoring",
]
