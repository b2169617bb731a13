"""Matches to N points with the Crawford rule, and money play (an unlimited series of games).

The match owns its games: :attr:`Match.game` is the game in progress, :meth:`Match.next_game`
starts the next one once it is over. The match score is always the sum of the finished games'
results, so it cannot drift from them. The Crawford game is created with its cube out of play:
any attempt to double in it raises :class:`~nardy.errors.CubeError` - the rule cannot be broken,
so it never has to be repaired afterwards.

Rules and their sources: ``docs/rules/games-and-matches.md``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from nardy import _validate as _v
from nardy.errors import GameStateError, InvalidRuleError
from nardy.formats.gamestate import MatchFormats
from nardy.game import Game, GameRules, _make_rules
from nardy.position import Position
from nardy.variants import BLACK, WHITE, Variant, as_variant

#: Greek tavli: its three games in the order a match plays them (docs/rules/games-and-matches.md).
TAVLI_ROTATION = ("portes", "plakoto", "fevga")

#: Options that the rule texts tie to money play only (seed 000: Jacoby and beaver in
#: moneygame; automatic doubles "при игре на деньги").
MONEY_ONLY = ("beaver", "raccoon", "jacoby", "auto_doubles")


class Match(MatchFormats):
    """A match to ``length`` points between WHITE and BLACK, or money play when ``length`` is 0.

    >>> m = Match(5, "backgammon", seed=7)
    >>> g = m.game            # the first game; play it through its own API
    >>> # ... when g.is_game_over(): m.next_game()

    ``crawford`` (default True) applies the Crawford rule in matches: the first game after a
    player comes within one point of the match is played without the cube; later games are
    post-Crawford and the cube is back. Money-play options (Jacoby, beaver, raccoon, automatic
    doubles) are refused in a match of fixed length.

    ``score`` (white's points, black's points) starts the match part-way, as a match resumed
    from a record: the games played here add to it. When a player is one point away at that
    score, the first game is the Crawford game, unless ``post_crawford=True`` says that the
    Crawford game was among the games before (then it is a post-Crawford game).

    ``variant_rotation``: the games' variants in turn (game k plays ``variant_rotation[k %
    len]``), each game scored by its own variant's scoring; ``variant`` is then the first of
    them or None. ``winner_starts``: from the second game on, the winner of the previous game
    is on roll at the start (no opening throw), as in tavli. :meth:`tavli` makes the Greek
    match: Portes, Plakoto and Fevga in turn, the winner starting, no Crawford rule.
    """

    def __init__(
        self,
        length: int,
        variant: Variant | type[Variant] | str | None = None,
        rules: GameRules | dict[str, Any] | None = None,
        seed: int | str | bytes | None = None,
        *,
        crawford: bool = True,
        score: tuple[float, float] = (0, 0),
        post_crawford: bool = False,
        variant_rotation: Sequence[Variant | type[Variant] | str] | None = None,
        winner_starts: bool = False,
        **rule_options: Any,
    ) -> None:
        length = _v.integer(length, "match length", 0, _v.C_INT_MAX, error=InvalidRuleError)
        crawford = _v.boolean(crawford, "crawford", error=InvalidRuleError)
        winner_starts = _v.boolean(winner_starts, "winner_starts", error=InvalidRuleError)
        seed = _v.seed(seed, hi=None, text=True, none=True)
        self._length = length
        self._rotation = _rotation(variant, variant_rotation)
        self._variant = self._rotation[0]
        base = _make_rules(rules, rule_options)
        # each variant of the rotation plays under the rules resolved for it (its scoring)
        self._rules_of = tuple(base.resolve(v) for v in self._rotation)
        self._rules = self._rules_of[0]
        self._winner_starts = winner_starts
        if length > 0:
            for name in MONEY_ONLY:
                if any(getattr(r, name) for r in self._rules_of):
                    raise InvalidRuleError(f"{name} is a money-play option (match length 0)")
        self._crawford_rule = bool(crawford) and length > 0
        self._start = _start_score(score, length)
        if not isinstance(post_crawford, bool):
            raise InvalidRuleError(f"post_crawford must be True or False, not {post_crawford!r}")
        if post_crawford and not (self._crawford_rule
                                  and max(self._start) == length - 1):
            raise InvalidRuleError(
                "post_crawford needs the Crawford rule and a player one point away at the "
                f"starting score, not {self._start[0]}-{self._start[1]} to {length}")
        self._post_crawford_start = post_crawford
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        self._seed = seed
        self._rng = random.Random(seed)
        self._games: list[Game] = []
        self._crawford_index: int | None = None
        self._new_game()

    # -- state ---------------------------------------------------------------------------
    @property
    def length(self) -> int:
        return self._length

    @property
    def is_money(self) -> bool:
        """Money play: games without end, no Crawford rule."""
        return self._length == 0

    @property
    def variant(self) -> Variant:
        """The current game's variant (the same for every game without a rotation)."""
        return self._games[-1].variant if self._games else self._variant

    @property
    def rules(self) -> GameRules:
        """The current game's rules (resolved for its variant)."""
        return self._games[-1].rules if self._games else self._rules

    @property
    def variant_rotation(self) -> tuple[Variant, ...]:
        """The variants the games play in turn (one variant: every game plays it)."""
        return self._rotation

    @property
    def winner_starts(self) -> bool:
        """From the second game on, the previous game's winner starts (no opening throw)."""
        return self._winner_starts

    @classmethod
    def tavli(cls, length: int = 5, seed: int | str | bytes | None = None, *,
              winner_starts: bool = True, score: tuple[float, float] = (0, 0),
              **rule_options: Any) -> Match:
        """A Greek tavli match: Portes, Plakoto and Fevga in turn until a player has
        ``length`` points (usually 3, 5 or 7), each game scored as its variant scores, no cube
        and so no Crawford rule; the winner of a game starts the next."""
        return cls(length, None, None, seed, crawford=False, score=score,
                   variant_rotation=TAVLI_ROTATION, winner_starts=winner_starts,
                   **rule_options)

    @property
    def seed(self) -> int | str | bytes:
        return self._seed

    @property
    def start_score(self) -> tuple[float, float]:
        """(white's points, black's points) before the first game of this match."""
        return self._start

    @property
    def starts_post_crawford(self) -> bool:
        """The Crawford game was played before this match's first game."""
        return self._post_crawford_start

    @property
    def crawford_rule(self) -> bool:
        """Whether the Crawford rule is in force in this match."""
        return self._crawford_rule

    @property
    def games(self) -> tuple[Game, ...]:
        return tuple(self._games)

    @property
    def game(self) -> Game:
        """The current game (possibly over; then call :meth:`next_game`)."""
        return self._games[-1]

    @property
    def score(self) -> tuple[float, float]:
        """(white's points, black's points): the starting score plus the finished games."""
        w, b = float(self._start[0]), float(self._start[1])
        for g in self._games:
            r = g.result()
            if r is not None:
                w += r.points_for(WHITE)
                b += r.points_for(BLACK)
        return _num(w), _num(b)

    def away(self, color: int) -> float:
        """Points ``color`` still needs (matches only)."""
        if self.is_money:
            raise GameStateError("money play has no match length")
        return _num(max(0.0, self._length - self.score[color]))

    @property
    def is_crawford(self) -> bool:
        """The current game is the Crawford game."""
        return self.game.crawford

    @property
    def crawford_game(self) -> int | None:
        """Index in :attr:`games` of the Crawford game, once it has begun."""
        return self._crawford_index

    @property
    def is_post_crawford(self) -> bool:
        """The current game comes after the Crawford game."""
        if self._post_crawford_start:
            return True
        return self._crawford_index is not None and len(self._games) - 1 > self._crawford_index

    def is_over(self) -> bool:
        """A player has reached the match length (never in money play)."""
        if self.is_money:
            return False
        return max(self.score) >= self._length

    def winner(self) -> int | None:
        if not self.is_over():
            return None
        return WHITE if self.score[WHITE] >= self._length else BLACK

    # -- games -------------------------------------------------------------------------
    def next_game(self) -> Game:
        """Starts the next game once the current one is over (the finished game becomes
        final: it can no longer be undone)."""
        if not self.game.is_game_over():
            raise GameStateError("the current game is not over")
        if self.is_over():
            raise GameStateError("the match is over")
        self.game._sealed = True
        return self._new_game()

    def _new_game(self) -> Game:
        crawford = False
        if (self._crawford_rule and self._crawford_index is None
                and not self._post_crawford_start
                and any(self._length - 1 <= s < self._length for s in self.score)):
            crawford = True
            self._crawford_index = len(self._games)
        k = len(self._games) % len(self._rotation)
        v, rules = self._rotation[k], self._rules_of[k]
        seed = self._rng.getrandbits(63)
        winner = self._games[-1].winner() if self._games else None
        if self._winner_starts and winner is not None:
            start = Position.start(v)
            if winner != start.turn:
                start = Position.from_colors(v, start.side(WHITE), start.side(BLACK), winner)
            g = Game(v, rules, seed, position=start, crawford=crawford)
        else:
            g = Game(v, rules, seed, crawford=crawford)
        self._games.append(g)
        return g

    def _adopt_first_game(self, game: Game) -> None:
        """Puts a game made from a recorded state (see :mod:`nardy.formats.gamestate`) in
        place of the fresh first game, under the same rules and Crawford status."""
        if len(self._games) != 1 or self._games[0].history:
            raise GameStateError("only a match's untouched first game can be replaced")
        if game.variant != self._variant or game.rules != self._rules_of[0]:
            raise InvalidRuleError("the game's variant or rules are not the match's")
        if game.crawford != self._games[0].crawford:
            raise InvalidRuleError("the match makes this game " + (
                "the" if self._games[0].crawford else "not the") + " Crawford game")
        self._games[0] = game

    def __getstate__(self) -> dict[str, Any]:
        """For pickle and copy: ``copy.copy`` gives a match independent of this one (its games
        and dice generator are copied too)."""
        state = self.__dict__.copy()
        state["_games"] = [copy.copy(g) for g in self._games]
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        state["_rng"] = rng
        return state

    def _repr_svg_(self) -> str:
        from nardy.svg import board

        return board(self, size=400)

    def __repr__(self) -> str:
        w, b = self.score
        what = "money" if self.is_money else f"to {self._length}"
        flag = " crawford" if self.is_crawford else (" post-crawford" if self.is_post_crawford else "")
        name = "/".join(v.name for v in self._rotation)
        return f"<Match {name} {what}: {w}-{b}, game {len(self._games)}{flag}>"


def _rotation(variant: Any, rotation: Any) -> tuple[Variant, ...]:
    if rotation is None:
        return (as_variant(variant),)
    if isinstance(rotation, (str, bytes)) or not isinstance(rotation, Sequence) or not rotation:
        raise InvalidRuleError(f"variant_rotation must be a non-empty sequence of variants, "
                               f"not {_v.show(rotation)}")
    out = tuple(as_variant(v) for v in rotation)
    if variant is not None and as_variant(variant) != out[0]:
        raise InvalidRuleError(f"variant {as_variant(variant).name} is not the rotation's "
                               f"first, {out[0].name}: give one of them")
    return out


def _start_score(score: Any, length: int) -> tuple[float, float]:
    """A starting score: two numbers >= 0 (halves allowed, as draws give), below the length
    in a match (a match already won cannot be started)."""
    if not isinstance(score, (tuple, list)) or len(score) != 2:
        raise InvalidRuleError(f"score must be (white's points, black's points), not {score!r}")
    out = []
    for x in score:
        if (isinstance(x, bool) or not isinstance(x, (int, float)) or not x >= 0
                or x == float("inf") or not float(2 * x).is_integer()):
            raise InvalidRuleError(f"a score must be a whole or half number >= 0, not {x!r}")
        if length and x >= length:
            raise InvalidRuleError(f"the score {score[0]}-{score[1]} has already won a "
                                   f"{length}-point match")
        out.append(_num(x))
    return out[0], out[1]


def _num(x: float) -> float:
    return int(x) if float(x).is_integer() else x


__all__ = ["MONEY_ONLY", "TAVLI_ROTATION", "Match"]
