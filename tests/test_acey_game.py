"""Acey-deucey through the Python surface: a 1-2's moves carry their named double
(Move.named), print and parse back (notation), and a game lets the same player roll again
after a move that played all six dice; checked against the independent reference
(tests/reference/acey_deucey_ref.py) and scored as docs/rules/acey-deucey.md states."""

from __future__ import annotations

import random

import nardy
from nardy import Game, Phase
from nardy.formats import read_record, write_record
from tests.reference import acey_deucey_ref as ref

V = nardy.AceyDeucey()


def ref_pos(p: nardy.Position) -> ref.Pos:
    us, them = p.sides()
    return ref.from_core(us), ref.from_core(them)


def surface_moves(p: nardy.Position, tm) -> set:
    """(result, named, again) of every listed Move, as the reference writes them."""
    out = set()
    for i, m in enumerate(tm):
        r = nardy.Position._raw(V, tm.key(i), p.turn)
        out.add((ref_pos(r), m.named, tm.again(i)))
    return out


def test_start_1_2_moves_named_and_round_trip():
    p = nardy.Position(V)
    tm = p.turn_moves((1, 2), 1)
    assert surface_moves(p, tm) == ref.turn_moves(ref_pos(p), 1, 2)[1]
    texts = [str(m) for m in tm]
    assert len(set(texts)) == len(tm)          # every move its own notation
    for m, s in zip(tm, texts):
        assert f"({m.named}-{m.named})" in s
        back = p.parse_move(s, (1, 2), turn_number=1)
        assert back == m and back.named == m.named


def test_same_result_different_named_double_are_distinct():
    # white bears off; a 4-4 and a 5-5 both finish the same way after 15/12
    p = nardy.Position.from_text("acey-deucey W:15,3,2,1x12 B:9,5x3,4,3x2,2,1x7 w")
    tm = p.turn_moves((1, 2), 5)
    a = p.parse_move("15/12 (4-4) 12/off 3/off", (1, 2), turn_number=5)
    b = p.parse_move("15/12 (5-5) 12/off 3/off", (1, 2), turn_number=5)
    assert a != b and (a.named, b.named) == (4, 5)
    assert tm.key(tm.index_of(a)) == tm.key(tm.index_of(b))
    try:
        p.parse_move("15/12 12/off 3/off", (1, 2), turn_number=5)
    except nardy.InvalidNotationError as e:
        assert "(4-4)" in str(e) and "(5-5)" in str(e)
    else:
        raise AssertionError("an ambiguous move without its double was read")


def test_a_named_move_is_not_in_one_rolls_moves():
    # legal_moves lists the 1-2's own plays, which name nothing: the same steps naming a
    # double are a move of the whole turn (turn_moves), not of that listing
    p = nardy.Position.from_text("acey-deucey W:15,3,2,1x12 B:9,5x3,4,3x2,2,1x7 w")
    lm = p.legal_moves((1, 2))
    plain = p.parse_move("15/12", (1, 2))
    named = nardy.Move(plain.steps, named=4)
    assert plain in lm and lm.index_of(plain) >= 0
    assert named not in lm and lm.index_of(named) == -1
    listed = lm[lm.index_of(plain)]                 # a listed move, its steps never read
    assert listed in lm and nardy.Move(listed.steps, named=6) not in lm
    tm = p.turn_moves((1, 2), 5)
    whole = p.parse_move("15/12 (4-4) 12/off 3/off", (1, 2), turn_number=5)
    assert whole in tm and whole not in lm
    assert nardy.Move(whole.steps, named=3) not in tm


def _score(pos: nardy.Position, winner: int) -> int:
    """A10 from the rules page: 1, 2 with none of the loser's borne off, 3 when besides one
    of them is on the bar, still to enter or in the winner's home board."""
    loser = ref_pos(pos)[0] if pos.turn == 1 - winner else ref_pos(pos)[1]
    if loser[ref.OFF]:
        return 1
    if loser[ref.BAR] or loser[ref.RES] or any(loser[i] for i in range(18, 24)):
        return 3
    return 2


def test_random_games_to_the_end_roll_again_and_records():
    rng = random.Random(5)
    agains = 0
    for seed in range(2):
        g = Game(V, seed=seed)
        while not g.is_game_over():
            if g.phase is not Phase.MOVE:
                g.roll()
                continue
            tm = g.legal_moves()
            if not len(tm):
                g.pass_turn()
                continue
            p, d = g.position, g.dice
            if sorted(d) == [1, 2] or rng.random() < 0.02:
                assert surface_moves(p, tm) == ref.turn_moves(ref_pos(p), *d)[1]
            i = rng.randrange(len(tm))
            again = tm.again(i)
            g.play(i)
            if g.is_game_over():
                break
            assert g.turn == (p.turn if again else 1 - p.turn)
            agains += again
        r = g.result()
        assert r.value == _score(g.position, r.winner)
        for h in (Game.from_json(g.to_json()), g.replayed(),
                  read_record(write_record(g)).match.games[0]):
            assert h.history == g.history and h.position == g.position
            assert h.result() == r
    assert agains > 0
