"""Whole games: the opening roll, turns, the doubling cube, resignation, results and scoring.

A :class:`Game` is a small state machine on top of :class:`~nardy.position.Position` (the C++
core answers "what may I play"; the game decides who acts, with which dice, and what the game
is worth). Every action is recorded in :attr:`Game.history`; :meth:`Game.undo` takes the last
one back and :meth:`Game.replay` rebuilds a game from a history.

The parts, one module each: :mod:`nardy.phases` (the phase machine: opening, turns, passing,
resignation, the end), :mod:`nardy.cube` (the doubling cube and stakes), :mod:`nardy.scoring`
(kinds of win and their values), :mod:`nardy.rules` (:class:`GameRules`), :mod:`nardy.results`
(:class:`Action`, :class:`Result`). Every name stays importable from here.

The rules behind every option, with the sentence of the rule texts each rests on, are in
``docs/rules/games-and-matches.md``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from nardy.cube import ARITHMETIC, GEOMETRIC, CubeActions, stake
from nardy import _validate as _v
from nardy.errors import GameStateError, InvalidArgumentError, InvalidRuleError
from nardy.formats.gamestate import GameFormats
from nardy.phases import FRESH, ROLLOFF, Phase, Turns
from nardy.perft import LATE_TURN
from nardy.position import PASS, LegalMoves, Position, TurnMoves
from nardy.results import Action, Result, color_name
from nardy.rules import GameRules, _make_rules
from nardy.scoring import (
    SCORINGS,
    EncyclopediaScoring,
    FourKindScoring,
    OinMarsScoring,
    Scoring,
    ShlemScoring,
    StandardScoring,
    find_scoring,
)
from nardy.variants import Variant, as_variant

_color_name = color_name


def _carried_arg(value: Any) -> tuple[int, int] | None:
    """A game's ``carried=`` setting, ``(die, left)``: ``left`` (1..4) dice of ``die``."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2:
        raise InvalidRuleError(f"carried must be (die, left), e.g. (3, 2) for two 3s left, "
                               f"got {_v.show(value)}")
    die = _v.integer(value[0], "carried die", 1, 6, error=InvalidRuleError)
    left = _v.integer(value[1], "carried dice left", 1, 4, error=InvalidRuleError)
    return (die, left)


def _player(value: Any, name: str) -> int | None:
    if value is None or (_v.is_int(value) and int(value) in (0, 1)):
        return None if value is None else int(value)
    raise InvalidRuleError(f"{name} must be None, WHITE or BLACK (0 or 1), got {_v.show(value)}")


class Game(Turns, CubeActions, GameFormats):
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
        turn_number: int | None = None,
        carried: Sequence[int] | None = None,
        **rule_options: Any,
    ) -> None:
        # Each argument is checked for its type and range first (numpy scalars are taken as
        # the plain value), so that a bad one raises a nardy.Error naming it.
        err = InvalidRuleError
        if position is not None and not isinstance(position, Position):
            raise InvalidArgumentError(
                f"position must be a nardy.Position or None, got {_v.show(position)}")
        seed = _v.seed(seed, hi=None, text=True, none=True)
        crawford = _v.boolean(crawford, "crawford", error=err)
        starter = _player(starter, "starter")
        passes = _v.integer(passes, "passes", 0, _v.C_INT_MAX, error=err)
        cube_level = _v.integer(cube_level, "cube_level", 0, error=err)
        cube_owner = _player(cube_owner, "cube_owner")
        last_roll = _v.boolean(last_roll, "last_roll", error=err)
        turn_number = _v.integer(turn_number, "turn_number", 1, LATE_TURN, error=err, none=True)
        if turn_number is not None and position is None:
            raise InvalidRuleError("turn_number is for games started from a position (from "
                                   "the opening both players start at turn 1)")
        carried = _carried_arg(carried)
        if carried is not None and position is None:
            raise InvalidRuleError("carried is for games started from a position (dice a "
                                   "stopped cascade left the player on roll)")
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
        if turn_number is not None:
            self._setup["turn_number"] = turn_number
        if carried is not None:
            if not v.carries_dice:
                raise InvalidRuleError(f"carried: {v!r} passes no dice to the opponent (Gul "
                                       "bara does with stopped_cascade='to-opponent')")
            self._setup["carried"] = carried
        self._carried: tuple[int, int] | None = None
        self._plies = 0
        # a game from a position is taken to be past the opening turns unless told otherwise
        # (as perft does): Gul bara's doubles cascade there
        self._first_turn = (1 if position is None else
                            turn_number if turn_number is not None else
                            1 if position == Position.start(v) else LATE_TURN)

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
        if passes and not (v.counts_passes and position is not None):
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
            self._start = position
            self._position = position
            self._starter = position.turn if starter is None else starter
            # the turns are counted from the starter's: a second roller on roll here is a
            # ply behind him
            self._plies = int(self._starter != position.turn)
            self._phase = Phase.ROLL
            if not v.bears_off:
                self._check_status_end()
            else:
                w = position.winner()
                # on the last roll the starter has borne off already: the game goes on
                if w is not None and not (self._last_roll and w == self._starter):
                    self._finish_bear_off(w)
            if carried is not None and self._phase is Phase.ROLL:
                self._begin_carried(*carried)

    def _check_setup(self, cube_level: Any, cube_owner: Any, last_roll: Any,
                     position: Position | None, starter: int | None) -> None:
        # types and ranges were checked by __init__; these are the combinations
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
        if last_roll:
            if not self._rules.last_roll_draw:
                raise InvalidRuleError("last_roll needs the last_roll_draw rule")
            on_roll = None if position is None else position.turn
            if position is None or (starter if starter is not None else on_roll) == on_roll:
                raise InvalidRuleError("last_roll: a game from a position whose colour on roll "
                                       "is not the starter (the second player takes the last "
                                       "roll)")

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
        turn_number: int | None = None,
        carried: Sequence[int] | None = None,
        **rule_options: Any,
    ) -> Game:
        """A new game built by applying ``history`` (with its recorded dice) in order. Rolls
        after the end of the history draw new dice from seed 0 (pass dice to control them)."""
        g = cls(variant, rules, 0, position=position, starter=starter, crawford=crawford,
                passes=passes, cube_level=cube_level, cube_owner=cube_owner,
                last_roll=last_roll, turn_number=turn_number, carried=carried, **rule_options)
        if isinstance(history, (str, bytes)) or not isinstance(history, Iterable):
            raise InvalidArgumentError(f"history must be a sequence of nardy.Action, got "
                                       f"{_v.show(history)}")
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
        if not isinstance(action, Action):
            raise InvalidArgumentError(f"an action must be a nardy.Action, got "
                                       f"{_v.show(action)}")
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
    def carried(self) -> tuple[int, int] | None:
        """``(die, left)`` while the player on roll plays the dice the opponent's stopped
        cascade left him (``left`` dice of ``die``, then each higher double; :attr:`dice` is
        ``(die, die)``), before his own roll; else None (Gul bara with
        ``stopped_cascade="to-opponent"``, docs/rules/gul-bara.md)."""
        return self._carried

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
        """The legal moves for the current dice (empty: the player must pass). Where a turn
        can be several rolls (``variant.sequence_turns``) a :class:`TurnMoves`, listed only
        when read by index or counted: ``in``, ``bool`` and :meth:`play` with a move or its
        notation search the turn instead (a Gul bara cascade can have millions of moves)."""
        if self._phase is not Phase.MOVE:
            raise GameStateError(f"no dice to play: the game is in phase {self._phase}")
        if self._legal is None:
            if self._variant.sequence_turns:
                self._legal = TurnMoves._make(  # type: ignore[assignment]
                    self._position, self._dice, self._moves_turn,  # type: ignore[arg-type]
                    self._moves)
            else:
                self._legal = self._position.legal_moves(self._dice)  # type: ignore[arg-type]
        return self._legal  # type: ignore[return-value]

    def move_count(self) -> int:
        """How many legal moves the current dice allow (0: the player must pass), without
        building them: with :meth:`play` by index, the fast path for bots and self-play. (A
        whole turn of several rolls is listed in the core to be counted.)"""
        if self._phase is not Phase.MOVE:
            raise GameStateError(f"no dice to play: the game is in phase {self._phase}")
        return len(self._moves)

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

        state.setdefault("_plies", 0)
        state.setdefault("_first_turn", 1)
        state.setdefault("_carried", None)
        plies, carried = self._plies, self._carried

        def moves(pos: Position, dice: tuple[int, int] | None, at: int,
                  left: tuple[int, int] | None) -> Any:
            if dice is None:
                return None
            self._plies, self._carried = at, left
            return self._list_moves(pos, dice)

        # (snapshots made before carried dice were kept have one field less)
        undo = [s if len(s) == 17 else s[:-1] + (None, s[-1]) for s in self._undo]
        undo = [s[:3] + (moves(s[0], s[2], s[-1], s[-2]), None) + s[5:] for s in undo]
        self._moves = moves(self._position, self._dice, plies, carried)
        self._plies, self._carried = plies, carried
        self._undo = undo

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


__all__ = [
    "ARITHMETIC", "FRESH", "GEOMETRIC", "ROLLOFF", "SCORINGS",
    "Action", "EncyclopediaScoring", "FourKindScoring", "Game", "GameRules", "OinMarsScoring",
    "Phase", "Result", "Scoring", "ShlemScoring", "StandardScoring", "find_scoring",
]
