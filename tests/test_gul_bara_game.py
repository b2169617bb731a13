"""Gul bara through the Python layer: nardy.Game counts each player's turns and plays the
doubles cascade (a turn of more than four steps), Move and notation carry such turns, and a
game round-trips through undo, pickling and JSON. Checked against the pure-Python reference
(tests/reference/gul_bara_ref.py), which shares no code with nardy."""

from __future__ import annotations

import pickle
import random

import pytest

import nardy
from nardy import _core
from nardy.perft import LATE_TURN
from tests.reference import gul_bara_ref as ref

V = nardy.GulBara()


def ref_pos(p: nardy.Position) -> ref.Pos:
    us, them = p.sides()
    return (tuple(us), tuple(them))


def ref_results(p: nardy.Position, dice: tuple[int, int], turn: int) -> tuple[int, set]:
    return ref.turn_moves(ref_pos(p), ref.cascade(dice[0], dice[1], turn))


def core_results(moves) -> set:
    return {tuple(tuple(s) for s in _core.decode(k, V.core_variant)) for k in moves.keys()}


def small_cascade_game(seed: int) -> nardy.Game:
    """A game from the opening, played at random to a late turn with dice chosen so that
    the doubles cascade stays small (no 1-1 or 2-2 while fifteen checkers are near the start,
    where a cascade lists millions of moves)."""
    g = nardy.Game(V, seed=seed)
    rng = random.Random(seed)
    g.roll()
    while not g.is_game_over():
        if g.phase is nardy.Phase.MOVE:
            moves = g.legal_moves()
            g.play(rng.randrange(len(moves)) if moves else nardy.PASS)
        else:
            d = (rng.randint(1, 6), rng.randint(1, 6))
            if d[0] == d[1] and d[0] < 4:
                d = (d[0], d[0] % 6 + 1)
            g.roll(d)
    return g


def test_the_game_counts_each_players_turns():
    g = nardy.Game(V, seed=3)
    g.roll((5, 3))  # the opening throw: white starts, and throws both dice anew (G11)
    g.roll((4, 3))
    assert g.turn_number == 1
    g.play(0)
    assert g.turn_number == 1  # black's first turn
    g.roll((2, 1))
    g.play(0)
    assert g.turn_number == 2
    g.roll((6, 6))  # turn 2: a double is played plainly
    assert all(len(m.steps) == 4 for m in g.legal_moves())
    g.play(0)
    g.roll((1, 2))
    g.play(0)
    assert g.turn_number == 3
    g.roll((5, 5))  # turn 3: 5-5 and then 6-6
    moves = g.legal_moves()
    assert isinstance(moves, nardy.TurnMoves) and moves.played == 8
    played, want = ref_results(g.position, (5, 5), 3)
    assert played == 8 and core_results(moves) == want
    m = moves[0]
    assert len(m.steps) == 8 and m in moves
    before = g.position
    g.play(m)
    assert g.history[-1].move == m
    # the cascade's result, with the opponent on roll
    assert g.position == before.play(m, (5, 5), turn_number=3)
    g.undo()
    assert g.position == before and g.turn_number == 3 and len(g.legal_moves()) == len(moves)


def test_cascade_turns_equal_the_reference_along_games():
    checked = cascades = 0
    for seed in range(2):
        g = small_cascade_game(seed)
        replay = nardy.Game(V, seed=seed)
        for action in g.history:
            if action.kind == "roll" and replay.phase is nardy.Phase.ROLL:
                replay.roll(action.dice)
                d = action.dice
                moves = replay.legal_moves()
                played, want = ref_results(replay.position, d, replay.turn_number)
                assert played == (moves.played if len(moves) else 0)
                assert core_results(moves) == want, (replay.position, d, replay.turn_number)
                checked += 1
                cascades += played > 4
            else:
                replay.apply(action)
        assert replay.position == g.position and replay.result() == g.result()
    assert checked > 60 and cascades >= 3


@pytest.mark.parametrize("seed", range(6))
def test_games_end_with_gul_baras_scoring(seed):
    g = small_cascade_game(seed)
    r = g.result()
    assert r is not None and r.reason == "bear-off"
    winner_side = g.position.side(r.winner)
    loser_side = g.position.side(1 - r.winner)
    assert winner_side[25] == 15 and loser_side[25] < 15
    # docs/rules/gul-bara.md G12: 2 when the loser has borne off none, else 1
    want = ("double", 2) if loser_side[25] == 0 else ("single", 1)
    assert (r.kind, r.value) == want
    # and the turn numbers went past the cascade's start
    assert g.turn_number > 3


def test_a_game_round_trips_through_replay_pickle_copy_and_json():
    g = small_cascade_game(1)
    long_moves = [a.move for a in g.history if a.kind == "move" and len(a.move.steps) > 4]
    assert long_moves
    for other in (g.replayed(), pickle.loads(pickle.dumps(g)),
                  nardy.formats.from_json(nardy.formats.to_json(g))):
        assert other.position == g.position and other.history == g.history
        assert other.result() == g.result()


def test_a_game_from_a_position_takes_a_turn_number():
    pos = [p for p, turn in _positions_of(small_cascade_game(2)) if turn == 6][0]
    late = nardy.Game(V, position=pos, seed=0)  # any position: past the opening turns
    late.roll((5, 5))
    assert late.legal_moves().played == 8
    early = nardy.Game(V, position=pos, seed=0, turn_number=2)
    early.roll((5, 5))
    assert early.legal_moves().played == 4
    assert early.setup["turn_number"] == 2
    again = nardy.formats.from_json(nardy.formats.to_json(early))
    assert again.turn_number == 2 and len(again.legal_moves()) == len(early.legal_moves())
    for bad in (0, -1, 1.5, "3", True):
        with pytest.raises(nardy.Error):
            nardy.Game(V, position=pos, turn_number=bad)
    with pytest.raises(nardy.Error):
        nardy.Game(V, turn_number=3)  # from the opening the turn number is 1


def test_position_turn_moves_and_other_variants():
    p = nardy.Position(V)
    assert len(p.turn_moves((5, 5), 1)) == len(p.legal_moves((5, 5)))
    assert p.turn_moves((5, 5), 3).played == 8
    ln = nardy.Position("long nardy")
    assert ln.turn_moves((5, 5), 3) == ln.legal_moves((5, 5))  # no sequences: the same
    for bad in (0, None, 2.0, "1"):
        with pytest.raises(nardy.Error):
            p.turn_moves((5, 5), bad)


def test_moves_of_more_than_four_steps():
    steps = [(23, 18)] * 4 + [(18, 12)] * 4
    m = nardy.Move(steps)
    assert len(m.steps) == 8
    assert nardy.Move([(23, 22)] * 24).steps == ((23, 22, False),) * 24
    with pytest.raises(nardy.InvalidNotationError):
        nardy.Move([(23, 22)] * 25)
    with pytest.raises(nardy.InvalidNotationError):
        nardy.Move.from_notation("24/23(25)")
    assert nardy.Move.from_notation("24/23(8)") == nardy.Move([(23, 22)] * 8)


def _positions_of(g: nardy.Game):
    replay = nardy.Game(V, seed=g.seed)
    for action in g.history:
        if action.kind == "roll" and replay.turn_number >= 3:
            yield replay.position, replay.turn_number
        replay.apply(action)


@pytest.mark.parametrize("seed", range(3))
def test_cascade_moves_round_trip_through_their_text(seed):
    # property: every listed move of a cascade prints in the position's notation and that
    # text denotes the same move (by where it leads) on the same turn, for both colours
    rng = random.Random(seed)
    checked = longer = 0
    seen = set()
    for pos, turn in _positions_of(small_cascade_game(seed)):
        # (a 3-3 or lower early in a game cascades over millions of moves)
        d = rng.randint(4, 6)
        moves = pos.turn_moves((d, d), turn)
        k = 30 if len(moves) < 1000 else 4  # each parse lists the turn again
        sample = list(moves) if len(moves) <= k else [moves[i] for i in
                                                         rng.sample(range(len(moves)), k)]
        for m in sample:
            text = str(m)
            back = pos.parse_move(text, (d, d), turn_number=turn)
            assert moves.index_of(back) == moves.index_of(m) >= 0, (pos, d, text)
            assert pos.play(text, (d, d), turn_number=turn) == pos.play(m, (d, d),
                                                                        turn_number=turn)
            checked += 1
            seen.add(pos.turn)
            longer += len(m.steps) > 4
    assert checked > 200 and longer > 50 and seen == {0, 1}


def _side(points: dict[int, int]) -> list[int]:
    s = [0] * 26
    for i, n in points.items():
        s[i] = n
    s[25] = 15 - sum(points.values())
    return s


def ref_divide(pos: ref.Pos, depth: int, first_turn: int) -> list[tuple[tuple[int, int], int]]:
    # the 21 rolls in nardy.divide's order; below the first roll the reference's own perft
    out = []
    for a in range(1, 7):
        for b in range(a, 7):
            _, results = ref.turn_moves(pos, ref.cascade(b, a, first_turn))
            n = sum(ref.perft(ref.swapped(r), depth - 1, first_turn, 1)
                    for r in (results or {pos}))
            out.append(((b, a), n))
    return out


@pytest.mark.parametrize("first_turn", [1, 2, LATE_TURN])
def test_divide_counts_turn_numbers_as_the_reference_does(first_turn):
    # a small race: the doubles cascade from turn 3 changes the counts of the deeper plies
    # (first_turn 2: the third ply is the root player's turn 3)
    p = nardy.Position.from_sides(V, _side({2: 1, 7: 1}), _side({3: 1, 8: 1}))
    got = nardy.divide(p, 3, first_turn=first_turn)
    assert got == ref_divide(ref_pos(p), 3, first_turn)
    assert sum(n for _, n in got) == nardy.perft(p, 3, first_turn=first_turn)


def test_divide_from_the_start_is_the_suites_perft():
    start = nardy.Position(V)
    assert sum(n for _, n in nardy.divide(start, 2)) == 2768  # tests/perft/gul-bara.perft
    # on turn 3 a 5-5 from the start goes on with 6-6: the results differ from turn 1's
    late = dict(nardy.divide(start, 1, first_turn=3))
    early = dict(nardy.divide(start, 1))
    assert late[(5, 5)] == len(ref.turn_moves(ref.start(), [(5, 5), (6, 6)])[1])
    assert early[(5, 5)] == len(ref.turn_moves(ref.start(), [(5, 5)])[1])
