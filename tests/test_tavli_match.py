"""Matches that rotate variants game by game: Greek tavli (Portes, Plakoto, Fevga in turn,
each game scored as its variant scores, the winner of a game starting the next) and any
rotation given as ``Match(variant_rotation=...)``."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import nardy
from nardy import Match, Phase
from tests.test_game_strings import step


def play_out(m: Match, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200_000):
        if m.is_over():
            return
        if m.game.is_game_over():
            m.next_game()
        else:
            step(m.game, rng)
    raise AssertionError("the match did not end")


def expected_points(g: nardy.Game) -> float:
    """The rules' value of a finished game, from its final position (docs/rules: Portes P3,
    Plakoto R8 and M1, Fevga): 2 when the loser has borne off no checker or (Plakoto) lost
    with his mother pinned, else 1; no triple win."""
    loser = 1 - g.winner()
    side = g.position.side(loser)
    if g.variant.name == "plakoto" and side[23] == -1:
        return 2
    return 2 if side[25] == 0 else 1


@pytest.mark.parametrize("seed", range(6))
def test_tavli_rotates_scores_per_variant_and_the_winner_starts(seed):
    m = Match.tavli(5, seed=seed)
    assert [v.name for v in m.variant_rotation] == ["portes", "plakoto", "fevga"]
    play_out(m, seed)
    names = [g.variant.name for g in m.games]
    assert names == [("portes", "plakoto", "fevga")[k % 3] for k in range(len(m.games))]
    white = black = 0.0
    for k, g in enumerate(m.games):
        assert not g.cube_in_play and not g.crawford
        assert g.rules == nardy.GameRules().resolve(g.variant)   # the variant's own scoring
        prev = m.games[k - 1] if k else None
        if prev is not None and prev.winner() is not None:
            # no opening throw: the previous winner is on roll in the variant's start
            assert g.history[0].kind != "opening"
            assert g.start_position == nardy.Position.from_colors(
                g.variant, nardy.Position.start(g.variant).side(nardy.WHITE),
                nardy.Position.start(g.variant).side(nardy.BLACK), prev.winner())
            assert g.starter == prev.winner()
        else:                                # the first game, or after a draw
            assert g.history[0].kind == "opening"
        r = g.result()
        if r.winner is None:                 # Plakoto's draw, both mothers pinned
            assert g.variant.name == "plakoto" and r.kind == "draw"
        else:
            assert r.points == expected_points(g)
        white += r.points_for(nardy.WHITE)
        black += r.points_for(nardy.BLACK)
    assert m.score == (white, black)
    assert max(m.score) >= 5 and m.is_over()
    assert m.winner() == (nardy.WHITE if white >= 5 else nardy.BLACK)


def test_every_variant_of_the_rotation_is_reached():
    m = Match.tavli(15, seed=3)
    play_out(m, 3)
    assert {g.variant.name for g in m.games} == {"portes", "plakoto", "fevga"}
    assert len(m.games) >= 4


def test_a_rotation_keeps_the_cube_and_crawford_of_its_variants():
    m = Match(3, variant_rotation=["backgammon", "nackgammon"], seed=2)
    assert m.variant.name == "backgammon" and m.game.cube_in_play
    play_out(m, 2)
    assert [g.variant.name for g in m.games] == [
        ("backgammon", "nackgammon")[k % 2] for k in range(len(m.games))]
    assert sum(g.crawford for g in m.games) <= 1
    assert all(g.history[0].kind == "opening" for g in m.games)   # winner_starts is off


def test_copy_and_pickle_keep_the_rotation():
    m = Match.tavli(3, seed=1)
    play_out(m, 1)
    for c in (copy.copy(m), pickle.loads(pickle.dumps(m))):
        assert c.variant_rotation == m.variant_rotation and c.winner_starts
        assert c.score == m.score and [g.variant for g in c.games] == [g.variant for g in m.games]


@pytest.mark.parametrize("kwargs", [
    {"variant_rotation": "portes"},
    {"variant_rotation": []},
    {"variant_rotation": ["portes", "no-such-game"]},
    {"variant_rotation": ["portes", "plakoto"], "variant": "fevga"},
    {"variant_rotation": ["portes"], "winner_starts": "yes"},
])
def test_bad_rotations_raise_nardy_errors(kwargs):
    with pytest.raises(nardy.Error):
        Match(5, **kwargs)


def test_one_variant_formats_refuse_a_rotation():
    m = Match.tavli(3, seed=4)
    play_out(m, 4)
    for write in (nardy.to_json, nardy.formats.write_record):
        with pytest.raises(nardy.Error):
            write(m)
