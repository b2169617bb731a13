"""Fevga and Moultezim against the independent reference generator (tests/reference/fevga_ref.py,
written from docs/rules/fevga.md) on random reachable positions and on constructed crowded
positions under every rule option, each rule of docs/rules/fevga.md on a position built for
it, and games played to the end with Fevga's scoring.

NARDY_SLOW=1 runs the full-size comparison (5,000 reachable positions x 21 rolls)."""

from __future__ import annotations

import os
import random

import pytest

import nardy
from nardy import _core

try:
    from tests.reference import fevga_ref as R
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import fevga_ref as R  # type: ignore[no-redef]

SLOW = os.environ.get("NARDY_SLOW") == "1"
FEVGA = nardy.Fevga()


def side(spec: dict[int, int]) -> tuple[int, ...]:
    """A side array from {index: count}; the rest of the fifteen are borne off."""
    s = [0] * 26
    for i, n in spec.items():
        s[i] += n
    s[25] += 15 - sum(s)
    return tuple(s)


def core_results(v: nardy.Variant, us, them, roll) -> set[tuple[int, ...]]:
    moves = v.engine.legal(_core.encode(us, them), *roll)
    return {tuple(_core.decode(k)[0]) for k in moves.keys()}


def ref_options(v: nardy.Variant) -> R.Options:
    r = v.rules
    return R.Options(first_checker=r["first_checker"], prime=r["prime"],
                     start_quarter=r["start_quarter"],
                     their_quarter_limit=r["their_quarter_limit"], block_check=r["block_check"])


def compare(v: nardy.Variant, positions) -> list[str]:
    opts = ref_options(v)
    failures = []
    for us, them in positions:
        for roll in R.ALL_ROLLS:
            want = R.legal_results(us, them, roll, opts)
            got = core_results(v, us, them, roll)
            if got != want:
                failures.append(f"{v!r} {us} / {them} {roll}: core only {sorted(got - want)[:2]}, "
                                f"reference only {sorted(want - got)[:2]}")
                if len(failures) > 5:
                    return failures
    return failures


def reachable(n: int, seed: int, opts: R.Options = R.Options()):
    """Every fifth position of random reference games (many games, every phase)."""
    rng = random.Random(seed)
    pool = R.random_positions(5 * n, seed, opts)
    return rng.sample(pool, n)


def crowded(n: int, seed: int):
    """Valid but mostly unreachable positions where the six-point rules bite: the mover on
    six to eleven points in runs, the opponent on one to three points (often one stack)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        start = rng.randrange(24)
        points = sorted({(start + k) % 24 for k in range(rng.randint(5, 9))}
                        | {rng.randrange(24) for _ in range(rng.randint(0, 2))})
        us = [0] * 26
        for k in range(15):
            us[points[k % len(points)]] += 1
        if rng.random() < 0.2:  # some off, so bearing off and "past" by being off occur
            for _ in range(rng.randint(1, 3)):
                p = rng.choice([p for p in range(24) if us[p] > 0])
                us[p] -= 1
                us[25] += 1
        free = [j for j in range(24) if us[R.mover_index(j)] == 0]
        stacks = rng.sample(free, rng.choice([1, 1, 2, 3]))
        them = [0] * 26
        for k in range(15):
            them[stacks[k % len(stacks)]] += 1
        out.append((tuple(us), tuple(them)))
    return out


RULE_SETS = [
    nardy.Fevga(),
    nardy.Fevga(prime="all-behind"),
    nardy.Fevga(prime="free", start_quarter=False),
    nardy.Fevga(first_checker="opponent-quarter"),
    nardy.Fevga(block_check="end"),
    nardy.Fevga(prime="all-behind", block_check="end", their_quarter_limit=3),
    nardy.Moultezim(),
]


# -- identity ------------------------------------------------------------------------------


def test_setup_names_and_traits():
    assert FEVGA.initial_side() == R.start_side()
    info = _core.variant_info(FEVGA.core_variant)
    assert tuple(info["start"]) == R.start_side() and info["checkers"] == 15
    assert not info["has_bar"] and info["kinds"] == ("single", "gammon")
    assert nardy.find_variant("Fevga") is nardy.Fevga
    assert nardy.find_variant("φεύγα") is nardy.Fevga
    assert nardy.find_variant("moultezim") is nardy.Moultezim
    assert nardy.Moultezim().rules == {
        "first_checker": "past-start", "prime": "free", "start_quarter": False,
        "their_quarter_limit": 4, "block_check": "step"}
    assert not FEVGA.cube_allowed and FEVGA.default_scoring == "single_gammon"
    # the starts are diagonally opposite: the opponent's start is the mover's index 11
    assert FEVGA.to_mover(23) == 11 and FEVGA.to_mover(11) == 23
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Fevga(prime="sometimes")
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Fevga(their_quarter_limit=0)


def test_bad_engine_arguments_raise_value_errors():
    with pytest.raises(ValueError):
        _core.Engine(FEVGA.core_variant, fevga_their_quarter=9)


# -- against the reference -----------------------------------------------------------------


def test_core_vs_reference_on_reachable_positions():
    n = 5000 if SLOW else 500
    positions = reachable(n, seed=20261201)
    assert len(positions) == n
    failures = compare(FEVGA, positions)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("v", RULE_SETS, ids=repr)
def test_core_vs_reference_on_crowded_positions_under_each_option(v):
    positions = crowded(1000 if SLOW else 25, seed=sum(map(ord, repr(v))))
    failures = compare(v, positions)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("v", RULE_SETS[1:], ids=repr)
def test_core_vs_reference_on_positions_reached_under_each_option(v):
    opts = ref_options(v)
    positions = reachable(1000 if SLOW else 30, seed=7, opts=opts)
    failures = compare(v, positions)
    assert not failures, "\n".join(failures)


def test_the_crowded_positions_do_meet_every_rule():
    # a check that the fuzz above can fail: each restriction forbids something in its sample
    opts = R.Options()
    seen = {"start_quarter": 0, "one_point": 0, "all_behind": 0}
    for us, them in crowded(300, seed=5):
        if all(us[i] for i in range(18, 24)):
            seen["start_quarter"] += 1
        if R.breaks_six_point_rules(us, them, R.Options(start_quarter=False)):
            seen["one_point"] += 1
        if R.breaks_six_point_rules(us, them, R.Options(start_quarter=False, prime="all-behind")):
            seen["all_behind"] += 1
    assert all(n > 0 for n in seen.values()), seen
    assert opts.prime == "one-point-behind"


def test_perft_from_the_start_by_the_reference():
    start = _core.encode(R.start_side(), R.start_side())
    for depth, nodes in ((1, 22), (2, 479)):
        assert R.perft(R.start_side(), R.start_side(), depth) == nodes
        assert FEVGA.engine.perft(start, depth) == nodes


# -- the rules, one position each (docs/rules/fevga.md) -------------------------------------

THEIR_START = side({23: 15})  # the opponent untouched on its start (the mover's index 11)


def test_f2_a_single_checker_holds_a_point():
    us = side({23: 14, 16: 1})
    them = side({23: 14, 2: 1})  # opponent index 2 is the mover's 14
    assert R.mover_index(2) == 14
    got = core_results(FEVGA, us, them, (2, 1))
    assert all(r[14] == 0 for r in got)  # nobody lands on 14
    assert side({23: 14, 13: 1}) in got  # 16 -> 15 -> 13 jumps over it


def test_f3_the_first_checker_alone_until_past_the_opponents_start():
    start = R.start_side()
    # 6-6 from the start: 23 -> 17, and 17 -> 11 is the opponent's start: one six only
    assert core_results(FEVGA, start, THEIR_START, (6, 6)) == {side({23: 14, 17: 1})}
    # the runner on 12 is not past yet: a 2 takes it to 10, then the start opens for the 3
    us = side({23: 14, 12: 1})
    got = core_results(FEVGA, us, THEIR_START, (3, 2))
    assert side({23: 13, 20: 1, 10: 1}) in got
    assert side({23: 14, 7: 1}) in got
    assert side({23: 13, 21: 1, 9: 1}) in got  # 12 -> 9 is past as well
    # the runner on 16: only it may move
    us = side({23: 14, 16: 1})
    assert core_results(FEVGA, us, THEIR_START, (2, 1)) == {side({23: 14, 13: 1})}


def test_f3_option_opponent_quarter_counts_the_opponents_start_point():
    # the opponent has left its start: landing on the mover's 11 is possible
    them = side({22: 5, 21: 10})
    us = side({23: 14, 13: 1})
    past = core_results(FEVGA, us, them, (2, 1))
    quarter = core_results(nardy.Fevga(first_checker="opponent-quarter"), us, them, (2, 1))
    # 13 -> 11 and then a start checker with the 1: only when 11 is far enough
    assert side({23: 13, 22: 1, 11: 1}) in quarter
    # (13 -> 12 -> 10 and 11 -> 10 are blocked: one die, the larger)
    assert past == {side({23: 14, 11: 1})}


def test_f5_never_all_six_points_of_the_starting_quarter():
    us = side({23: 5, 22: 2, 21: 2, 20: 2, 19: 2, 8: 2})
    them = side({23: 15})
    got = core_results(FEVGA, us, them, (5, 4))
    # 23 -> 18 would fill 18..23; 22 -> 18 or 19 -> ... leave a gap somewhere
    assert all(not all(r[i] for i in range(18, 24)) for r in got)
    free = core_results(nardy.Fevga(start_quarter=False), us, them, (5, 4))
    assert any(all(r[i] for i in range(18, 24)) for r in free)


def test_f6_no_prime_right_in_front_of_a_single_opponent_stack():
    # opponent all on its start (the mover's 11); the mover holds 5..9 and moves 12 -> 10
    us = side({23: 8, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1, 12: 2})
    got = core_results(FEVGA, us, THEIR_START, (2, 1))
    assert all(not all(r[i] for i in range(5, 11)) for r in got)
    free = core_results(nardy.Fevga(prime="free"), us, THEIR_START, (2, 1))
    assert any(all(r[i] for i in range(5, 11)) for r in free)


def test_f6_one_point_behind_versus_all_behind():
    # two opponent stacks (the mover's 11 and 10), both behind the prime 4..9 that 7 -> 4
    # makes: allowed unless "all-behind"
    them = side({23: 10, 22: 5})
    us = side({23: 8, 9: 1, 8: 1, 7: 2, 6: 1, 5: 1, 15: 1})

    def primes(results):
        return [r for r in results if all(r[i] for i in range(4, 10))]

    assert primes(core_results(FEVGA, us, them, (3, 1)))
    assert not primes(core_results(nardy.Fevga(prime="all-behind"), us, them, (3, 1)))
    # with an opponent checker past the prime (its 10, the mover's 22) "all-behind" allows it
    them_past = side({23: 10, 22: 4, 10: 1})
    assert primes(core_results(nardy.Fevga(prime="all-behind"), us, them_past, (3, 1)))


def test_f6_a_prime_met_at_the_start_of_the_turn_must_be_opened():
    # the opponent gathered every checker on the one point behind the mover's prime 12..17
    # (the opponent's 0..5 are the mover's 12..17; its stack on its 6, the mover's 18)
    us = side({17: 2, 16: 2, 15: 2, 14: 2, 13: 2, 12: 1, 3: 4})
    them = side({6: 15})
    got = core_results(FEVGA, us, them, (2, 1))
    assert got and all(not all(r[i] for i in range(12, 18)) for r in got)
    # under "free" the prime may stay
    assert any(all(r[i] for i in range(12, 18))
               for r in core_results(nardy.Fevga(prime="free"), us, them, (2, 1)))


def test_f7_moultezim_holds_at_most_four_points_of_the_opponents_starting_quarter():
    us = side({23: 6, 10: 1, 9: 1, 8: 1, 7: 1, 13: 5})  # four of 6..11 held
    them = side({23: 15})
    got = core_results(nardy.Moultezim(), us, them, (6, 1))
    assert got and all(sum(1 for i in range(6, 12) if r[i]) <= 4 for r in got)
    assert any(sum(1 for i in range(6, 12) if r[i]) == 5
               for r in core_results(FEVGA, us, them, (6, 1)))


def test_block_check_end_allows_a_passing_prime():
    # 19 -> 18 fills the starting quarter for a moment, 18 -> 12 opens it again (6-1)
    # (19 -> 13 -> 12 is blocked by an opponent checker on the mover's 13)
    us = side({23: 8, 22: 1, 21: 1, 20: 1, 19: 2, 9: 2})
    them = side({23: 14, 1: 1})
    step = core_results(FEVGA, us, them, (6, 1))
    end = core_results(nardy.Fevga(block_check="end"), us, them, (6, 1))
    moved = side({23: 8, 22: 1, 21: 1, 20: 1, 19: 1, 12: 1, 9: 2})
    assert moved in end
    assert moved not in step
    assert R.legal_results(us, them, (6, 1), R.Options(block_check="end")) == end


def test_f8_bearing_off():
    us = side({5: 1, 2: 2})
    them = side({20: 3})
    got = core_results(FEVGA, us, them, (6, 3))
    assert side({2: 1}) in got  # 6 from the 6-point (index 5), 3 from index 2
    # not all home: no bearing off
    us = side({12: 1, 2: 2})
    got = core_results(FEVGA, us, them, (2, 1))
    assert got and all(r[25] == us[25] for r in got)


# -- scoring and games ---------------------------------------------------------------------


def test_single_and_double_games():
    won = side({})
    assert FEVGA.engine.game_end(_core.encode(side({3: 2}), won)) == (-1, "single", 1)
    loser = [0] * 26
    loser[2] = 15
    assert FEVGA.engine.game_end(_core.encode(tuple(loser), won)) == (-1, "gammon", 2)
    assert FEVGA.engine.game_end(_core.encode(R.start_side(), R.start_side())) is None
    sc = nardy.find_scoring("fevga")
    assert sc.kinds == (("single", 1), ("gammon", 2)) and sc.value("double") == 2


@pytest.mark.parametrize("cls", [nardy.Fevga, nardy.Moultezim])
def test_games_play_to_the_end_with_fevga_scoring(cls):
    kinds = set()
    for seed in range(6):
        game = nardy.Game(cls(), seed=seed)
        while not game.is_game_over():
            if game.phase in ("opening", "roll"):
                game.roll()
            moves = game.legal_moves()
            if len(moves):
                game.play(moves[len(moves) // 2])
            else:
                game.pass_turn()
        result = game.result()
        assert result.kind in ("single", "gammon")
        assert game.position.borne_off(result.winner) == 15
        loser_off = game.position.borne_off(1 - result.winner)
        assert result.kind == ("single" if loser_off else "gammon")
        kinds.add(result.kind)
    assert kinds
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Game(cls(), cube=True)
