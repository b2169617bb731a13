"""Whose turns Gul bara's cascade counts (docs/rules/gul-bara.md, option ``cascade_count``):
each player's own turns (the default), or the game's rolls over both players (Eighty Games:
doubles are played plainly during the first three rolls of the game, and cascade after).
The expectations below are written from those sentences, roll by roll."""

from __future__ import annotations

import pytest

import nardy

EACH = nardy.GulBara()
ROLLS = nardy.GulBara(cascade_count="game-rolls")


def _plays(game: nardy.Game, dice: tuple[int, int]) -> int:
    """Rolls ``dice`` and plays the first legal move; returns the dice the turn plays."""
    game.roll(dice)
    moves = game.legal_moves()
    played = moves.played
    game.play(moves[0])
    return played


def _cascades(variant: nardy.Variant, starter_on_roll: bool = True) -> list[bool]:
    """Whether a 5-5 cascades on each of the game's first six rolls (5-5, then 6-6: eight
    dice), the rolls between them 1-2s (the game from the start, its player on roll the
    starter or, with ``starter_on_roll`` False, the second roller)."""
    out = []
    for roll in range(6):
        start = nardy.Position.start(variant)
        game = nardy.Game(variant, seed=1, position=start,
                          starter=None if starter_on_roll else 1 - start.turn)
        for _ in range(roll):
            _plays(game, (1, 2))
        played = _plays(game, (5, 5))
        assert played in (4, 8)
        out.append(played == 8)
    return out


def test_each_player_counts_his_own_turns():
    # rolls 1..6 of the game are turns 1, 1, 2, 2, 3, 3: the third turn of each cascades
    assert _cascades(EACH) == [False, False, False, False, True, True]


def test_game_rolls_cascade_after_the_first_three_rolls_of_the_game():
    assert _cascades(ROLLS) == [False, False, False, True, True, True]


def test_a_game_whose_player_on_roll_rolled_second_counts_from_the_starter():
    # the starter has had his first turn: this is the game's roll 2, then 3, 4, ...
    assert _cascades(EACH, starter_on_roll=False) == [False, False, False, True, True, True]
    assert _cascades(ROLLS, starter_on_roll=False) == [False, False, True, True, True, True]


def test_the_turn_number_is_each_players_own_either_way():
    for variant in (EACH, ROLLS):
        game = nardy.Game(variant, seed=1, position=nardy.Position.start(variant))
        seen = []
        for _ in range(4):
            seen.append(game.turn_number)
            _plays(game, (1, 2))
        assert seen == [1, 1, 2, 2]


def test_the_engine_counts_as_the_option_says():
    assert [EACH.engine.turn_at(1, p) for p in range(6)] == [1, 1, 2, 2, 3, 3]
    assert [ROLLS.engine.turn_at(1, p) for p in range(6)] == [1, 2, 2, 3, 3, 4]
    for bad in ((0, 0), (1, -1)):
        with pytest.raises(nardy.Error):
            ROLLS.engine.turn_at(*bad)


def test_turn_moves_of_the_second_roller():
    start = nardy.Position.start(ROLLS)
    assert start.turn_moves((5, 5), 2).played == 4
    assert start.turn_moves((5, 5), 2, first_roller=False).played == 8
    assert nardy.Position.start(EACH).turn_moves((5, 5), 2, first_roller=False).played == 4
    with pytest.raises(nardy.Error):
        start.turn_moves((5, 5), 2, first_roller="no")


# a constructed middle-to-late position, where a cascade has few results to count
ROOT_TEXT = "W:6x2,4,20,22,offx10 B:11,16x2,8,3,offx10 w"


def _root(variant: nardy.Variant) -> nardy.Position:
    name = nardy.Position.start(variant).to_text().split(" ", 1)[0]
    return nardy.Position.from_text(f"{name} {ROOT_TEXT}")


def test_perft_counts_the_second_rollers_turn_one_ahead():
    # from a root on turn 2, the reply (ply 1) is the second roller's turn 2: the game's roll
    # 4 and a cascade under game-rolls, not under each-player; counted here from the rule
    root = _root(EACH)
    engine = EACH.engine
    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)]

    def children(key: bytes, dice: tuple[int, int], turn: int) -> list[bytes]:
        moves = engine.turn_legal(key, dice[0], dice[1], turn)
        return [nardy._core.swap(k) for k in moves.keys()] if len(moves) else \
            [nardy._core.swap(key)]

    def leaves(reply_turn: int) -> int:
        return sum(len(children(child, d2, reply_turn))
                   for d in rolls for child in children(root.key, d, 2) for d2 in rolls)

    rolls_root = _root(ROLLS)
    expected = leaves(3)
    assert expected != leaves(2)
    assert nardy.perft(rolls_root, 2, first_turn=2) == expected
    assert nardy.perft(root, 2, first_turn=2) == leaves(2)
    assert sum(n for _, n in nardy.divide(rolls_root, 2, first_turn=2)) == expected


def test_divide_hands_the_grandchildren_the_starters_next_turn():
    root = _root(ROLLS)
    for first in (2, 3):
        total = nardy.perft(root, 3, first_turn=first)
        assert sum(n for _, n in nardy.divide(root, 3, first_turn=first)) == total


def test_the_text_form_keeps_who_rolled_first():
    for variant in (EACH, ROLLS):
        start = nardy.Position.start(variant)
        game = nardy.Game(variant, seed=1, position=start, starter=1 - start.turn)
        _plays(game, (1, 2))
        _plays(game, (1, 2))
        text = game.to_text()
        again = nardy.Game.from_text(text)
        assert again.turn_number == game.turn_number
        for g in (game, again):
            g.roll((5, 5))
        assert again.legal_moves().played == game.legal_moves().played


def test_rollouts_count_as_the_option_says():
    # the same seeded games, but the second roller's turn 2 cascades under game-rolls
    each = nardy.rollout(nardy.Position.start(EACH), 300, seed=3)
    rolls = nardy.rollout(nardy.Position.start(ROLLS), 300, seed=3)
    assert each.plies != rolls.plies
