"""Shlem games in the game layer (nardy.Game): the end of the game, claims, passes, results.

Expectations are worked out by hand from docs/rules/shlem.md (§3 S32-S37, §5) and
docs/rules/games-and-matches.md §11: a blockade of n consecutive closed points on the
opponent's line wins n² (S13); a game ended otherwise is won for 1 point by whoever closed more
points on the opponent's territory, equal counts a draw (S35).
"""

from __future__ import annotations

import copy
import pickle
import random
import time

import pytest

import nardy
from nardy import BLACK, WHITE, Game, GameStateError, InvalidRuleError, Match, Phase


def pos(text: str) -> nardy.Position:
    return nardy.from_text(text).position


def claim_variant() -> nardy.Shlem:
    return nardy.Shlem(blockade_end="claim")


# White holds 41 and 43 closed and one checker on 42; a white checker on 12 (number 2) jumps
# to the facing 42 with a 2, closing 41-42-43: a triple blockade («медный шлем»), 9 points.
TRIAD = ("shlem W:resx3,41x2,43x2,42,12,13,14,15,16,21,22 "
         "B:resx3,31x2,32x2,33,34,35,36x2,44,45,46 w")
TRIAD_MOVE = "12/42 22/21"   # the 2 jumps, the 1 steps along white's own line


# ------------------------------------------------------------------------- set-up basics

def test_opening_roll_as_in_short_nardy():
    g = Game("shlem", seed=3)
    assert g.phase is Phase.OPENING and g.rules.opening_roll == "rolloff"
    assert g.rules.scoring == "shlem" and not g.cube_in_play
    g.roll((2, 2))            # a tie: thrown again
    assert g.phase is Phase.OPENING
    g.roll((3, 5))            # black throws higher and plays 5-3
    assert g.starter == BLACK and g.turn == BLACK and g.dice == (5, 3)
    assert g.phase is Phase.MOVE and g.move_count() > 0
    assert g.passes == 0
    g2 = Game("shlem", opening_roll="fresh")
    g2.roll((6, 1))
    assert g2.phase is Phase.ROLL and g2.turn == WHITE


def test_no_cube_in_shlem():
    with pytest.raises(InvalidRuleError):
        Game("shlem", cube=True)
    with pytest.raises(InvalidRuleError):
        Game("shlem", last_roll_draw=True)
    with pytest.raises(InvalidRuleError):
        Game("shlem", scoring="standard")
    with pytest.raises(InvalidRuleError):
        Game("backgammon", scoring="shlem")
    g = Game("shlem", seed=1)
    g.roll((6, 1))
    assert not g.can_double()


def test_passes_only_for_shlem_positions():
    with pytest.raises(InvalidRuleError):
        Game("shlem", passes=2)               # not from a position
    with pytest.raises(InvalidRuleError):
        Game("backgammon", position=nardy.Position("backgammon"), passes=1)
    assert Game("backgammon").passes is None


# ------------------------------------------------------------------------------ blockades

def test_move_completing_a_blockade_ends_the_game():
    g = Game(position=pos(TRIAD))
    assert g.phase is Phase.ROLL and not g.can_claim()
    g.roll((2, 1))
    g.play(TRIAD_MOVE)
    assert g.is_game_over() and g.winner() == WHITE
    r = g.result()
    assert (r.reason, r.kind, r.value, r.points) == ("blockade", "blockade_3", 9, 9)
    assert r.score == (9, 0)
    # undo brings the game back to the move
    g.undo()
    assert g.phase is Phase.MOVE and g.result() is None and g.dice == (2, 1)


def test_blockade_of_two_is_worth_four():
    # white 41 closed, 42 single; 12 jumps to 42 with a 2: a double blockade («двойная»), 4
    p = pos("shlem W:resx3,41x2,42,12,13,14,15,16,21,22,23,24 "
            "B:resx3,31x2,32x2,33,34,35,36x2,44,45,46 w")
    g = Game(position=p)
    g.roll((2, 1))
    g.play("12/42 24/23")
    r = g.result()
    assert g.winner() == WHITE and (r.kind, r.value, r.points) == ("blockade_2", 4, 4)


def test_claim_mode_game_goes_on_until_claimed():
    g = Game(position=pos(TRIAD.replace("shlem ", "shlem[blockade_end=claim] ")))
    assert g.variant == claim_variant()
    g.roll((2, 1))
    g.play(TRIAD_MOVE)
    # built, but not over: black is on roll and has nothing to claim
    assert not g.is_game_over() and g.turn == BLACK and g.phase is Phase.ROLL
    assert not g.can_claim()
    with pytest.raises(GameStateError):
        g.claim()
    g.roll((1, 1))
    assert g.move_count() > 0
    g.play(0)
    assert g.turn == WHITE and not g.is_game_over()
    # white's blockade stands (black can neither land on nor hit white's closed points)
    assert g.can_claim()
    g.claim()
    r = g.result()
    assert g.winner() == WHITE and (r.reason, r.kind, r.value, r.points) == (
        "blockade", "blockade_3", 9, 9)
    assert g.history[-1].kind == "claim" and g.history[-1].player == WHITE
    # replay and undo
    h = g.history
    g2 = Game.replay(h, position=g.start_position)
    assert g2.result() == r and g2.history == h
    assert g.replayed().result() == r
    assert g.undo().kind == "claim"
    assert g.phase is Phase.ROLL and g.can_claim() and g.result() is None
    # instead of claiming, white may play on; the claim is no longer possible mid-turn
    g.roll((6, 5))
    assert not g.can_claim()
    with pytest.raises(GameStateError):
        g.claim()


def test_claim_refused_in_move_mode():
    g = Game("shlem", seed=0)
    g.roll((6, 1))
    g.play(0)
    assert g.phase is Phase.ROLL and not g.can_claim()
    with pytest.raises(GameStateError):
        g.claim()


def test_game_from_a_finished_position():
    # the blockade already stands, black on roll: with "move" the game is over at once
    p = pos("shlem W:resx3,41x2,42x2,12,13,14,15,16,21,22,23 "
            "B:resx3,31x2,32x2,33,34,35,36x2,44,45,46 b")
    g = Game(position=p)
    assert g.is_game_over() and g.winner() == WHITE and g.result().value == 4
    # with "claim", white claims it at its next turn
    g = Game(position=pos("shlem[blockade_end=claim] W:resx3,41x2,42x2,12,13,14,15,16,21,22,23 "
                          "B:resx3,31x2,32x2,33,34,35,36x2,44,45,46 w"))
    assert g.can_claim()
    g.claim()
    assert g.result().points == 4


# ---------------------------------------------------- ends without a blockade: 1 point / draw

@pytest.mark.parametrize("black, winner, points", [
    # black's closed points on white's territory: 21, 23, 25 = 3 = white's 41, 43, 45: a draw
    ("res,21x2,23x2,25x2,31,33,35,outx5", None, 0.5),
    # black closes only 21 and 23: white has more and wins 1 point
    ("res,21x2,23x2,25,31,33,35,outx6", WHITE, 1),
])
def test_all_checkers_left_the_start(black, winner, points):
    # white's last checker on its own territory (11, number 1) jumps to 41; the 2 then moves
    # 41 -> 43; white has no reserves: «Все шашки одного из игроков вышли из начальных пунктов»
    g = Game(position=pos(f"shlem W:11,41x2,43x2,45x2,outx8 B:{black} w"))
    assert not g.is_game_over()
    g.roll((2, 1))
    g.play("11/41 41/43")
    assert g.is_game_over() and g.winner() == winner
    r = g.result()
    assert r.reason == "left_start"
    if winner is None:
        assert r.is_draw and (r.kind, r.value) == ("draw", 0) and r.score == (0.5, 0.5)
    else:
        assert (r.kind, r.value, r.points) == ("closed_points", 1, 1)


def test_draw_points_option():
    g = Game(position=pos("shlem W:11,41x2,43x2,45x2,outx8 "
                          "B:res,21x2,23x2,25x2,31,33,35,outx5 w"), draw_points=1)
    g.roll((2, 1))
    g.play("11/41 41/43")
    assert g.result().score == (1, 1)


# White's four free checkers are on 41, the end of black's line, facing black's closed 42-46
# and 31: white can never move (its fifth checker is a prisoner under black's on 11).
STUCK = "W:41x4,11p,outx10 B:11,42x2,43x2,44x2,45x2,46x2,31x2,resx2 w"


def test_pass_limit_counts_consecutive_passes():
    g = Game(position=pos("shlem " + STUCK), seed=5)
    g.roll((3, 2))
    assert g.move_count() == 0
    g.pass_turn()
    assert g.passes == 1 and not g.is_game_over()
    g.roll((1, 1))
    g.play(0)                       # black moves: the count starts again
    assert g.passes == 0
    # three passes before, one more: four passed turns in a row end the game
    g = Game(position=pos("shlem " + STUCK), passes=3)
    assert not g.is_game_over() and g.passes == 3
    g.roll((6, 6))
    g.pass_turn()
    assert g.is_game_over()
    r = g.result()
    # white has one closed point (41) on black's territory, black none on white's: 1 point
    assert (r.reason, r.winner, r.kind, r.points) == ("passes", WHITE, "closed_points", 1)
    assert g.replayed().result() == r
    g.undo()
    assert g.passes == 3 and g.phase is Phase.MOVE


def test_pass_limit_option():
    g = Game(position=pos("shlem[pass_limit=1] " + STUCK))
    g.roll((4, 2))
    g.play(nardy.PASS)
    assert g.result().reason == "passes" and g.winner() == WHITE
    # pass_limit=0: passes never end the game
    g = Game(position=pos("shlem[pass_limit=0] " + STUCK), passes=15)
    g.roll((4, 2))
    g.pass_turn()
    assert not g.is_game_over() and g.passes == 16


# --------------------------------------------------------------------------------- records

def _random_game(seed: int, **options) -> Game:
    """A game of random legal play; ``options`` are Shlem's rule options."""
    rng = random.Random(seed)
    g = Game(nardy.Shlem(**options), seed=seed)
    g.roll()
    while not g.is_game_over():
        if g.phase is Phase.ROLL:
            if g.can_claim() and rng.random() < 0.5:
                g.claim()
                break
            g.roll()
        n = g.move_count()
        if n:
            g.play(rng.randrange(n))
        else:
            g.pass_turn()
    return g


def test_replay_undo_pickle():
    g = _random_game(11)
    r = g.result()
    assert r is not None
    assert Game.replay(g.history, "shlem").result() == r
    assert g.replayed().result() == r
    assert pickle.loads(pickle.dumps(g)).result() == r
    c = copy.deepcopy(g)
    while c.history:
        c.undo()
    assert c.phase is Phase.OPENING and c.position == nardy.Position("shlem")
    for a in g.history:
        c.apply(a)
    assert c.result() == r and c.position == g.position


def test_match_of_shlem():
    m = Match(5, "shlem", seed=2)
    rng = random.Random(2)
    while not m.is_over():
        g = m.game
        g.roll()
        while not g.is_game_over():
            if g.phase is Phase.ROLL:
                g.roll()
            n = g.move_count()
            g.play(rng.randrange(n)) if n else g.pass_turn()
        if not m.is_over():
            m.next_game()
    assert max(m.score) >= 5


@pytest.mark.parametrize("rules", [{}, {"blockade_end": "claim"}, {"stage": "per-player"}])
def test_random_self_play_always_ends(rules):
    t = time.perf_counter()
    reasons = set()
    for seed in range(150):
        g = _random_game(seed, **rules)
        r = g.result()
        assert r is not None and g.phase is Phase.OVER
        assert len(g.history) < 4000
        reasons.add(r.reason)
        if r.winner is None:
            assert r.reason != "blockade"
            assert (r.kind, r.value, r.points) == ("draw", 0, 0.5)
        elif r.value == 1:
            assert r.kind == "closed_points" and r.reason != "blockade"
        else:  # a blockade of n points, built or claimed (or unclaimed at another end)
            n = round(r.value ** 0.5)
            assert n >= 2 and r.value == n * n and r.kind == f"blockade_{n}"
            if r.reason == "blockade":
                assert g.variant.status(g.position, 0)["blockade"][r.winner] == n
    assert "blockade" in reasons and len(reasons) >= 2
    assert time.perf_counter() - t < 20


def test_claimed_game_round_trips_through_json_and_text():
    """A claim is an action of its own: JSON replays it; the text form keeps the pass count."""
    import random as _random

    v = nardy.Shlem(blockade_end="claim")
    for seed in range(200):
        g = nardy.Game(v, seed=seed)
        rng = _random.Random(seed)
        while not g.is_game_over():
            if g.can_claim():
                g.claim()
                break
            if g.dice is None:
                g.roll()
            moves = g.legal_moves()
            if moves:
                g.play(rng.randrange(len(moves)))
            else:
                g.pass_turn()
        if g.history and g.history[-1].kind == "claim":
            again = nardy.from_json(nardy.to_json(g))
            assert again.result() == g.result()
            assert again.result().reason == "blockade"
            return
    pytest.fail("no random game reached a claimable blockade")
