"""Variants and their rule options, with a registry looked up by name or alias.

A variant object is an immutable rule set: the class says which game (geometry, core policy,
default options); the instance carries the chosen rule options. Presets are subclasses that
change class-level defaults, as python-chess does for chess variants.

Everything that differs between variants is a class-level trait or a method here (scoring
presets, the cube, the opening roll, point names, the text form's places, encodings, status
queries, how a written move is found): the game, batch, text and JSON layers read these and
never test the concrete class. This module imports no other part of the Python layer above
the core, so notation and positions may depend on it without a circle.
"""

from __future__ import annotations

from typing import Any, ClassVar

from nardy import _core
from nardy import _validate as _v
from nardy.errors import (
    IllegalMoveError,
    InvalidNotationError,
    InvalidRuleError,
    QueryError,
    UnknownVariantError,
)

WHITE = 0
BLACK = 1


def _covers(step: Any, die: int) -> bool:
    """Whether one step moves by ``die`` (a bear-off step by at most it)."""
    distance = (24 if step.from_ == 24 else step.from_) - step.to
    return distance <= die if step.to == -1 else distance == die


class Variant:
    """Base class of every variant. Instances are hashable, immutable rule sets."""

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    core_variant: ClassVar[_core.Variant]
    #: rule option name -> (default, allowed values)
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {}
    has_bar: ClassVar[bool] = False
    hits: ClassVar[bool] = False
    #: Board pictures (nardy.svg, the text board): white's own indices of the top and the
    #: bottom row, left to right, as white sees the board.
    board_rows: ClassVar[tuple[tuple[int, ...], tuple[int, ...]]] = (
        tuple(range(12, 24)), tuple(range(11, -1, -1)))
    #: Side slots a picture shows: index -> (label, where), where is "bar" (between the
    #: halves) or "tray" (beside the board, on the row of the owner's index 0).
    board_places: ClassVar[dict[int, tuple[str, str]]] = {25: ("off", "tray")}
    #: checkers per side
    checkers: ClassVar[int] = 15

    # -- rules of play around the moves (read by nardy.game) --------------------------------
    #: names of the scoring presets written for this variant; the first is the default
    scorings: ClassVar[tuple[str, ...]] = ()
    #: the opening rule by default: ``"rolloff"`` (the starter plays the two opening dice) or
    #: ``"fresh"`` (he throws two new dice)
    default_opening_roll: ClassVar[str] = "rolloff"
    #: whether games may use the doubling cube, and whether they do unless told otherwise
    cube_allowed: ClassVar[bool] = True
    default_cube: ClassVar[bool] = False
    #: whether the last-roll draw rule (long nardy, seed 000 §4.3) may be chosen
    last_roll_draw_allowed: ClassVar[bool] = False
    #: a game ends when a player has borne off every checker (else: when :meth:`status` says)
    bears_off: ClassVar[bool] = True
    #: consecutive passed turns are part of the game state (an end rule reads them)
    counts_passes: ClassVar[bool] = False
    #: a roll may give a turn of several groups of dice whose moves depend on the mover's
    #: turn number (the game layer asks :meth:`turn_moves`)
    sequence_turns: ClassVar[bool] = False
    #: every turn's moves can be listed in seconds (not so in Gul bara, where one doubles
    #: cascade can have tens of millions): what choosing among whole turns needs, as
    #: callable and evaluator rollout policies do
    listable_turns: ClassVar[bool] = True
    #: the most checker steps one turn can have (more only where a turn is several rolls)
    max_turn_steps: ClassVar[int] = 4
    #: a roll may let the player name dice (acey-deucey's double after a 1-2): the turn's moves
    #: carry the named die, and after some of them the same player rolls again
    names_dice: ClassVar[bool] = False
    #: a game may also end before anyone has borne off, when :meth:`status` says so
    status_ends: ClassVar[bool] = False
    #: every step of a move covers one die along the line (entering from the bar counts 25),
    #: so a recorded move's steps can be checked against its dice
    linear_steps: ClassVar[bool] = True

    # -- encodings and text forms ---------------------------------------------------------
    #: the nardy.batch encoding used when none is named
    default_encoding: ClassVar[str] = "tdgammon"
    #: names of side index 24 and 25 in the text form (None: the variant has no such place)
    side_places: ClassVar[tuple[str | None, str]] = (None, "off")
    #: a checker may be held prisoner (-1 on its index in a side array)
    prisoners: ClassVar[bool] = False
    #: GNU Backgammon's Position ID, Match ID and XGID describe its positions
    gnubg_ids: ClassVar[bool] = False
    #: the text form's name of the checkers still to enter, for variants whose checkers start
    #: off the board (a side array holds n of them as -n in slot 25; None: no such checkers)
    reserve_place: ClassVar[str | None] = None
    #: the Position methods that mean something in this variant (the others raise QueryError)
    queries: ClassVar[tuple[str, ...]] = ("pip_count", "borne_off")

    __slots__ = ("_rules", "engine")

    def __init__(self, **rules: Any) -> None:
        chosen: dict[str, Any] = {}
        for key, (default, allowed) in self.options.items():
            # type-strict: True is not 1, 4.0 is not 4, an array is no option value
            chosen[key] = _v.choice(rules.pop(key, default), f"{self.name}: rule {key}",
                                    allowed, error=InvalidRuleError)
        if rules:
            raise InvalidRuleError(
                f"{self.name}: unknown rule option(s) {sorted(rules)}; known: {sorted(self.options)}")
        self._rules = tuple(sorted(chosen.items()))
        #: The C++ engine for these rules (one per variant object; not shared across threads
        #: that call it at the same time).
        self.engine: _core.Engine = self._make_engine()

    @property
    def rules(self) -> dict[str, Any]:
        """The rule options in force, name -> value."""
        return dict(self._rules)

    def _make_engine(self) -> _core.Engine:
        return _core.Engine(self.core_variant)

    def initial_side(self) -> tuple[int, ...]:
        """The starting side array of either player (26 counts, own coordinates)."""
        raise NotImplementedError

    def to_mover(self, j: int) -> int:
        """The mover's index of the opponent's point index ``j``."""
        raise NotImplementedError

    def point_name(self, index: int, color: int) -> str:
        """The notation name of the mover's index (24 = bar, -1 = off) for a player of ``color``."""
        raise NotImplementedError

    def point_index(self, name: str, color: int) -> int:
        """Inverse of :meth:`point_name`; raises ``ValueError`` for an unknown name."""
        raise NotImplementedError

    def board_notes(self, position: Any) -> tuple[str, ...]:
        """Short lines of variant state a board picture shows beside the board."""
        return ()

    def picture_side(self, side: Any) -> list[int]:
        """A side array as the pictures read it: one count per place of ``board_places``
        (here the array itself)."""
        return list(side)
    @property
    def default_scoring(self) -> str:
        """The name of the scoring preset games of this variant use unless told otherwise."""
        if not self.scorings:
            raise InvalidRuleError(f"games of {self.name} are not supported")
        return self.scorings[0]

    @property
    def has_claims(self) -> bool:
        """Whether a player may end the game by claiming a position before rolling."""
        return False

    # -- queries on a position ----------------------------------------------------------
    def _no_query(self, what: str) -> QueryError:
        return QueryError(f"{self.name} has no {what}; the queries of this variant are "
                          + ", ".join(self.queries))

    def pip_count(self, position: Any, color: int) -> int:
        """Pips ``color`` needs to bear off every checker (the bar counts 25)."""
        side = position.side(color)
        return sum((i + 1) * n for i, n in enumerate(side[:25]))

    def borne_off(self, position: Any, color: int) -> int:
        """Checkers ``color`` has borne off."""
        return int(position.side(color)[25])

    def reserves(self, position: Any, color: int) -> int:
        """Checkers ``color`` has still to enter (variants with reserves)."""
        raise self._no_query("reserves")

    def hit_out(self, position: Any, color: int) -> int:
        """Checkers of ``color`` hit out of the game (variants that hit checkers out)."""
        raise self._no_query("checkers hit out of the game")

    def prisoners_held(self, position: Any, color: int) -> int:
        """Opponent checkers held prisoner under ``color``'s checkers (variants with prisoners)."""
        raise self._no_query("prisoners")

    def status(self, position: Any, passes: int = 0) -> dict[str, Any]:
        """The end-of-game state of ``position``: ``over``, ``winner`` (a colour or None),
        ``reason``; variants with their own end rules add more (see :meth:`Shlem.status`).
        Here: over when a player has borne off every checker."""
        us, them = position.sides()
        n = self.checkers
        winner = (position.turn if us[25] == n
                  else 1 - position.turn if them[25] == n else None)
        return {"over": winner is not None, "winner": winner,
                "reason": "bear-off" if winner is not None else None}

    # -- notation --------------------------------------------------------------------------
    def find_move(self, position: Any, chains: list[list[tuple[int, bool]]], moves: Any,
                  text: str) -> int:
        """Index in ``moves`` (the legal moves of ``position``) of the move that the parsed
        notation ``chains`` (one list of ``(point, hit)`` per checker) denotes.

        Read as net checker movements: each chain takes a checker from its first point to its
        last; points marked ``*`` (and, where the variant hits, a blot on a chain's last point)
        send the opponent's checker there to the bar."""
        us, them = (list(s) for s in position.sides())
        return self._find_in(position, us, them, chains, moves, text)

    def _find_in(self, position: Any, us: list[int], them: list[int],
                 chains: list[list[tuple[int, bool]]], moves: Any, text: str) -> int:
        """:meth:`find_move` from the side arrays ``us`` and ``them`` (changed in place)."""
        hit_now: set[int] = set()  # opponent points already hit by this move
        # to_mover is an involution in every variant, so it maps both ways
        for chain in chains:
            start, end = chain[0][0], chain[-1][0]
            us[start] -= 1
            us[25 if end == -1 else end] += 1
            for k, (point, hit) in enumerate(chain[1:], start=1):
                if point == -1:
                    continue
                j = self.to_mover(point)
                last = k == len(chain) - 1
                if self.hits and (hit or (last and them[j] == 1)):
                    if hit and them[j] == 0 and j in hit_now:
                        # a second checker marked as hitting the same blot ("6/4 6/4*",
                        # gnubg's "13/8*(2)"): that blot is already on the bar
                        continue
                    if them[j] != 1:
                        raise IllegalMoveError(f"{text!r}: no blot to hit on "
                                               f"{self.point_name(point, position.turn)}")
                    them[j] -= 1
                    them[24] += 1
                    hit_now.add(j)
        # (a negative slot 25 counts the checkers still to enter, where a variant has them)
        if min(us[:25]) < 0 or (us[25] < 0 and self.reserve_place is None):
            raise IllegalMoveError(f"{text!r} moves checkers the player does not have")
        idx: int = moves.find(_core.encode(tuple(us), tuple(them), self.core_variant))
        return idx

    @property
    def turn_numbers_matter(self) -> bool:
        """Whether the moves of a roll depend on the mover's turn number (then a game's text
        form writes it, ``turn=``)."""
        return False

    @property
    def carries_dice(self) -> bool:
        """Whether dice a turn could not play can pass to the opponent, who plays them before
        his own roll (Gul bara with ``stopped_cascade="to-opponent"``; :meth:`carry`)."""
        return False

    def carry(self, dice: tuple[int, int], turn_number: int,
              played: int) -> tuple[int, int] | None:
        """The dice a turn of the roll ``dice`` on the mover's turn ``turn_number`` that
        played ``played`` dice leaves to the opponent, as ``(die, left)``: he plays ``left``
        dice of ``die`` (then each higher double, as a cascade goes on) before his own roll
        (:meth:`Position.carried_moves`). None when it leaves none, and always where
        :attr:`carries_dice` is false."""
        if not self.carries_dice:
            return None
        found = self.engine.carry(dice[0], dice[1], turn_number, played)
        return None if found is None else (int(found[0]), int(found[1]))

    def turn_dice(self, dice: tuple[int, int], turn_number: int | None = None) -> list[int]:
        """The dice the roll gives the mover's turn ``turn_number``, in the order they are
        played: a non-double's two, a double's four (a variant whose turn can be several
        rolls lists them all, e.g. Gul bara's cascade)."""
        return [dice[0]] * 4 if dice[0] == dice[1] else list(dice)

    def dice_orders(self, dice: tuple[int, int], turn_number: int | None = None) -> list[list[int]]:
        """The orders in which a move of the roll can play its dice, each as long as the most
        steps such a move has."""
        played = self.turn_dice(dice, turn_number)
        return [played] if dice[0] == dice[1] else [played, played[::-1]]

    def steps_follow_dice(self, steps: Any, dice: tuple[int, int],
                          turn_number: int | None = None) -> bool:
        """Whether ``steps`` play one die each of the roll (a bear-off step at most its die),
        in one of the orders of :meth:`dice_orders`. Where they lead is not checked."""
        return any(len(steps) <= len(order) and all(_covers(s, d) for s, d in zip(steps, order))
                   for order in self.dice_orders(dice, turn_number))

    def one_die_each(self, steps: Any, legal_steps: Any, dice: tuple[int, int],
                     turn_number: int | None = None) -> bool:
        """True when ``steps`` are as many as the legal move's and every step covers one of
        the dice (a bear-off step may cover less): the caller's step order is then kept.
        Beyond one roll's four dice the steps must follow the turn's dice in order."""
        if len(steps) != len(legal_steps):
            return False
        left = self.turn_dice(dice, turn_number)
        if len(left) > 4:
            return all(_covers(s, d) for s, d in zip(steps, left))
        for step in steps:
            distance = (24 if step.from_ == 24 else step.from_) - step.to
            if step.to == -1:
                candidates = [d for d in left if d >= distance]
            else:
                candidates = [d for d in left if d == distance]
            if not candidates:
                return False
            left.remove(min(candidates))
        return True

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._rules == self._rules  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._rules))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._rules)
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_variant, (type(self).name, self.rules))


def _rebuild_variant(name: str, rules: dict[str, Any]) -> Variant:
    return find_variant(name)(**rules)


class Backgammon(Variant):
    """Backgammon (short nardy): 2-5-3-5 setup, hitting, the bar."""

    name = "backgammon"
    aliases: ClassVar[tuple[str, ...]] = (
        "short nardy", "short-nardy", "короткие нарды", "bg", "nardegammon")
    core_variant = _core.Variant.BACKGAMMON
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        # seed 002 house rule: a checker that hits may not go on, in the same turn, to a
        # point holding another own checker (docs/rules/backgammon.md)
        "no_hit_and_hide": (False, (False, True)),
    }
    has_bar = True
    hits = True
    board_places: ClassVar[dict[int, tuple[str, str]]] = {
        24: ("bar", "bar"), 25: ("off", "tray")}
    # annotated so that presets and relatives (Nackgammon...) may override them
    scorings: ClassVar[tuple[str, ...]] = ("standard", "encyclopedia")
    default_cube = True
    side_places: ClassVar[tuple[str | None, str]] = ("bar", "off")
    gnubg_ids = True

    def _make_engine(self) -> _core.Engine:
        return _core.Engine(self.core_variant, no_hit_and_hide=self.rules["no_hit_and_hide"])

    def initial_side(self) -> tuple[int, ...]:
        side = [0] * 26
        side[23], side[12], side[7], side[5] = 2, 5, 3, 5
        return tuple(side)

    def to_mover(self, j: int) -> int:
        return 23 - j

    def point_name(self, index: int, color: int) -> str:
        if index == 24:
            return "bar"
        if index == -1:
            return "off"
        return str(index + 1)

    def point_index(self, name: str, color: int) -> int:
        name = name.strip().lower()
        if name == "bar":
            return 24
        if name == "off":
            return -1
        if not (name.isascii() and name.isdigit()) or not 1 <= int(name) <= 25:
            raise ValueError(f"not a backgammon point: {name!r}")
        return int(name) - 1  # 25 is the bar as gnubg writes it


def _absolute_point_name(index: int, color: int) -> str:
    """Points numbered absolutely, for games whose sides start diagonally opposite: white's
    index i is point i + 1, black's is (i + 12) % 24 + 1."""
    if index == -1:
        return "off"
    return str((index + (12 if color == BLACK else 0)) % 24 + 1)


def _absolute_point_index(name: str, color: int, variant: str) -> int:
    name = name.strip().lower()
    if name == "off":
        return -1
    if not (name.isascii() and name.isdigit()) or not 1 <= int(name) <= 24:
        raise ValueError(f"not a {variant} point: {name!r}")
    return (int(name) - 1 - (12 if color == BLACK else 0)) % 24


class _DiagonalStarts:
    """The board of the games whose sides start diagonally opposite and move the same way
    (long nardy, Fevga): all fifteen on the head, the opponent's index j facing the mover's
    (j + 12) % 24. Seed 000 numbers the board absolutely: white's head is 24 and home 1-6,
    black's head 12 and home 13-18 (white's index i is point i+1, black's (i + 12) % 24 + 1)."""

    name: ClassVar[str]

    def initial_side(self) -> tuple[int, ...]:
        side = [0] * 26
        side[23] = 15
        return tuple(side)

    def to_mover(self, j: int) -> int:
        return (j + 12) % 24

    def point_name(self, index: int, color: int) -> str:
        return _absolute_point_name(index, color)

    def point_index(self, name: str, color: int) -> int:
        return _absolute_point_index(name, color, self.name)


_HEAD_RULES = ("federation", "classic", "extended")
_BLOCK_CHECKS = ("step", "end")


class LongNardy(_DiagonalStarts, Variant):
    """Long nardy: no hitting, the head rule, no six-point block in front of every opponent."""

    name = "long-nardy"
    aliases: ClassVar[tuple[str, ...]] = (
        "long nardy", "длинные нарды", "long", "narde", "long-nardy-federation")
    core_variant = _core.Variant.LONG_NARDY
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        "head_rule": ("federation", _HEAD_RULES),
        "block_check": ("step", _BLOCK_CHECKS),
    }
    scorings: ClassVar[tuple[str, ...]] = ("oin_mars", "four_kind")
    default_opening_roll = "fresh"
    last_roll_draw_allowed = True
    default_encoding = "long"

    def _make_engine(self) -> _core.Engine:
        rules = self.rules
        head = getattr(_core.HeadRule, rules["head_rule"].upper())
        return _core.Engine(self.core_variant, head, rules["block_check"] == "end")



class LongNardyClassic(LongNardy):
    """Long nardy, "classic" preset: 6-6, 4-4, 3-3 on the first turn always free two head checkers."""

    name = "long-nardy-classic"
    aliases = ("long nardy classic",)
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        "head_rule": ("classic", _HEAD_RULES),
        "block_check": ("step", _BLOCK_CHECKS),
    }


class LongNardyExtended(LongNardy):
    """Long nardy, seed-004 preset: a second head checker whenever it lets more dice be played."""

    name = "long-nardy-extended"
    aliases = ("long nardy extended",)
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        "head_rule": ("extended", _HEAD_RULES),
        "block_check": ("step", _BLOCK_CHECKS),
    }


# Shlem's point names (docs/rules/shlem.md): quarter digit of each block of six indices.
# White: own line 11..16 21..26 (indices 0..11), facing points 41..46 31..36 (12..23).
# Black: own line 41..46 31..36, facing points 11..16 21..26.
_SHLEM_QUARTERS = {WHITE: (1, 2, 4, 3), BLACK: (4, 3, 1, 2)}
_SHLEM_RESERVE = "res"


class Shlem(Variant):
    """Shlem (Шлем, seed 003): build a blockade on the opponent's territory. Checkers move
    both ways along a line, jump to the facing point with the die equal to the point's number,
    take single opponent checkers prisoner (or, in stage 2, hit them out of the game); three
    reserve checkers enter at any time. Side arrays: 0..11 own line, 12..23 the facing points,
    24 reserves, 25 hit out; -1 = one checker held prisoner there."""

    name = "shlem"
    aliases = ("шлем", "shlem nardy", "helmet")
    core_variant = _core.Variant.SHLEM
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        # stage 2 (hitting) begins when either player has entered its 3 reserves, or for each
        # player when that player has
        "stage": ("either", ("either", "per-player")),
        # a blockade ends the game at the end of the move that builds it, or the builder may
        # claim it at the start of a later turn of its own
        "blockade_end": ("move", ("move", "claim")),
        # consecutive passed turns that end the game ("both players pass twice in a row")
        "pass_limit": (4, tuple(range(0, 17))),
    }
    has_bar = False
    hits = True
    # The two lines face each other: white's 11..26 at the bottom, black's 41..36 on top.
    board_rows: ClassVar[tuple[tuple[int, ...], tuple[int, ...]]] = (
        tuple(range(12, 24)), tuple(range(12)))
    board_places: ClassVar[dict[int, tuple[str, str]]] = {
        24: ("reserve", "tray"), 25: ("hit out", "tray")}

    def stage(self, position: Any) -> str:
        """The stage in force: "1" or "2", or per player ("W2 B1") under stage="per-player"."""
        white, black = position.side(WHITE), position.side(BLACK)
        if self.rules["stage"] == "either":
            return "2" if (white[24] == 0 or black[24] == 0) else "1"
        return f"W{2 if white[24] == 0 else 1} B{2 if black[24] == 0 else 1}"

    def board_notes(self, position: Any) -> tuple[str, ...]:
        return (f"stage {self.stage(position)}",)
    scorings = ("shlem",)
    # «Розыгрыш первого хода. Идентично классическим правилам коротких нард.» (seed 003)
    default_opening_roll = "rolloff"
    cube_allowed = False  # seed 003 has no cube
    bears_off = False
    counts_passes = True
    linear_steps = False
    default_encoding = "shlem"
    side_places = ("res", "out")
    prisoners = True
    queries = ("reserves", "hit_out", "prisoners_held", "status")

    @property
    def has_claims(self) -> bool:
        return bool(self.rules["blockade_end"] == "claim")

    def _no_query(self, what: str) -> QueryError:
        return QueryError(f"shlem has no {what}: checkers are not borne off; ask reserves(), "
                          "hit_out(), prisoners_held() or status() (the blockades)")

    def pip_count(self, position: Any, color: int) -> int:
        raise self._no_query("pip count")

    def borne_off(self, position: Any, color: int) -> int:
        raise self._no_query("borne-off count")

    def reserves(self, position: Any, color: int) -> int:
        return int(position.side(color)[24])

    def hit_out(self, position: Any, color: int) -> int:
        return int(position.side(color)[25])

    def prisoners_held(self, position: Any, color: int) -> int:
        # a prisoner is -1 on the prisoner's own index; count the opponent's
        return sum(1 for n in position.side(1 - color)[:24] if n < 0)

    def _make_engine(self) -> _core.Engine:
        r = self.rules
        return _core.Engine(
            self.core_variant,
            shlem_stage=_core.ShlemStage.PER_PLAYER if r["stage"] == "per-player"
            else _core.ShlemStage.EITHER,
            shlem_end=_core.ShlemEnd.CLAIM if r["blockade_end"] == "claim" else _core.ShlemEnd.MOVE,
            shlem_pass_limit=r["pass_limit"])

    def initial_side(self) -> tuple[int, ...]:
        side = [0] * 26
        for i in range(12):
            side[i] = 1
        side[24] = 3
        return tuple(side)

    def to_mover(self, j: int) -> int:
        return (j + 12) % 24

    def point_name(self, index: int, color: int) -> str:
        if index == 24:
            return _SHLEM_RESERVE
        if not 0 <= index <= 23:
            raise ValueError(f"not a Shlem index: {index!r}")
        return f"{_SHLEM_QUARTERS[color][index // 6]}{index % 6 + 1}"

    def point_index(self, name: str, color: int) -> int:
        name = name.strip().lower()
        if name in (_SHLEM_RESERVE, "reserve", "bar"):
            return 24
        if len(name) != 2 or not (name.isascii() and name.isdigit()) or not ("1" <= name[0] <= "4") \
                or not ("1" <= name[1] <= "6"):
            raise ValueError(f"not a Shlem point (11..16, 21..26, 31..36, 41..46): {name!r}")
        block = _SHLEM_QUARTERS[color].index(int(name[0]))
        return block * 6 + int(name[1]) - 1

    # -- end of the game (docs/rules/shlem.md) -----------------------------------------------
    def status(self, position: Any, passes: int = 0) -> dict[str, Any]:
        """The end-of-game state of ``position`` (its mover on roll; ``passes`` = consecutive
        passed turns just before): over, winner (a colour or None), value (points), reason,
        the longest blockade of each colour, and whether the player on roll may claim."""
        st = self.engine.status(position.key, passes)
        turn = position.turn
        winner = None if not st["over"] or st["winner"] == 0 else (
            turn if st["winner"] == 1 else 1 - turn)
        return {
            "over": st["over"], "winner": winner, "value": st["value"], "reason": st["reason"],
            "blockade": {turn: st["us_blockade"], 1 - turn: st["them_blockade"]},
            "claimable": st["claimable"],
        }

    # -- notation ----------------------------------------------------------------------------
    def find_move(self, position: Any, chains: list[list[tuple[int, bool]]], moves: Any,
                  text: str) -> int:
        """Chains of two-digit points, ``res`` for a reserve entering, ``*`` after a point
        where an opponent checker is hit out (a checker landing on a single opponent checker
        without ``*`` takes it prisoner). Intermediate points may be left out: the move is
        found by where the checkers end up."""
        if any(p == -1 for chain in chains for p, _ in chain):
            raise InvalidNotationError(f"{text!r}: Shlem has no bearing off")
        delta = [0] * 25
        hits: set[int] = set()
        for chain in chains:
            delta[chain[0][0]] -= 1
            delta[chain[-1][0]] += 1
            hits.update(p for p, h in chain[1:] if h)
        us0, them0 = position.sides()
        for k, key in enumerate(moves.keys()):
            us1, them1 = _core.decode(key, self.core_variant)
            if [abs(us1[i]) - abs(us0[i]) for i in range(25)] != delta:
                continue
            hit_now = {self.to_mover(j) for j in range(24) if them0[j] and not them1[j]}
            if hit_now == hits:
                return k
        return -1


class Nackgammon(Backgammon):
    """Nackgammon: backgammon from a setup with four back checkers (24x2, 23x2, 13x4, 8x3, 6x4)."""

    name = "nackgammon"
    aliases = ("nack",)
    core_variant = _core.Variant.NACKGAMMON

    def initial_side(self) -> tuple[int, ...]:
        side = [0] * 26
        side[23], side[22], side[12], side[7], side[5] = 2, 2, 4, 3, 4
        return tuple(side)


class Hypergammon(Backgammon):
    """Hypergammon: backgammon with three checkers a side, set up on the 24-, 23- and 22-points."""

    name = "hypergammon"
    aliases = ("hyper", "hyper-backgammon")
    core_variant = _core.Variant.HYPERGAMMON
    checkers = 3
    gnubg_ids = False  # gnubg's IDs count 15 checkers a side

    def initial_side(self) -> tuple[int, ...]:
        side = [0] * 26
        side[23], side[22], side[21] = 1, 1, 1
        return tuple(side)


class Tavla(Backgammon):
    """Tavla (Turkish): backgammon's setup and movement; 1 point a win, 2 a gammon («mars»), no
    backgammon and no doubling cube; the winner of the opening throw rolls both dice anew."""

    name = "tavla"
    aliases = ("turkish backgammon", "takhteh")
    core_variant = _core.Variant.TAVLA
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        **Backgammon.options,
        # a checker that hits in its own home board moves no further in that turn; sources
        # disagree, so it is off by default (docs/rules/tavla.md)
        "no_hit_and_run": (False, (False, True)),
    }
    scorings = ("single_gammon",)
    default_opening_roll = "fresh"
    cube_allowed = False
    default_cube = False

    def _make_engine(self) -> _core.Engine:
        return _core.Engine(self.core_variant, no_hit_and_hide=self.rules["no_hit_and_hide"],
                            no_hit_and_run=self.rules["no_hit_and_run"])


class Portes(Backgammon):
    """Portes (Greek, the first game of tavli): backgammon's setup and movement; 1 point a
    win, 2 a gammon (no backgammon by default), no cube unless chosen; the winner of the
    opening throw rolls both dice anew."""

    name = "portes"
    aliases = ("πόρτες", "greek backgammon")
    core_variant = _core.Variant.PORTES
    scorings = ("single_gammon", "standard")
    default_opening_roll = "fresh"
    default_cube = False
_FEVGA_FIRST = ("past-start", "opponent-quarter")
_FEVGA_PRIMES = ("one-point-behind", "all-behind", "free")


class Fevga(_DiagonalStarts, Variant):
    """Fevga (Greek tavli): long nardy's board, both sides moving the same way from diagonally
    opposite starts; a single checker holds a point; no second checker leaves the start before
    the first is past the opponent's start; never all six points of the own starting quarter,
    nor (rule ``prime``) a prime that shuts in every opponent checker."""

    name = "fevga"
    aliases: ClassVar[tuple[str, ...]] = ("φεύγα", "feuga")
    core_variant = _core.Variant.FEVGA
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        # how far the first checker goes before a second leaves the start
        "first_checker": ("past-start", _FEVGA_FIRST),
        # which six-point primes are forbidden (docs/rules/fevga.md)
        "prime": ("one-point-behind", _FEVGA_PRIMES),
        # never all six points of the own starting quarter
        "start_quarter": (True, (True, False)),
        # the most points held at once in the opponent's starting quarter (6: no limit)
        "their_quarter_limit": (6, tuple(range(1, 7))),
        # the six-point rules after every step, or on the final position only
        "block_check": ("step", _BLOCK_CHECKS),
    }
    scorings: ClassVar[tuple[str, ...]] = ("single_gammon",)
    # the starter throws both dice again (Backgammon Galore, BrainKing)
    default_opening_roll = "fresh"
    cube_allowed = False  # tavli is played without the cube
    default_encoding = "long"

    def _make_engine(self) -> _core.Engine:
        r = self.rules
        return _core.Engine(
            self.core_variant, block_check_at_end=r["block_check"] == "end",
            fevga_first=_core.FevgaFirst.PAST_START if r["first_checker"] == "past-start"
            else _core.FevgaFirst.OPPONENT_QUARTER,
            fevga_prime=getattr(_core.FevgaPrime, r["prime"].upper().replace("-", "_")),
            fevga_start_quarter=r["start_quarter"],
            fevga_their_quarter=r["their_quarter_limit"])



class Moultezim(Fevga):
    """Moultezim, Fevga's Turkish and Bulgarian cousin as Backgammon Galore gives it: at most
    four points of the opponent's starting quarter, neither Fevga's starting-quarter rule nor
    its prime rule."""

    name = "moultezim"
    aliases = ("mültezim",)
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        **Fevga.options,
        "prime": ("free", _FEVGA_PRIMES),
        "start_quarter": (False, (True, False)),
        "their_quarter_limit": (4, tuple(range(1, 7))),
    }


class GulBara(LongNardy):
    """Gul bara (Rosespring, "crazy narde"; Bulgarian): long nardy's start, board and no-hit
    movement without its head and six-block limits, and the doubles cascade: from a player's
    ``cascade_from_turn``-th turn on, a double is followed by every higher double up to 6-6,
    each played only if the one before was played in full (docs/rules/gul-bara.md). A turn
    can then be up to 24 steps; its moves depend on the mover's turn number, which the game
    layer counts (:meth:`turn_moves`). With ``cascade_count="game-rolls"`` the turns are
    counted over the game's rolls, so the player who rolled second cascades a turn earlier
    (from the default's third turn: after the game's first three rolls)."""

    name = "gul-bara"
    aliases = ("gul bara", "rosespring", "rosespring backgammon", "crazy narde", "гюлбара")
    core_variant = _core.Variant.GUL_BARA
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        # each player's turn from which doubles cascade (0: never): sources differ
        "cascade_from_turn": (3, tuple(range(0, 10))),
        # whose turns count: each player's own, or the game's rolls (the second roller's turn
        # t is the game's roll 2t, read as turn t + 1)
        "cascade_count": ("each-player", ("each-player", "game-rolls")),
        # the dice left where a cascade stops: lost, or played by the opponent before his
        # own roll (backgammon.js's reading of Eighty Games)
        "stopped_cascade": ("lost", ("lost", "to-opponent")),
    }
    scorings = ("gul_bara",)
    last_roll_draw_allowed = False
    cube_allowed = False
    sequence_turns = True
    listable_turns = False  # an early 2-2 cascade can list 20 million moves
    max_turn_steps = 24  # 1-1 and every higher double

    def _make_engine(self) -> _core.Engine:
        return _core.Engine(self.core_variant, cascade_from_turn=self.rules["cascade_from_turn"],
                            cascade_counts_rolls=self.rules["cascade_count"] == "game-rolls",
                            stopped_cascade_to_opponent=(
                                self.rules["stopped_cascade"] == "to-opponent"))

    @property
    def turn_numbers_matter(self) -> bool:
        return bool(self.rules["cascade_from_turn"])

    @property
    def carries_dice(self) -> bool:
        return bool(self.rules["stopped_cascade"] == "to-opponent")

    def turn_dice(self, dice: tuple[int, int], turn_number: int | None = None) -> list[int]:
        d1, d2 = dice
        if turn_number is not None and turn_number < 0:  # dice a stopped cascade left
            return [d1] * -turn_number + [d for d in range(d1 + 1, 7) for _ in range(4)]
        start = self.rules["cascade_from_turn"]
        if d1 != d2 or turn_number is None or start == 0 or turn_number < start:
            return super().turn_dice(dice, turn_number)
        return [d for d in range(d1, 7) for _ in range(4)]


class Plakoto(Variant):
    """Plakoto (Greek, the second game of tavli): all fifteen checkers start on the 24-point,
    backgammon's directions, no hitting: a checker landing on a single opponent checker pins
    it until the pinner's checkers have left; the mother rule (a side's last checker on its
    starting point pinned there loses the game double). Side arrays: -1 on an index = the
    side's one checker pinned there."""

    name = "plakoto"
    aliases = ("πλακωτό",)
    core_variant = _core.Variant.PLAKOTO
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        # whether a side may bear off while one of its checkers is pinned in its home board
        # (docs/rules/plakoto.md, option pinned_bear_off)
        "pinned_bear_off": ("blocked", ("blocked", "allowed")),
    }
    has_bar = False
    hits = False
    prisoners = True
    #: pinned checkers as their own plane (nardy.batch.ENCODINGS)
    default_encoding = "plakoto"
    scorings = ("plakoto", "plakoto_triple_mother")
    default_opening_roll = "fresh"
    cube_allowed = False
    #: a game may also end before a bear-off, when :meth:`status` says so (the mother rule)
    status_ends = True

    def _make_engine(self) -> _core.Engine:
        return _core.Engine(self.core_variant,
                            pinned_bear_off=self.rules["pinned_bear_off"] == "allowed")

    def initial_side(self) -> tuple[int, ...]:
        side = [0] * 26
        side[23] = 15
        return tuple(side)

    def to_mover(self, j: int) -> int:
        return 23 - j

    def point_name(self, index: int, color: int) -> str:
        if index == -1:
            return "off"
        if not 0 <= index <= 23:
            raise ValueError(f"not a plakoto index: {index!r}")
        return str(index + 1)

    def point_index(self, name: str, color: int) -> int:
        name = name.strip().lower()
        if name == "off":
            return -1
        if not (name.isascii() and name.isdigit()) or not 1 <= int(name) <= 24:
            raise ValueError(f"not a plakoto point: {name!r}")
        return int(name) - 1

    def pip_count(self, position: Any, color: int) -> int:
        """Pips ``color`` needs to bear off every checker, pinned ones included."""
        return sum((i + 1) * abs(n) for i, n in enumerate(position.side(color)[:24]))

    def pinned(self, position: Any, color: int) -> int:
        """Checkers of ``color`` pinned by the opponent."""
        return sum(1 for n in position.side(color)[:24] if n < 0)

    def board_notes(self, position: Any) -> tuple[str, ...]:
        notes = []
        for color, name in ((WHITE, "white"), (BLACK, "black")):
            n = self.pinned(position, color)
            if n:
                notes.append(f"{name} pinned {n}")
        return tuple(notes)

    def status(self, position: Any, passes: int = 0) -> dict[str, Any]:
        """Over when a player has borne off every checker, or by the mother rule (a mother
        pinned on its starting point while the pinner has no checker left on its own; both
        mothers pinned: a draw). Adds ``kind`` (the core's result kind) and ``value``."""
        end = self.engine.game_end(position.key)
        if end is None:
            return {"over": False, "winner": None, "reason": None}
        who, kind, value = end
        turn = position.turn
        winner = None if who == 0 else turn if who == 1 else 1 - turn
        reason = "bear-off" if kind in ("single", "gammon") else "mother"
        return {"over": True, "winner": winner, "reason": reason, "kind": kind, "value": value}

    def find_move(self, position: Any, chains: list[list[tuple[int, bool]]], moves: Any,
                  text: str) -> int:
        """Chains of points (``off`` for a checker borne off), read as net checker movements;
        pins follow from where the checkers end up, so ``*`` marks are not needed."""
        if any(p == 24 for chain in chains for p, _ in chain):
            raise InvalidNotationError(f"{text!r}: plakoto has no bar")
        want = [abs(n) for n in position.sides()[0]]
        for chain in chains:
            start, end = chain[0][0], chain[-1][0]
            want[start] -= 1
            want[25 if end == -1 else end] += 1
        if min(want) < 0:
            raise IllegalMoveError(f"{text!r} moves checkers the player does not have")
        for k, key in enumerate(moves.keys()):
            if [abs(n) for n in _core.decode(key, self.core_variant)[0]] == want:
                return k
        return -1


class AceyDeucey(Backgammon):
    """Acey-deucey: backgammon's board, movement, hitting and bar, with all fifteen checkers
    starting off the board; they enter into the opponent's home board as from the bar, but
    (unlike a hit checker) need not enter before others move. A roll of 1-2 is played, then
    the player names any double and plays it, then rolls again: the named double is part of
    the move (:attr:`Move.named`), and after a move that plays every die of it the same player
    is on roll again (docs/rules/acey-deucey.md). Side arrays: slot 25 holds -n while n
    checkers are still to enter (no side has borne off then)."""

    name = "acey-deucey"
    aliases = ("acey deucey", "acey-ducey", "acey ducey", "aceydeucey")
    core_variant = _core.Variant.ACEY_DEUCEY
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {}
    board_places: ClassVar[dict[int, tuple[str, str]]] = {
        24: ("bar", "bar"), 25: ("off", "tray"), 26: ("to enter", "tray")}
    scorings = ("acey_deucey", "single_only")
    default_cube = False
    gnubg_ids = False
    sequence_turns = True
    names_dice = True
    max_turn_steps = 6  # the 1-2, then the named double's four
    reserve_place = "res"
    queries = ("pip_count", "borne_off", "reserves")

    def _make_engine(self) -> _core.Engine:
        return _core.Engine(self.core_variant)

    def initial_side(self) -> tuple[int, ...]:
        side = [0] * 26
        side[25] = -15
        return tuple(side)

    def picture_side(self, side: Any) -> list[int]:
        out = [int(n) for n in side] + [0]
        if out[25] < 0:
            out[26], out[25] = -out[25], 0
        return out

    def pip_count(self, position: Any, color: int) -> int:
        """Pips ``color`` needs to bear off; a checker on the bar or still to enter counts 25."""
        side = self.picture_side(position.side(color))
        return sum((i + 1) * n for i, n in enumerate(side[:25])) + 25 * side[26]

    def borne_off(self, position: Any, color: int) -> int:
        return max(0, int(position.side(color)[25]))

    def reserves(self, position: Any, color: int) -> int:
        """Checkers ``color`` has still to enter."""
        return max(0, -int(position.side(color)[25]))

    def board_notes(self, position: Any) -> tuple[str, ...]:
        return ()

    def dice_orders(self, dice: tuple[int, int], turn_number: int | None = None) -> list[list[int]]:
        """A 1-2's move plays the 1 and the 2 (both, one or, blocked, none), then any named
        double's four dice."""
        orders = super().dice_orders(dice, turn_number)
        if sorted(dice) != [1, 2]:
            return orders
        return orders + [list(first) + [double] * 4
                         for first in ((1, 2), (2, 1)) for double in range(1, 7)]

    def find_move(self, position: Any, chains: list[list[tuple[int, bool]]], moves: Any,
                  text: str) -> int:
        """As backgammon's, with ``bar`` taking a hit checker first, else one still to enter."""
        us, them = (list(s) for s in position.sides())
        waiting_bar = us[24]
        fixed: list[list[tuple[int, bool]]] = []
        entering_reserve = 0
        for chain in chains:
            if chain[0][0] == 24:
                if waiting_bar > 0:
                    waiting_bar -= 1
                else:
                    entering_reserve += 1
            fixed.append(chain)
        if entering_reserve > -min(us[25], 0):
            raise IllegalMoveError(f"{text!r} enters checkers the player does not have")
        # the reserve's checkers enter through the bar slot: lend them to it
        lent = list(us)
        lent[24] += entering_reserve
        lent[25] += entering_reserve
        return self._find_in(position, lent, them, fixed, moves, text)


VARIANTS: tuple[type[Variant], ...] = (
    Backgammon, LongNardy, LongNardyClassic, LongNardyExtended, Shlem, Nackgammon, Hypergammon,
    Tavla, Portes, Plakoto, Fevga, Moultezim, GulBara, AceyDeucey)


def _normalise(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def find_variant(name: str) -> type[Variant]:
    """The variant class answering to ``name`` or one of its aliases (case-insensitive)."""
    if not isinstance(name, str):
        raise UnknownVariantError(f"variant name must be a string, not {type(name).__name__}")
    wanted = _normalise(name)
    for cls in VARIANTS:
        if wanted == _normalise(cls.name) or wanted in (_normalise(a) for a in cls.aliases):
            return cls
    known = ", ".join(cls.name for cls in VARIANTS)
    raise UnknownVariantError(f"unknown variant {name!r}; known: {known}")


def as_variant(variant: Variant | type[Variant] | str | None) -> Variant:
    """Accepts a variant instance, class or name (default: backgammon)."""
    if variant is None:
        return Backgammon()
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, type) and issubclass(variant, Variant):
        return variant()
    return find_variant(variant)()
