"""nardy.rollout: games played to the end in C++.

* reproducible: the same seed gives identical counts with 1, 2 or all threads, and trial
  ranges merged equal the whole range;
* random games always end, and the counts add up to the games played;
* results are classified right (single / gammon / backgammon, oin / mars) on positions whose
  outcome is forced;
* a Python callable policy (lockstep games) that scores like the built-in greedy policy plays
  exactly the same games;
* many Python threads at once get the serial answers;
* the random policy plays, ply by ply, the move ``legal_moves`` lists at the index the
  documented streams give (games replayed in Python from src/nardy/rollout.hpp's description),
  although the core makes only that move.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import nardy
from nardy.rollout import RolloutResult


def exact(r: RolloutResult) -> tuple:
    """Every exact field but the policy label."""
    return r.counts()[2:]


POINTS = {"backgammon": (1, 2, 3), "long-nardy": (1, 2)}


def check_totals(r: RolloutResult) -> None:
    """The counts add up to the games, and the points to the kinds' values."""
    assert sum(map(sum, r.wins)) + r.draws + r.unfinished == r.games
    values = POINTS[r.variant]
    assert r.points == sum(n * v for n, v in zip(r.wins[0], values)) - \
        sum(n * v for n, v in zip(r.wins[1], values))
    assert r.points_sq == sum(n * v * v for side in r.wins for n, v in zip(side, values))


@pytest.mark.parametrize("variant", ["backgammon", "long-nardy"])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_same_seed_same_counts_whatever_the_threads(variant, policy):
    p = nardy.Position(variant)
    games = 1500 if policy == "random" else 600
    one = nardy.rollout(p, games, policy, seed=11, threads=1)
    two = nardy.rollout(p, games, policy, seed=11, threads=2)
    allc = nardy.rollout(p, games, policy, seed=11, threads=0)
    assert one == two == allc
    assert one.counts() == two.counts()
    assert one.games == games and one.unfinished == 0  # random games always end
    check_totals(one)
    other = nardy.rollout(p, games, policy, seed=12, threads=2)
    assert other.games == games and exact(other) != exact(one)


# -- the random policy, replayed from its documentation (src/nardy/rollout.hpp) -------------
MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _finalise(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def _draw(key: int, counter: int) -> int:
    return _finalise((key + (counter + 1) * GOLDEN) & MASK64)


def _replay_random_game(seed: int, trial: int) -> tuple[int, int, int]:
    """(winner, kind, plies) of random-policy trial `trial`: winner 0 = the side on roll at
    the start; kind 0 single, 1 gammon, 2 backgammon."""
    key = _finalise(seed ^ _finalise((trial + GOLDEN) & MASK64))
    pos = nardy.Position("backgammon")
    on_roll = 0
    for ply in range(10000):
        us, them = pos.sides()
        if us[25] == 15 or them[25] == 15:
            winner = on_roll if us[25] == 15 else 1 - on_roll
            loser = them if us[25] == 15 else us
            if loser[25] > 0:
                kind = 0
            elif loser[24] > 0 or any(loser[18:24]):
                kind = 2
            else:
                kind = 1
            return winner, kind, ply
        q = ((_draw(key, 2 * ply) >> 32) * 36) >> 32
        moves = pos.legal_moves((q // 6 + 1, q % 6 + 1))
        if moves:
            index = ((_draw(key, 2 * ply + 1) >> 32) * len(moves)) >> 32
            pos = moves.results()[index]
        else:
            pos = pos.pass_turn()
        on_roll ^= 1
    raise AssertionError("a random game did not end")


def test_random_policy_plays_the_listed_move_at_the_drawn_index():
    start = nardy.Position("backgammon")
    for trial in range(40):
        winner, kind, plies = _replay_random_game(17, trial)
        r = nardy.rollout(start, 1, "random", seed=17, first_trial=trial)
        assert r.plies == plies, trial
        assert r.wins[winner][kind] == 1, (trial, r.wins, winner, kind)


def test_trial_ranges_merge_exactly():
    p = nardy.Position("backgammon")
    whole = nardy.rollout(p, 2000, seed=99, threads=2)
    parts = [nardy.rollout(p, n, seed=99, first_trial=lo, threads=1)
             for lo, n in ((0, 700), (700, 1), (701, 1299))]
    merged = parts[0] + parts[1] + parts[2]
    assert merged == whole and merged.first_trial == 0 and merged.games == 2000
    assert merged.shards == 3
    # a shifted range is a different set of games
    assert exact(nardy.rollout(p, 2000, seed=99, first_trial=1)) != exact(whole)


def test_result_figures():
    r = nardy.rollout(nardy.Position("backgammon"), 3000, seed=5)
    assert r.kinds == ("single", "gammon", "backgammon")
    assert -3 <= r.mean <= 3 and 0 < r.stderr < 0.2
    assert abs(r.mean) < 5 * r.stderr + 0.05  # random vs random from the opening: even
    assert r.games_per_second > 0 and 20 < r.mean_plies < 400
    o = r.outcomes
    assert sum(o.values()) == r.games and o["win_single"] == r.wins[0][0]
    assert 0 < r.win_rate < 1
    assert "games/s" in r.summary()
    with pytest.raises(nardy.Error):
        r.merge(nardy.rollout(nardy.Position("backgammon"), 10, seed=6))


def side(**points):
    s = [0] * 26
    for k, v in points.items():
        s[{"bar": 24, "off": 25}.get(k, None) if k in ("bar", "off") else int(k[1:])] = v
    assert sum(s) == 15
    return s


@pytest.mark.parametrize("opponent,kind", [
    (side(i20=15), 2),            # loser's checkers in the winner's home: backgammon
    (side(i10=14, bar=1), 2),     # loser on the bar: backgammon
    (side(i10=15), 1),            # none off: gammon
    (side(i10=14, off=1), 0),     # one off: single
])
def test_backgammon_result_kinds(opponent, kind):
    p = nardy.Position.from_sides("backgammon", side(i0=1, off=14), opponent)
    r = nardy.rollout(p, 50, seed=1)
    want = [0, 0, 0]
    want[kind] = 50
    assert r.wins == (tuple(want), (0, 0, 0))
    assert r.points == 50 * (kind + 1) and r.plies == 50


@pytest.mark.parametrize("opponent,kind", [(side(i23=15), 1), (side(i23=14, off=1), 0)])
def test_long_nardy_result_kinds(opponent, kind):
    p = nardy.Position.from_sides("long-nardy", side(i0=1, off=14), opponent)
    r = nardy.rollout(p, 40, "greedy", seed=1)
    assert r.kinds == ("oin", "mars")
    want = [0, 0]
    want[kind] = 40
    assert r.wins == (tuple(want), (0, 0)) and r.points == 40 * (kind + 1)


def test_finished_start_position():
    p = nardy.Position.from_sides("backgammon", side(i5=15), side(off=15))
    r = nardy.rollout(p, 10)
    assert r.wins == ((0, 0, 0), (0, 10, 0)) and r.plies == 0 and r.points == -20


def test_shlem_rollouts():
    p = nardy.Position("shlem")
    one = nardy.rollout(p, 150, seed=3, threads=1)
    two = nardy.rollout(p, 150, seed=3, threads=2)
    assert one == two
    assert one.kinds == ("blockade", "closed_points")
    assert sum(map(sum, one.wins)) + one.draws + one.unfinished == 150
    assert one.unfinished == 0
    g = nardy.rollout(p, 100, "greedy", seed=3, threads=2)
    assert g.games == 100 and g.unfinished == 0 and sum(map(sum, g.wins)) + g.draws == 100


# ---------------------------------------------------------------------------- callables

def greedy_backgammon_scores(cand: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The built-in backgammon greedy heuristic (src/nardy/rollout.hpp), in numpy."""
    c = cand.astype(np.int64)
    us, them = c[:, 0], c[:, 1]
    w = np.arange(1, 26)
    score = (them[:, :25] * w).sum(1) - (us[:, :25] * w).sum(1) + 2 * us[:, 25]
    score += 3 * (us[:, :8] >= 2).sum(1)
    theirs = them[:, :24][:, ::-1] > 0  # opponent index j lies on our index 23 - j
    exposed = np.zeros(len(c), dtype=np.int64)
    for i in range(24):
        behind = theirs[:, max(0, i - 12):i].any(1)
        on_bar = (them[:, 24] > 0) & (i <= 11)
        exposed += (us[:, i] == 1) & (behind | on_bar)
    return score - 8 * exposed


def greedy_long_nardy_scores(cand: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The built-in long-nardy greedy heuristic (src/nardy/rollout.hpp), in numpy."""
    us = cand[:, 0].astype(np.int64)
    held = us[:, :24] > 0
    run = np.zeros(len(us), dtype=np.int64)
    longest = np.zeros(len(us), dtype=np.int64)
    for i in range(24):
        run = np.where(held[:, i], run + 1, 0)
        longest = np.maximum(longest, run)
    pips = (us[:, :24] * np.arange(1, 25)).sum(1)
    return (-4 * pips + 3 * held.sum(1) + 4 * np.minimum(longest, 6) + 8 * us[:, 25]
            - 2 * us[:, 23])


@pytest.mark.parametrize("variant,scores", [("backgammon", greedy_backgammon_scores),
                                            ("long-nardy", greedy_long_nardy_scores)])
def test_callable_policy_plays_the_same_games_as_builtin_greedy(variant, scores):
    p = nardy.Position(variant)
    builtin = nardy.rollout(p, 200, "greedy", seed=21, threads=2)
    lock = nardy.rollout(p, 200, scores, seed=21, width=64)
    assert exact(lock) == exact(builtin)
    assert lock.policy == f"callable:{scores.__name__}"


def test_callable_indices_features_and_merging():
    p = nardy.Position("backgammon")
    calls = []

    def first(cand, offsets):
        calls.append((cand.shape, cand.dtype))
        return np.zeros(len(offsets) - 1, dtype=np.int64)

    whole = nardy.rollout(p, 120, first, seed=4, width=16)
    parts = nardy.rollout(p, 50, first, seed=4, width=7) + \
        nardy.rollout(p, 70, first, seed=4, first_trial=50, width=64)
    assert exact(parts) == exact(whole) and whole.unfinished == 0
    assert all(s[1:] == (2, 26) and d == np.int8 for s, d in calls)
    calls.clear()
    feats = nardy.rollout(p, 20, first, seed=4, features="tdgammon")
    assert all(s[1:] == (198,) and d == np.float32 for s, d in calls)
    assert exact(feats) == exact(nardy.rollout(p, 20, first, seed=4))


def test_callable_errors():
    p = nardy.Position("backgammon")
    with pytest.raises(nardy.Error, match="scores"):
        nardy.rollout(p, 5, lambda c, o: np.zeros(3), seed=1)
    with pytest.raises(nardy.Error, match="outside"):
        nardy.rollout(p, 5, lambda c, o: np.full(len(o) - 1, 99), seed=1)
    with pytest.raises(nardy.Error, match="NaN"):
        nardy.rollout(p, 5, lambda c, o: np.full(len(c), np.nan), seed=1)
    with pytest.raises(nardy.Error, match="unknown policy"):
        nardy.rollout(p, 5, "smart")
    with pytest.raises(nardy.Error, match="games"):
        nardy.rollout(p, -1)


def test_max_plies_counts_unfinished():
    r = nardy.rollout(nardy.Position("backgammon"), 30, seed=2, max_plies=10)
    assert r.unfinished == 30 and r.plies == 300 and r.points == 0


# ---------------------------------------------------------------------------- threads

def test_many_python_threads_get_serial_answers():
    p = nardy.Position("backgammon")
    lp = nardy.Position("long-nardy")
    serial = {k: nardy.rollout(p if k % 2 else lp, 300, seed=k, threads=1) for k in range(6)}
    errors: list[str] = []

    def worker(k: int) -> None:
        for _ in range(2):
            got = nardy.rollout(p if k % 2 else lp, 300, seed=k, threads=2)
            if got != serial[k]:
                errors.append(f"seed {k}: {got} != {serial[k]}")

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_cli_rollout(capsys):
    from nardy.cli import main

    assert main(["rollout", "backgammon", "2500", "--seed", "3", "--threads", "2",
                 "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "2,500 games of backgammon" in out and "games/s" in out
    assert "100.0%" in err  # the progress bar, drawn per chunk
    r = nardy.rollout(nardy.Position("backgammon"), 2500, seed=3)
    assert f"player on roll wins: {sum(r.wins[0]):,}" in out
    assert main(["rollout", "long-nardy", "200", "--policy", "greedy", "--no-progress"]) == 0
