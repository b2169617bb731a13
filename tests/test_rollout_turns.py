"""Callable and evaluator rollout policies in variants whose turn can be several rolls: the
lockstep games offer whole turns (Acey-deucey's 1-2 and the double named after it), and Gul
bara, whose doubles cascade can have tens of millions of moves, is refused. Each trial is
checked against a replay in Python written from the documented game loop (nardy/rollout.py,
"Policies"): the dice streams, the mover's turn number, the whole turn's moves, a move after
which the same player rolls again, and the dice a stopped cascade leaves the opponent, played
before his roll (the core's lockstep, on a position where the cascades stay small)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import nardy
from nardy import _core, batch
from nardy.formats.text import from_text
from nardy.search import _Search
from tests.test_gul_bara_carried import STOPS
from tests.test_rollout import GOLDEN, MASK64, _draw, _finalise

MAX_PLIES = 400
WEIGHTS = np.random.default_rng(7).integers(-1000, 1000, size=(2, 26))
ACEY = nardy.AceyDeucey()
LATE = 1 << 20  # the mover's turn number in a rollout from any position but the start

Chooser = Callable[[np.ndarray, np.ndarray], int]


def linear(cand: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """A deterministic callable policy: a fixed linear score of each candidate board."""
    return np.tensordot(cand.astype(np.int64), WEIGHTS, axes=([1, 2], [0, 1])).astype(float)


def _first_best(scores: np.ndarray) -> int:
    return int(np.flatnonzero(scores == scores.max())[0])


def _linear_choice(rows: np.ndarray, cont: np.ndarray) -> int:
    return _first_best(linear(rows, np.array([0, len(rows)])))


def _rows(keys: list[bytes], variant: nardy.Variant) -> np.ndarray:
    raw = np.frombuffer(b"".join(keys), dtype=np.uint8).reshape(len(keys), -1)
    return np.asarray(batch.keys_to_boards(raw, variant))


def replay(variant: nardy.Variant, seed: int, trial: int, choose: Chooser,
           max_plies: int = MAX_PLIES, start: bytes | None = None) -> tuple[int | None, int]:
    """(winner, plies) of one trial: 0 is the player on roll at the start. ``choose(rows,
    continues)`` picks among two or more candidates (rows unswapped, the mover on side 0).
    ``start``: a position's key (its mover past the opening turns), else the start."""
    engine = variant.engine
    key = _finalise(seed ^ _finalise((trial + GOLDEN) & MASK64))
    pos = nardy.Position(variant).key if start is None else start
    first_turn = 1 if start is None else LATE
    on_roll, carried = 0, None

    def winner() -> int | None:
        us, them = _core.decode(pos, variant.core_variant)
        return on_roll if us[25] == 15 else 1 - on_roll if them[25] == 15 else None

    def pick(moves: _core.TurnMoveSet, stays: bool | None) -> int:
        if len(moves) == 1:
            return 0
        keys = moves.keys()
        cont = np.array([stays if stays is not None else moves.again(i)
                         for i in range(len(keys))])
        return choose(_rows(keys, variant), cont)

    for ply in range(max_plies):
        if winner() is not None:
            return winner(), ply
        if carried is not None:
            moves = engine.turn_legal(pos, carried[0], carried[0], -carried[1])
            carried = None
            if len(moves):
                pos = moves.key(pick(moves, True))
                if winner() is not None:
                    return winner(), ply
        q = ((_draw(key, 2 * ply) >> 32) * 36) >> 32
        d1, d2 = q // 6 + 1, q % 6 + 1
        turn = engine.turn_at(first_turn, ply)
        moves = engine.turn_legal(pos, d1, d2, turn)
        if not len(moves):
            pos = _core.swap(pos)
            on_roll ^= 1
            continue
        i = pick(moves, None)
        if moves.again(i):
            pos = moves.key(i)
            continue
        pos = _core.swap(moves.key(i))
        carried = variant.carry((d1, d2), turn, moves.played)
        on_roll ^= 1
    return winner(), max_plies


def _outcome(counts: dict | nardy.RolloutResult) -> tuple[int | None, int]:
    wins = counts["wins"] if isinstance(counts, dict) else counts.wins
    games = counts["games"] if isinstance(counts, dict) else counts.games
    plies = counts["plies"] if isinstance(counts, dict) else counts.plies
    assert games == 1
    won = [sum(w) for w in wins]
    return (0 if won[0] else 1 if won[1] else None), plies


def test_callable_policy_plays_whole_turns():
    """A callable's rollouts, trial by trial, against the replay: the same winner and length.
    A game loop that offered one roll's moves, or passed the roll after a 1-2, would part
    from it; the replay meets moves followed by another roll (else it would prove little)."""
    seen = []

    def spy(rows: np.ndarray, cont: np.ndarray) -> int:
        seen.append(bool(cont.any()))
        return _linear_choice(rows, cont)

    finished = 0
    for trial in range(6):
        r = nardy.rollout(ACEY, 1, linear, seed=3, first_trial=trial, max_plies=MAX_PLIES)
        outcome = _outcome(r)
        assert outcome == replay(ACEY, 3, trial, spy), trial
        finished += outcome[0] is not None
    assert any(seen) and finished == 6


def test_evaluator_policy_values_continuing_moves_from_the_mover():
    """An evaluator at 0 plies takes the best whole-turn move, valuing a move that leaves the
    mover on roll as a position he is on roll in (the others from the opponent's view,
    inverted)."""
    search = _Search(ACEY, "race", None, 1 << 16, 1)

    def choose(rows: np.ndarray, cont: np.ndarray) -> int:
        values = search._empty(len(rows))
        if (~cont).any():
            values[~cont] = search.after_static(np.ascontiguousarray(rows[~cont]))
        if cont.any():
            values[cont] = search.static(np.ascontiguousarray(rows[cont]))
        return _first_best(search.equities(values))

    for trial in (2, 3):  # (seed 5's games that the race evaluator finishes in 1,000 plies)
        r = nardy.rollout(ACEY, 1, "race", seed=5, first_trial=trial, max_plies=1000)
        outcome = _outcome(r)
        assert outcome == replay(ACEY, 5, trial, choose, max_plies=1000), trial
        assert outcome[0] is not None  # a finished game: unfinished ones all look alike


# Seed 0's trials whose first roll is 3-3 and second a non-double: from STOPS White's cascade
# stops with one 3 left, and Black plays it (then 4-4, 5-5, 6-6) before his own roll.
CARRIED_TRIALS = (26, 69, 74)


def test_lockstep_offers_the_carried_dice_as_a_decision():
    """The core's lockstep (which Gul bara's rollouts do not reach from Python) plays the dice
    a stopped cascade leaves as a decision of the opponent's before his roll, each candidate
    marked as leaving him on roll, and then his own roll: as the replay does."""
    state = from_text(STOPS)
    variant, key = state.position.variant, state.position.key
    game = state.to_game(seed=1)
    game.roll((3, 3))
    game.play("11/2")  # White's one move
    want = set(game.position.carried_moves(3, 1).keys())
    assert len(want) >= 2
    for index in (0, -1):
        for trial in CARRIED_TRIALS:
            lock = _core.LockstepRollout(variant.engine, key, 1, 0, trial, 2, 1)
            assert lock.advance() == 1
            cand, cont = lock.candidates(), lock.continues()
            assert cont.all()
            assert {p.key for p in batch.from_array(cand, variant, swap=False)} == want
            assert lock.dice().tolist() == [[3, 3]]
            choice = index % len(cand)
            lock.choose(np.array([choice], dtype=np.int64))
            while lock.advance():
                lock.choose(np.zeros(len(lock.offsets()) - 1, dtype=np.int64))
            chosen = [False]

            def first_then_zero(rows: np.ndarray, cont: np.ndarray) -> int:
                if not chosen[0]:
                    chosen[0] = True
                    assert cont.all()
                    return choice
                return 0

            assert _outcome(lock.counts()) == replay(variant, 0, trial, first_then_zero,
                                                     max_plies=2, start=key), trial
            assert chosen[0]


def test_lockstep_encodes_continuing_candidates_with_their_mover_on_roll():
    lock = _core.LockstepRollout(ACEY.engine, nardy.Position(ACEY).key, 20, 11, 0,
                                 MAX_PLIES, 20)
    marked = 0
    while lock.advance():
        cand, cont = lock.candidates(), lock.continues()
        assert cont.shape == (len(cand),) and cont.dtype == np.bool_
        marked += int(cont.sum())
        rows = batch._boards(cand, ACEY, 0)  # (the rows hold Acey-deucey's reserves)
        want = batch.encode(rows, "tdgammon", on_roll=np.where(cont, 0, 1))
        np.testing.assert_array_equal(lock.features("tdgammon"), want)
        lock.choose(np.zeros(len(lock.offsets()) - 1, dtype=np.int64))
    assert marked > 0


def test_gul_bara_refuses_callable_and_evaluator_policies():
    for variant in (nardy.GulBara(), nardy.GulBara(stopped_cascade="to-opponent")):
        assert not variant.listable_turns
        for policy in (linear, "race", (linear, "race")):
            with pytest.raises(nardy.Error, match="random"):
                nardy.rollout(variant, 2, policy)
        assert nardy.rollout(variant, 2, "greedy").games == 2


def test_acey_deucey_refuses_what_the_search_cannot_value():
    with pytest.raises(nardy.Error, match="plies=0"):
        nardy.rollout(ACEY, 2, "race", plies=1)
    with pytest.raises(nardy.Error, match="plies=0"):
        nardy.rollout(ACEY, 2, ("race", linear), plies=(1, 0))
    with pytest.raises(nardy.Error, match="variance_reduction"):
        nardy.rollout(ACEY, 2, "race", variance_reduction=True)


def test_whole_turn_rollouts_merge_and_stop_on_cancel():
    """Split runs merge to the serial run, and a cancelled token stops the lockstep."""
    whole = nardy.rollout(ACEY, 6, linear, seed=2, max_plies=MAX_PLIES)
    parts = nardy.rollout(ACEY, 2, linear, seed=2, max_plies=MAX_PLIES).merge(
        nardy.rollout(ACEY, 4, linear, seed=2, first_trial=2, max_plies=MAX_PLIES))
    assert whole == parts
    token = _core.CancelToken()
    token.cancel()
    with pytest.raises(KeyboardInterrupt):
        nardy.rollout(ACEY, 6, linear, seed=2, cancel=token)
