"""The phase machine of a game: who acts, with which dice, and when it ends.

A game is always in one :class:`Phase`, the same machine for every variant::

    OPENING --roll()--> MOVE                (opening throws, ties again; under
                                             opening_roll="fresh" the starter's throw too)
    ROLL ---roll()----> MOVE                (the player on roll throws two dice)
    MOVE ---play()/pass_turn()--> ROLL | OVER
    ROLL ---double()--> DOUBLED --take()--> ROLL;  --drop()--> OVER
                        DOUBLED --beaver()--> BEAVERED --raccoon()--> RACCOONED
    ROLL | MOVE --resign()--> RESIGNED --accept()--> OVER;  --decline()--> back
    ROLL ---claim()---> OVER                (variants whose end rule lets a player claim)

``roll()`` without dice always ends in ``MOVE``. ``roll(dice)`` records exactly one throw, as
records replay them: at the opening ``(white's die, black's die)``, which under ``"fresh"``
leaves the starter in ``ROLL`` for his own ``roll(dice)`` (he may double first). So one loop
plays any variant to the end (docs/games.md)::

    while not game.is_game_over():
        if game.phase is Phase.MOVE:
            moves = game.legal_moves()
            game.play(choose(moves) if moves else PASS)
        else:
            game.roll()

:class:`GameCore` holds the state every part of :class:`nardy.Game` reads; :class:`Turns`
the opening, rolling, moving, passing, resigning and claiming.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

from nardy import _core
from nardy import _validate as _v
from nardy.errors import GameStateError, IllegalMoveError
from nardy.position import PASS, LegalMoves, Move, Position, TurnMoves, _denoted_move
from nardy.results import Action, Result, color_arg, color_name
from nardy.variants import BLACK, WHITE, Variant

if TYPE_CHECKING:
    from nardy.rules import GameRules
    from nardy.scoring import Scoring

ROLLOFF = "rolloff"
FRESH = "fresh"


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



class GameCore:
    """The state of a game, shared by its parts (turns, cube), and the bookkeeping of undo."""

    _variant: Variant
    _rules: GameRules
    _scoring: Scoring
    _crawford: bool
    _seed: Any
    _rng: random.Random
    _random: Any
    _engine: Any
    _pending_rolls: list[tuple[int, int]]
    _pending_opening: list[tuple[int, int]]
    _history: list[Action]
    _undo: list[tuple[Any, ...]]
    _sealed: bool
    _setup: dict[str, Any]
    _dice: tuple[int, int] | None
    _moves: Any                     # the core's move set for the dice
    _legal: LegalMoves | None       # the Python LegalMoves, built on demand
    _cube_level: int
    _cube_owner: int | None
    _cube_turned: bool
    _auto_done: int
    _doubled_this_turn: bool
    _resign: tuple[int, int, Phase] | None
    _last_roll: bool
    _result: Result | None
    _passes: int
    _start: Position
    _position: Position
    _phase: Phase
    _starter: int | None
    _plies: int          # turns played (moves and passes) since the starter's turn
                         # _first_turn (1 at a start position with the second roller on roll)
    _first_turn: int     # the turn number of the game's first round (the starter's turn, then
                         # the second roller's)
    _carried: tuple[int, int] | None  # (die, left): dice the opponent's stopped cascade left
                                      # the player on roll, played before his own roll

    @property
    def turn_number(self) -> int:
        """The number of the turn of the player on roll, counted for each player (1: his
        first; a passed turn counts). Gul bara's cascade depends on it. From the opening both
        players start at 1; a game from a position starts at its ``turn_number`` (the
        starter's next turn is one more when the player on roll there rolled second). A roll
        again after a move (Acey-deucey's 1-2 with its named double) is part of the same turn:
        the number does not change."""
        return self._first_turn + self._plies // 2

    @property
    def _counted_turn(self) -> int:
        """The mover's turn number as the rules read it: :attr:`turn_number`, or one ahead
        for the player who rolled second where the rules count turns over the game's rolls
        (Gul bara's ``cascade_count="game-rolls"``)."""
        return int(self._engine.turn_at(self._first_turn, self._plies))

    @property
    def _moves_turn(self) -> int:
        """The core's turn number of the dice to play: :attr:`_counted_turn`, or ``-left``
        for the dice a stopped cascade left the player on roll."""
        return -self._carried[1] if self._carried else self._counted_turn

    def _list_moves(self, pos: Position, dice: tuple[int, int]) -> Any:
        """The core's moves of the turn the dice give: the whole turn, on the mover's turn
        number, where a turn can be several rolls (``sequence_turns``)."""
        if self._variant.sequence_turns:
            return self._engine.turn_legal(pos.key, dice[0], dice[1], self._moves_turn)
        return self._engine.legal(pos.key, dice[0], dice[1])

    def _begin_carried(self, die: int, left: int) -> None:
        """The player on roll is to play ``left`` dice of ``die`` (then each higher double)
        that the opponent's stopped cascade left, before his own roll; nothing happens when
        he cannot play one of them (they are lost)."""
        moves = self._engine.turn_legal(self._position.key, die, die, -left)
        if not moves.played:
            return
        self._carried = (die, left)
        self._dice = (die, die)
        self._moves = moves
        self._legal = None
        self._phase = Phase.MOVE

    def _snapshot(self) -> tuple[Any, ...]:
        return (self._position, self._phase, self._dice, self._moves, self._legal, self._starter,
                self._cube_level, self._cube_owner, self._cube_turned, self._auto_done,
                self._doubled_this_turn, self._resign, self._last_roll, self._result,
                self._passes, self._carried, self._plies)

    def _restore(self, s: tuple[Any, ...]) -> None:
        (self._position, self._phase, self._dice, self._moves, self._legal, self._starter,
         self._cube_level, self._cube_owner, self._cube_turned, self._auto_done,
         self._doubled_this_turn, self._resign, self._last_roll, self._result,
         self._passes, self._carried, self._plies) = s

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


    # the cube's part (nardy.cube.CubeActions) answers these
    @property
    def cube_value(self) -> int:
        raise NotImplementedError

    def _adjusted(self, value: int) -> int:
        raise NotImplementedError

    def _auto_double(self) -> None:
        raise NotImplementedError

    def legal_moves(self) -> LegalMoves:
        raise NotImplementedError

    @property
    def to_act(self) -> int | None:
        raise NotImplementedError


class Turns(GameCore):
    """The opening, turns, passing, the end of the game, resignation and claims."""

    def roll(self, dice: Sequence[int] | None = None) -> None:
        """Rolls the dice, or uses ``dice`` (a pair of 1..6).

        Without dice, ``roll()`` always ends with dice to play (phase ``MOVE``): at the
        opening each player throws one die, ties are thrown again until the dice differ, and
        under ``opening_roll="fresh"`` the starter then throws his two dice; each throw is
        recorded as its own action. With dice, exactly that one throw: at the opening
        ``(white's die, black's die)`` (a tie stays in ``OPENING``; under ``"fresh"`` the
        game is then in ``ROLL`` for the starter's own throw, before which he may double);
        otherwise the two dice of the player on roll, who must then :meth:`play` or
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
            if self._phase is not Phase.ROLL:
                return
            # "fresh": the starter's first throw belongs to the opening too, so that roll()
            # leads from the opening to dice to play in every variant
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
        self._moves = self._list_moves(pos, pair)
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
            self._auto_double()
        else:
            starter = WHITE if w > b else BLACK
            self._starter = starter
            pos = self._start if starter == WHITE else self._start.pass_turn()
            self._position = pos
            if self._rules.opening_roll == ROLLOFF:
                pair = (max(w, b), min(w, b))
                self._dice = pair
                self._moves = self._list_moves(pos, pair)
                self._legal = None
                self._phase = Phase.MOVE
            else:
                self._phase = Phase.ROLL
        self._record(Action("opening", None, throw), snap)

    def play(self, move: Move | str | int) -> None:
        """Plays a legal move for the current dice: a :class:`Move`, its notation, or an
        index into :meth:`legal_moves`. :data:`nardy.PASS` passes when nothing is legal.
        Raises :class:`IllegalMoveError` for a move that is not legal."""
        self._need(Phase.MOVE)
        pos = self._position
        dice: tuple[int, int] = self._dice  # type: ignore[assignment]
        if _v.is_bool(move):
            raise IllegalMoveError(f"not a move: {move!r}")
        if _v.is_int(move):
            move = int(move)  # type: ignore[arg-type]
            moves = self._moves
            n = len(moves)
            if not 0 <= move < n:
                raise IllegalMoveError(f"move index {move} out of range: {n} legal move(s)")
            if self._legal is not None:
                mv = self._legal[move]
                key = self._legal.key(move)
            elif self._variant.names_dice:
                mv = Move(moves.steps(move), moves.named(move))
                key = moves.key(move)
            else:
                mv = Move(moves.steps(move))
                key = moves.key(move)
            rolls_again = self._variant.names_dice and bool(moves.again(move))
        else:
            legal = self.legal_moves()
            if isinstance(move, str):
                if move.strip().lower() in ("pass", "-", ""):
                    move = PASS
                else:
                    move = self._parse(move, legal)
            if not isinstance(move, Move):
                raise IllegalMoveError(f"not a move: {move!r}")
            if not move:
                if legal:
                    raise IllegalMoveError("cannot pass: a legal move exists")
                self.pass_turn()
                return
            # a whole turn's move is found without listing the turn (a cascade can have
            # millions); a roll's by its index (one roll never rolls again)
            if isinstance(legal, TurnMoves):
                found = legal._resolve(move)
            else:
                idx = legal.index_of(move)
                found = None if idx < 0 else (legal.key(idx), legal[idx], False)
            if found is None:
                raise IllegalMoveError(f"{move.notation(pos.variant, pos.turn)} is not "
                                       f"legal for {dice[0]}-{dice[1]} in {pos!r}")
            key, canonical, rolls_again = found
            # Keep the caller's steps when each is one die (their order is the record's); a
            # chain written as one step (24/13) is recorded as the canonical single-die steps.
            mv = move if pos.variant.one_die_each(move.steps, canonical.steps, dice,
                                                  self._moves_turn) \
                else canonical
        snap = self._snapshot()
        mover = pos.turn
        finished = (_core.decode(key, pos.variant.core_variant)[0][25]
                    == pos.variant.checkers)
        carried = self._carried is not None
        # dice this turn leaves the opponent (a cascade that stopped), to play before his roll
        leftover = (self._variant.carry(dice, self._moves_turn, int(self._moves.played))
                    if self._variant.carries_dice and not carried else None)
        # a move after which the same player rolls again leaves him on roll (unless it won);
        # so does the play of carried dice, which comes before his own roll
        again = self._variant.names_dice and not finished and rolls_again
        if again or carried:
            self._position = Position._raw(pos.variant, key, mover)
        else:
            self._position = Position._raw(pos.variant, _core.swap(key), 1 - mover)
        self._carried = None
        self._history.append(Action("move", mover, dice, mv))
        self._undo.append(snap)
        self._after_move(mover, finished, again=again or carried)
        if leftover is not None and self._phase is Phase.ROLL:
            self._begin_carried(*leftover)

    def pass_turn(self) -> None:
        """Passes when the dice allow no move (else :class:`IllegalMoveError`)."""
        self._need(Phase.MOVE)
        if self._can_move():
            raise IllegalMoveError("cannot pass: a legal move exists")
        snap = self._snapshot()
        mover = self._position.turn
        self._position = self._position.pass_turn()
        self._record(Action("pass", mover, self._dice), snap)
        self._after_move(mover, False, passed=True)

    def _can_move(self) -> bool:
        """Whether the dice have a legal move (a whole turn's found without listing it)."""
        moves = self._moves
        return moves.played > 0 if isinstance(moves, _core.TurnMoveSet) else len(moves) > 0

    def _parse(self, text: str, legal: Any) -> Move:
        """The legal move (of ``legal``, the current dice's) that ``text`` denotes."""
        move = _denoted_move(self._position, text, legal, self._dice or (0, 0))
        return PASS if move is None else move

    def _after_move(self, mover: int, finished: bool, passed: bool = False,
                    again: bool = False) -> None:
        if not again:
            self._plies += 1
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
        if not finished and self._variant.status_ends:
            self._phase = Phase.ROLL
            self._check_status_end()
            return
        if finished:
            if self._rules.last_roll_draw and mover == self._starter:
                self._last_roll = True
                self._phase = Phase.ROLL
                return
            self._finish_bear_off(mover)
            return
        self._phase = Phase.ROLL

    def _check_status_end(self) -> None:
        """Ends a game not decided by bearing off when the variant's status says it is over
        (the player on roll is the one about to act, ``passes`` the passed turns just before)."""
        st = self._variant.status(self._position, self._passes)
        if not st["over"]:
            return
        winner = st["winner"]
        if winner is None:
            self._end(None, st["reason"], "draw", 0)
        elif "kind" in st:  # the variant names the kind; the scoring gives its value
            self._end(winner, st["reason"], st["kind"], self._scoring.value(st["kind"]))
        else:
            kind = self._scoring.kind_of(st["value"])
            self._end(winner, st["reason"], kind, st["value"])

    def _finish_bear_off(self, winner: int) -> None:
        kind, value = self._scoring.evaluate(self._position, winner)
        self._end(winner, "bear-off", kind, value)

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
            raise GameStateError(f"{color_name(turn)} holds no blockade to claim")
        n = st["blockade"][turn]
        snap = self._snapshot()
        self._end(turn, "blockade", self._scoring.kind_of(n * n), n * n)
        self._record(Action("claim", turn), snap)

    def resign(self, level: int | str = 1, player: int | None = None) -> None:
        """``player`` (default: the player on roll) offers to resign a win of ``level`` (1..n
        or a kind name: ``single`` / ``gammon`` / ``backgammon``, ``oin`` / ``mars``...); the
        other player must :meth:`accept` or :meth:`decline`. Either player may resign while a
        turn is being rolled or played, as on FIBS and in gnubg."""
        self._need(Phase.ROLL, Phase.MOVE)
        if self._last_roll:
            raise GameStateError("no resignation on the last roll")
        by = self._position.turn if player is None else color_arg(player)
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


def _dice_pair(dice: Sequence[int]) -> tuple[int, int]:
    return _v.dice(dice)



__all__ = ["FRESH", "ROLLOFF", "Phase"]
