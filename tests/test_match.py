"""Tests of nardy.Match: match score, the Crawford rule, post-Crawford games, money play.

Expected values follow seed 000 («Матчи, moneygame и командная игра в нарды», lines 75-80; the
Nardegammon part, lines 94-97; glossary «Правило Кроуфорда») as read in
docs/rules/games-and-matches.md: a match is won by the first to reach N points; the first game
after a player reaches N - 1 is the Crawford game, played without the cube; later games are
post-Crawford. None of the expected values was taken from the code's output.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import (
    BLACK,
    WHITE,
    CubeError,
    Game,
    GameStateError,
    InvalidRuleError,
    Match,
    Phase,
)


def win(m: Match, winner: int, level: int = 1, doubles: int = 0) -> Game:
    """Ends the current game with a win of ``winner``: the loser starts (opening throw), the
    winner's side doubles ``doubles`` times on its turns (the loser takes), then the loser
    resigns a win of ``level`` and the winner accepts."""
    g = m.game
    loser = 1 - winner
    g.roll((1, 6) if winner == WHITE else (6, 1))        # the loser throws the higher die
    assert g.starter == loser
    for _ in range(doubles):
        while not (g.phase is Phase.ROLL and g.turn == winner):
            step(g)
        g.double()
        g.take()
    while not (g.phase in (Phase.ROLL, Phase.MOVE) and g.turn == loser):
        step(g)
    g.resign(level)
    g.accept()
    assert g.winner() == winner
    return g


def step(g: Game) -> None:
    if g.phase is Phase.MOVE:
        g.play(0) if g.move_count() else g.pass_turn()
    else:
        g.roll()


def test_match_score_and_winner():
    m = Match(3, "backgammon", seed=1)
    assert m.score == (0, 0) and not m.is_over() and m.winner() is None
    win(m, WHITE, 1)
    assert m.score == (1, 0)
    with pytest.raises(GameStateError):
        m.game.roll()                                  # the game is over
    m.next_game()
    win(m, BLACK, 2)                                   # a gammon: 2 points
    assert m.score == (1, 2) and m.away(WHITE) == 2 and m.away(BLACK) == 1
    m.next_game()
    win(m, WHITE, 3)                                   # a backgammon: 3 points, 4 >= 3
    assert m.score == (4, 2) and m.is_over() and m.winner() == WHITE
    with pytest.raises(GameStateError):
        m.next_game()                                  # the match is over
    assert len(m.games) == 3


def test_next_game_only_after_the_end():
    m = Match(5, "backgammon", seed=1)
    with pytest.raises(GameStateError):
        m.next_game()
    win(m, WHITE)
    m.next_game()
    with pytest.raises(GameStateError):
        m.games[0].undo()                              # a finished game of the match is final


def test_crawford_and_post_crawford():
    m = Match(5, "backgammon", seed=2)
    win(m, WHITE, 2)
    m.next_game()
    assert not m.is_crawford                           # 2-0: nobody at 4
    win(m, WHITE, 2)
    assert m.score == (4, 0)
    g = m.next_game()                                  # white is one point short: Crawford
    assert m.is_crawford and g.crawford and not g.cube_in_play
    assert m.crawford_game == 2
    g.roll((6, 1))                                     # white starts, then black is on roll
    g.play(0)
    assert g.phase is Phase.ROLL and g.turn == BLACK
    assert not g.can_double()
    with pytest.raises(CubeError):
        g.double()                                     # the trailer may not double
    g.resign(1)                                        # black resigns a single game
    g.accept()
    assert m.score == (5, 0) and m.winner() == WHITE


def test_crawford_game_lost_by_the_leader():
    m = Match(5, "backgammon", seed=3)
    win(m, WHITE, 2)
    m.next_game()
    win(m, WHITE, 2)                                   # 4-0
    m.next_game()
    assert m.is_crawford
    win(m, BLACK, 1)                                   # the trailer wins the Crawford game
    assert m.score == (4, 1)
    g = m.next_game()
    # seed 000: «В случае вашего выигрыша партии, в следующей вы уже можете удвоить ставки»
    assert not m.is_crawford and m.is_post_crawford and g.cube_in_play
    g.roll((1, 6))                                     # black starts
    g.play(0)
    g.double()                                         # white may double post-Crawford
    g.take()
    assert g.cube_value == 2
    g.roll()
    g.play(0) if g.move_count() else g.pass_turn()
    g.double()                                         # and black redouble
    g.drop()                                           # white drops: black wins 2
    assert m.score == (4, 3)
    g = m.next_game()
    assert not m.is_crawford and m.is_post_crawford
    win(m, BLACK, 1)                                   # 4-4: black at N-1 too, but the
    g = m.next_game()                                  # Crawford game has been played
    assert not m.is_crawford and m.is_post_crawford and g.cube_in_play
    assert m.crawford_game == 2
    win(m, BLACK, 1)
    assert m.score == (4, 5) and m.winner() == BLACK


def test_crawford_after_a_jump_to_match_point():
    # white goes from 0 to 4 in one game (a gammon on a doubled cube): the next is Crawford
    m = Match(5, "backgammon", seed=4)
    g = win(m, WHITE, 2, doubles=1)
    assert (g.result().cube, g.result().points) == (2, 4)
    m.next_game()
    assert m.is_crawford


def test_crawford_in_a_one_point_match():
    # «Если до победы в матче одному из игроков осталось 1 очко» holds at 0-0 in a match to 1
    m = Match(1, "backgammon", seed=5)
    assert m.is_crawford and not m.game.cube_in_play


def test_no_crawford_when_disabled():
    m = Match(5, "backgammon", seed=6, crawford=False)
    win(m, WHITE, 2)
    m.next_game()
    win(m, WHITE, 2)
    g = m.next_game()
    assert not m.is_crawford and g.cube_in_play and m.crawford_game is None


def test_no_mars_with_cube_is_lifted_in_the_crawford_game():
    # seed 002: «‘Марса’ при игре в короткие нарды с даве нет» - when the cube is in play
    m = Match(3, "backgammon", seed=7, no_mars_with_cube=True)
    g = win(m, WHITE, 2)                               # a resigned gammon counts single
    assert (g.result().kind, g.result().points) == ("gammon", 1)
    m.next_game()
    win(m, WHITE, 1)                                   # 2-0: white one point short
    g = m.next_game()
    assert m.is_crawford
    g = win(m, BLACK, 2)                               # no cube in play: the gammon counts
    assert g.result().points == 2 and m.score == (2, 2)


def test_money_play():
    m = Match(0, "backgammon", seed=8, jacoby=True, beaver=True)
    assert m.is_money and not m.is_over() and not m.crawford_rule
    for i in range(6):
        g = win(m, i % 2, 2)
        # Jacoby: no double was taken, so the gammon counts one point
        assert g.result().points == 1
        assert not m.is_over()
        m.next_game()
    assert m.score == (3, 3) and m.winner() is None
    g = win(m, WHITE, 2, doubles=1)                    # with the cube turned it counts 2 x 2
    assert g.result().points == 4 and m.score == (7, 3)
    with pytest.raises(GameStateError):
        m.away(WHITE)


def test_money_options_refused_in_matches():
    for opt in ({"jacoby": True}, {"beaver": True}, {"auto_doubles": 1}):
        with pytest.raises(InvalidRuleError):
            Match(5, "backgammon", **opt)
        Match(0, "backgammon", **opt)                  # fine in money play
    with pytest.raises(InvalidRuleError):
        Match(-1, "backgammon")


def test_nardegammon_match():
    # seed 000 Nardegammon: long nardy, matches with the cube, Crawford rule, no draw
    m = Match(3, "long-nardy", seed=9, cube=True, opening_roll="rolloff")
    win(m, WHITE, 2)                                   # a mars: 2 points
    assert m.score == (2, 0)
    g = m.next_game()
    assert m.is_crawford and not g.cube_in_play
    m2 = Match(3, "long-nardy", seed=9)                # classical long nardy: no cube at all
    assert not m2.game.cube_in_play


# ------------------------------------------------------------------------------------------
# Property test: random matches
# ------------------------------------------------------------------------------------------

def random_step(g: Game, rng: random.Random) -> None:
    p = g.phase
    if p is Phase.ROLL:
        x = rng.random()
        if x < 0.15 and g.can_double():
            g.double()
        elif x < 0.17 and not g.is_last_roll:
            g.resign(rng.randint(1, len(g.scoring.kinds)))
        else:
            g.roll()
    elif p is Phase.DOUBLED:
        g.take() if rng.random() < 0.6 else g.drop()
    elif p is Phase.RESIGNED:
        g.accept() if rng.random() < 0.5 else g.decline()
    elif p is Phase.MOVE:
        n = g.move_count()
        g.play(rng.randrange(n)) if n else g.pass_turn()
    else:
        g.roll()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(1, 9),
       variant=st.sampled_from(["backgammon", "long-nardy"]))
def test_random_matches(seed, length, variant):
    rng = random.Random(seed)
    m = Match(length, variant, seed=seed, cube=True)
    totals = [0, 0]
    reached_match_point = None                         # index of the game after it
    while True:
        g = m.game
        score_before = m.score
        if reached_match_point is None and any(s == length - 1 for s in score_before):
            reached_match_point = len(m.games) - 1
        for _ in range(30000):
            if g.is_game_over():
                break
            random_step(g, rng)
        assert g.is_game_over()
        r = g.result()
        if r.reason == "bear-off":
            assert g.position.borne_off(r.winner) == 15
        # the Crawford game is the first game after a player reached N - 1; no cube in it
        if g.crawford:
            assert len(m.games) - 1 == reached_match_point
            assert not any(a.kind == "double" for a in g.history)
            assert r.cube == 1
        totals[WHITE] += r.points_for(WHITE)
        totals[BLACK] += r.points_for(BLACK)
        assert m.score == tuple(totals)                # the score is the sum of the games
        if m.is_over():
            break
        m.next_game()
    assert max(m.score) >= length and m.winner() == (WHITE if m.score[WHITE] >= length else BLACK)
    assert min(m.score) < length
    assert m.crawford_game == reached_match_point
