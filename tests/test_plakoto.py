"""Plakoto against its independent pure-Python reference (tests/reference/plakoto_ref.py,
written from docs/rules/plakoto.md, no code shared with the core) on random reachable
positions x all 21 rolls under both values of the rule option, and every rule of the rules
page as a test on a constructed position. NARDY_SLOW=1 checks 5,000 positions a rule set
instead of 500."""

from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest

import nardy
from nardy import _core, svg, textboard
from nardy.formats import jsonform

try:
    from tests.reference import plakoto_ref as P
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import plakoto_ref as P  # type: ignore[no-redef]

SLOW = os.environ.get("NARDY_SLOW") == "1"
N_POSITIONS = 5000 if SLOW else 500
OPTIONS = ("blocked", "allowed")
PLAKOTO = nardy.Plakoto()


def side(points: dict[int, int]) -> tuple[int, ...]:
    s = [0] * 26
    for i, n in points.items():
        s[i] = n
    return tuple(s)


def core_results(v, mover, opponent, dice):
    moves = v.engine.legal(_core.encode(mover, opponent, v.core_variant), *dice)
    return [tuple(map(tuple, _core.decode(k, v.core_variant))) for k in moves.keys()]


def ref_results(mover, opponent, dice, option="blocked"):
    res = P.legal_results(mover, opponent, dice, option)
    return set() if res == {(tuple(mover), tuple(opponent))} else res


@pytest.fixture(scope="module", params=OPTIONS)
def rule_set(request):
    option = request.param
    n_race = N_POSITIONS // 3
    positions = P.random_positions(N_POSITIONS - n_race, seed=2026122, pinned_bear_off=option)
    positions += P.random_positions(n_race, seed=2026123, pinned_bear_off=option, greedy=0.7)
    return option, positions


# -- the core against the reference ---------------------------------------------------------
def test_core_vs_reference_all_rolls(rule_set):
    option, positions = rule_set
    v = nardy.Plakoto(pinned_bear_off=option)
    assert len(positions) >= N_POSITIONS
    assert all(P.is_valid(m, o) for m, o in positions)
    # the sample covers pins, pins in the home board, bear-offs and a pinned mother (waived)
    assert sum(1 for m, o in positions if -1 in m[:24] or -1 in o[:24]) > len(positions) // 4
    assert any(-1 in m[:6] for m, _ in positions)
    assert any(m[25] > 0 for m, _ in positions)
    assert any(m[23] == -1 or o[23] == -1 for m, o in positions)
    failures = []
    for mover, opponent in positions:
        key = _core.encode(mover, opponent, v.core_variant)
        for dice in P.ALL_ROLLS:
            got = core_results(v, mover, opponent, dice)
            want = ref_results(mover, opponent, dice, option)
            ctx = f"mover={mover} opponent={opponent} dice={dice}"
            if len(set(got)) != len(got):
                failures.append(f"{ctx}: a result listed twice")
            if set(got) != want:
                failures.append(f"{ctx}: core only {sorted(set(got) - want)[:3]}, "
                                f"reference only {sorted(want - set(got))[:3]}")
            if v.engine.count(key, *dice) != len(got):
                failures.append(f"{ctx}: count() differs from the list")
            if got:
                i = (len(got) * 7 + 3) % len(got)
                n, picked = v.engine.pick(key, *dice, i)
                if n != len(got) or tuple(map(tuple, _core.decode(picked, v.core_variant))) != got[i]:
                    failures.append(f"{ctx}: pick({i}) is not the listed move {i}")
        if len(failures) >= 10:
            break
    assert not failures, "\n".join(failures)


def test_game_end_agrees_with_the_reference(rule_set):
    _, positions = rule_set
    for mover, opponent in positions[:2000]:
        assert PLAKOTO.engine.game_end(_core.encode(mover, opponent, PLAKOTO.core_variant)) is None
        assert not P.finished(mover, opponent)


def test_reference_perft_from_the_start():
    pos = nardy.Position(PLAKOTO)
    for depth, nodes in ((1, 59), (2, 3474)):
        assert P.perft(P.initial(), depth) == nodes == nardy.perft(pos, depth)


# -- the rules, one by one (docs/rules/plakoto.md) ------------------------------------------
def test_r1_setup_fifteen_on_the_24_point():
    assert PLAKOTO.initial_side() == side({23: 15})
    info = _core.variant_info(PLAKOTO.core_variant)
    assert tuple(info["start"]) == side({23: 15}) and info["checkers"] == 15
    assert not info["has_bar"]
    assert int(_core.Variant.PLAKOTO) == 7
    assert nardy.find_variant("Plakoto") is nardy.Plakoto
    assert nardy.find_variant("πλακωτό") is nardy.Plakoto


def _after(mover, opponent, dice, option="blocked"):
    got = set(core_results(nardy.Plakoto(pinned_bear_off=option), mover, opponent, dice))
    assert got == ref_results(mover, opponent, dice, option)
    return got


def test_r2_two_opponent_checkers_close_a_point():
    # mover on its 10-point (index 9) with 2-1; opponent holds mover index 8 (its index 15)
    # with two checkers: the 1 cannot land there, the 2 can go to index 7, then the 1 to 6
    mover = side({9: 1, 23: 14})
    opponent = side({15: 2, 23: 13})
    got = _after(mover, opponent, (2, 1))
    assert all(m[8] == 0 for m, _ in got)
    assert any(m[6] == 1 for m, _ in got)


def test_r3_landing_on_a_single_checker_pins_it_and_no_checker_is_hit():
    mover = side({9: 1, 23: 14})
    opponent = side({15: 1, 23: 14})  # a single opponent checker on mover index 8
    got = _after(mover, opponent, (1, 6))
    pinned = [(m, o) for m, o in got if o[15] == -1]
    assert pinned and all(m[8] == 1 for m, _ in pinned)
    assert all(o[24] == 0 and sum(abs(x) for x in o) == 15 for _, o in got)  # no bar, no hit
    pos = nardy.Position.from_sides(PLAKOTO, *pinned[0])
    assert pos.side(0)[15] == -1 or pos.side(1)[15] == -1


def test_r3_a_pinned_checker_cannot_move_and_its_point_is_closed():
    # the mover's checker on index 8 is pinned by an opponent checker (opponent index 15)
    mover = side({8: -1, 23: 14})
    opponent = side({15: 1, 23: 14})
    for dice in P.ALL_ROLLS:
        for m, _ in _after(mover, opponent, dice):
            assert m[8] == -1  # it never moves
    # and the mover cannot land there: from index 10 a 2 is refused
    mover2 = side({8: -1, 10: 1, 23: 13})
    got = _after(mover2, opponent, (2, 2))
    assert got and all(m[8] == -1 for m, _ in got)
    assert not any(m[10] == 0 and m[6] + m[4] + m[2] + m[0] == 1 and m[23] == 13 for m, _ in got)


def test_r3_more_checkers_may_join_the_pinner_and_the_pin_lasts_until_all_leave():
    # the mover pins an opponent checker on index 8 with one checker; a second joins with 2
    mover = side({8: 1, 10: 1, 23: 13})
    opponent = side({15: -1, 23: 14})
    got = _after(mover, opponent, (2, 5))
    assert any(m[8] == 2 and o[15] == -1 for m, o in got)
    # one of two pinners leaves: still pinned; both leave (3-3: 8->5->2, 8->5->2): free
    mover2 = side({8: 2, 23: 13})
    got = _after(mover2, opponent, (3, 3))
    assert any(m[8] == 1 and o[15] == -1 for m, o in got)
    assert any(m[8] == 0 and o[15] == 1 for m, o in got)
    assert all((o[15] == -1) == (m[8] > 0) for m, o in got)


def test_r3_a_released_checker_can_be_pinned_again_in_the_same_move():
    # the single pinner on index 8 leaves with a 2 (to 6) and a checker from 11 lands on 8
    # with the 3: the opponent checker is pinned again
    mover = side({8: 1, 11: 1, 23: 13})
    opponent = side({15: -1, 23: 14})
    got = _after(mover, opponent, (3, 2))
    assert (side({6: 1, 8: 1, 23: 13}), opponent) in got


def test_r5_bearing_off_needs_every_checker_home():
    mover = side({0: 3, 3: 4, 5: 7, 6: 1})
    opponent = side({23: 15})
    got = _after(mover, opponent, (6, 1))
    # the 1 brings the last one home, then the 6 bears off from the 6-point
    assert any(m[25] == 1 for m, _ in got)
    # 3-2 from outside: the 3 brings it home, the 2 has no checker on the 2-point and a
    # checker stands higher: no bear-off
    got = _after(side({6: 1, 5: 14}), opponent, (3, 2))
    assert got and all(m[25] == 0 for m, _ in got)


def test_r5_a_pinned_checker_in_the_home_board_blocks_bearing_off_by_default():
    # the mover's checker on index 2 is pinned by an opponent checker (opponent index 21)
    mover = side({2: -1, 4: 14})
    opponent = side({21: 1, 23: 14})
    blocked = _after(mover, opponent, (5, 6), "blocked")
    assert blocked == set() or all(m[25] == 0 for m, _ in blocked)
    allowed = _after(mover, opponent, (5, 6), "allowed")
    assert any(m[25] == 2 for m, _ in allowed)
    # with a higher pinned checker a larger die may not bear off a lower one (allowed)
    mover2 = side({5: -1, 1: 14})
    opponent2 = side({18: 1, 23: 14})
    got = _after(mover2, opponent2, (6, 6), "allowed")
    assert got == set()  # the 5-point checker is pinned; no 6 bears off from the 2-point
    got = _after(mover2, opponent2, (2, 1), "allowed")
    assert any(m[25] == 1 for m, _ in got)  # exact bear-offs from the 2-point


def test_r6_the_larger_die_when_only_one_can_be_played():
    # one checker outside (index 12), the rest on the 1-point; the opponent holds index 1
    # (its index 22): 6 or 5 may be played, not both, so the 6 is played
    mover = side({12: 1, 0: 14})
    opponent = side({22: 2, 20: 13})
    assert _after(mover, opponent, (6, 5)) == {(side({6: 1, 0: 14}), opponent)}
    # both dice when possible: with the 1-point open the checker goes 12 -> 1
    opponent2 = side({20: 15})
    assert _after(mover, opponent2, (6, 5)) == {(side({1: 1, 0: 14}), opponent2)}


def _play_to(variant, mover, opponent, dice, want_mover):
    """A Game from the constructed position (white to move), the move leading to want."""
    g = nardy.Game(variant, position=nardy.Position.from_sides(variant, mover, opponent))
    g.roll(dice)
    for m in g.legal_moves():
        if g.position.play(m, dice).side(nardy.WHITE) == want_mover:
            g.play(m)
            return g
    raise AssertionError("no such move")


def test_m1_pinning_the_mother_wins_double():
    # black's last checker on its starting point (black index 23 = white index 0); white has
    # none left on its own starting point; white lands on it with a 2 from index 2
    white = side({2: 1, 5: 14})
    black = side({23: 1, 10: 14})
    g = _play_to(PLAKOTO, white, black, (2, 1), side({0: 1, 4: 1, 5: 13}))
    r = g.result()
    assert g.is_game_over() and r.winner == nardy.WHITE and r.reason == "mother"
    assert r.kind == "mother" and r.value == 2
    tm = nardy.Game(PLAKOTO, nardy.GameRules(scoring="plakoto_triple_mother"),
                    position=nardy.Position.from_sides(PLAKOTO, white, black))
    tm.roll((2, 1))
    for m in tm.legal_moves():
        if tm.position.play(m, (2, 1)).side(nardy.WHITE) == side({0: 1, 4: 1, 5: 13}):
            tm.play(m)
            break
    assert tm.result().kind == "mother" and tm.result().value == 3
    # the core: the player on roll (black) has lost by the mother rule, 2 points
    key = _core.encode(side({23: -1, 10: 14}), side({0: 1, 4: 1, 5: 13}), PLAKOTO.core_variant)
    assert PLAKOTO.engine.game_end(key) == (-1, "mother", 2)
    assert P.mother_end(side({23: -1, 10: 14}), side({0: 1, 4: 1, 5: 13})) == "b"


def test_m2_waived_while_the_pinner_has_a_checker_on_its_own_start():
    white = side({2: 1, 23: 1, 5: 13})
    black = side({23: 1, 10: 14})
    g = _play_to(PLAKOTO, white, black, (2, 1), side({0: 1, 23: 1, 4: 1, 5: 12}))
    assert not g.is_game_over()
    assert g.position.side(nardy.BLACK)[23] == -1
    # once the pinner's own last checker leaves its start, the rule applies: the mother loses
    key = _core.encode(side({23: -1, 10: 14}), side({0: 1, 22: 1, 4: 1, 5: 12}), PLAKOTO.core_variant)
    assert PLAKOTO.engine.game_end(key) == (-1, "mother", 2)


def test_m3_both_mothers_pinned_is_a_draw():
    # white's mother (index 23) is pinned by black (black index 0); white pins black's
    white = side({2: 1, 23: -1, 5: 13})
    black = side({23: 1, 0: 1, 10: 13})
    g = _play_to(PLAKOTO, white, black, (2, 1), side({0: 1, 23: -1, 4: 1, 5: 12}))
    r = g.result()
    assert g.is_game_over() and r.winner is None and r.kind == "draw"
    assert P.mother_end(side({0: 1, 23: -1, 4: 1, 5: 12}), side({23: -1, 0: 1, 10: 13})) == "draw"


def test_validation_of_pins():
    ok = (side({8: -1, 23: 14}), side({15: 1, 23: 14}))
    assert _core.validate(PLAKOTO.core_variant, *ok) == ""
    bad = [
        (side({8: -1, 23: 14}), side({23: 15})),          # pinned with no pinner
        (side({8: -1, 23: 14}), side({15: -1, 23: 14})),  # both pinned
        (side({8: 1, 23: 14}), side({15: 1, 23: 14})),    # both free on one point
        (side({24: 1, 23: 14}), side({23: 15})),          # a bar
        (side({8: -2, 23: 15}), side({23: 15})),          # not a count
        (side({23: 14}), side({23: 15})),                 # 14 checkers
    ]
    for mover, opponent in bad:
        assert _core.validate(PLAKOTO.core_variant, mover, opponent) != "", (mover, opponent)
        with pytest.raises(nardy.InvalidPositionError):
            nardy.Position.from_sides(PLAKOTO, mover, opponent)
        assert not P.is_valid(mover, opponent)
    assert P.is_valid(*ok)


# -- games, notation, text, JSON, pictures, rollouts ----------------------------------------
def _random_game(seed, v=PLAKOTO):
    g = nardy.Game(v, seed=seed)
    rng = random.Random(seed)
    while not g.is_game_over():
        if g.phase in ("opening", "roll"):
            g.roll()
            continue
        moves = g.legal_moves()
        g.play(moves[rng.randrange(len(moves))]) if len(moves) else g.pass_turn()
    return g


def test_games_play_to_the_end_with_plakotos_scoring():
    seen = set()
    for seed in range(60):
        g = _random_game(seed)
        r = g.result()
        end = P.mother_end(*g.position.sides())
        if r.reason == "bear-off":
            assert g.position.borne_off(r.winner) == 15
            assert r.kind == ("single" if g.position.borne_off(1 - r.winner) else "gammon")
            assert r.value == {"single": 1, "gammon": 2}[r.kind]
        elif r.kind == "draw":
            assert end == "draw"
        else:
            assert r.kind == "mother" and r.value == 2 and end in ("a", "b")
            assert g.position.side(1 - r.winner)[23] == -1
        seen.add(r.kind)
    assert {"single", "gammon", "mother", "draw"} <= seen
    assert nardy.Game(PLAKOTO).rules.opening_roll == "fresh"
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Game(PLAKOTO, nardy.GameRules(cube=True))


def test_text_json_and_notation_round_trip_positions_with_pins():
    pinned_seen = 0
    for seed in range(6):
        g = _random_game(100 + seed)
        pos = nardy.Position(PLAKOTO)
        for action in g.history:
            if action.kind == "move":
                text = str(action.move)
                dice = action.dice
                assert pos.parse_move(text, dice) == action.move or \
                    pos.play(text, dice) == pos.play(action.move, dice)
                pos = pos.play(action.move, dice)
            elif action.kind == "pass":
                pos = pos.pass_turn()
            else:
                continue
            t = pos.to_text()
            assert nardy.Position.from_text(t) == pos, t
            assert jsonform.from_json(json.loads(json.dumps(jsonform.to_json(pos)))) == pos
            if "p," in t or t.endswith("p") or "p " in t:
                pinned_seen += 1
    assert pinned_seen > 20


def test_a_picture_shows_the_pinned_checker_under_its_pinner():
    pos = nardy.Position.from_sides(PLAKOTO, side({8: -1, 23: 14}), side({15: 2, 23: 13}))
    assert pos.to_text() == "plakoto W:24x14,9p B:24x13,16x2 w"
    assert pos.pip_count(nardy.WHITE) == 14 * 24 + 9
    picture = textboard.board(pos, ascii=True)
    lines = picture.splitlines()
    # the 9-point column, bottom row: the pinned white checker ("o") under two black ones
    col = lines[-2].index("o")
    assert [ln[col] for ln in lines[-4:-1]] == ["X", "X", "o"]
    drawing = svg.board(pos)
    assert drawing.startswith("<svg") and "white pinned 1" in drawing
    assert "pips white 345, black 344" in drawing
    assert "white pinned 1" in picture


def test_rollouts_count_every_kind_of_end():
    res = nardy.rollout(PLAKOTO, 600, "random", seed=3, threads=1)
    assert res.kinds == ("single", "gammon", "mother")
    assert res.games == 600 and res.unfinished == 0
    assert res.draws > 0 and all(res.wins[0]) and all(res.wins[1])
    wins = [sum(w) for w in res.wins]
    assert wins[0] + wins[1] + res.draws == 600
    greedy = nardy.rollout(PLAKOTO, 200, "greedy", seed=3, threads=1)
    assert greedy.games == 200 and greedy.unfinished == 0


def test_encodings_count_a_pinned_checker_as_one_of_its_owner():
    # A middle game with pins on both sides (tests/perft/plakoto.perft).
    us = [1, 0, 1, 1, 0, 1, 0, 2, 2, 0, 0, 0, 0, -1, 0, 1, 0, 0, 0, 0, -1, 2, 0, 2, 0, 0]
    them = [0, 1, 0, 5, 1, 0, 0, 1, -1, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    pos = nardy.Position.from_sides("plakoto", us, them)
    plain = np.array([[[max(n, 1) if n < 0 else n for n in us],
                       [max(n, 1) if n < 0 else n for n in them]]], dtype=np.int8)
    for kind in ("tdgammon", "gnubg", "long"):
        got = nardy.batch.encode(nardy.batch.to_array([pos]), kind)
        want = nardy.batch.encode(plain, kind)
        assert np.array_equal(got, want), kind
    boards = nardy.batch.afterstates([pos], (3, 1))[0]
    feats, _ = nardy.batch.afterstate_features([pos], (3, 1), "tdgammon")
    assert (np.asarray(boards) < 0).any()
    assert np.array_equal(nardy.batch.encode(boards, "tdgammon"), feats)
