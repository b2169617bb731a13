"""game.py is split along its seams: each rule family lives in its own module, and every
public name stays importable from nardy.game (and nardy) as before."""

from __future__ import annotations

import pickle

import pytest

import nardy
import nardy.game as game

HOMES = {
    "nardy.cube": ["double", "take", "drop", "beaver", "raccoon", "can_double", "cube_value",
                   "cube_owner", "cube_in_play"],
    "nardy.phases": ["roll", "play", "pass_turn", "resign", "accept", "decline", "claim"],
    "nardy.game": ["__init__", "undo", "replay", "apply", "legal_moves"],
}


@pytest.mark.parametrize("module", sorted(HOMES))
def test_each_action_lives_in_its_module(module):
    for name in HOMES[module]:
        attr = getattr(nardy.Game, name)
        fn = attr.fget if isinstance(attr, property) else getattr(attr, "__func__", attr)
        assert fn.__module__ == module, (name, fn.__module__)


def test_public_names_stay_where_they_were():
    from nardy import cube, phases, results, rules, scoring

    for name in game.__all__:
        assert hasattr(game, name), name
    assert game.GameRules is rules.GameRules and nardy.GameRules is rules.GameRules
    assert game.Phase is phases.Phase and game.Action is results.Action
    assert game.Result is results.Result and game.find_scoring is scoring.find_scoring
    assert game.SCORINGS is scoring.SCORINGS and game.GEOMETRIC == cube.GEOMETRIC
    assert (game.ROLLOFF, game.FRESH) == ("rolloff", "fresh")
    assert game._make_rules is rules._make_rules    # nardy.match reads it here
    assert cube.stake("geometric", 3) == 8 and cube.stake("arithmetic", 3) == 4


def test_a_split_game_pickles_and_replays():
    g = nardy.Game("backgammon", seed=11)
    g.roll()
    g.play(0)
    g.double()
    g.take()
    h = pickle.loads(pickle.dumps(g))
    assert h.history == g.history and h.cube_value == 2 and h.phase is nardy.Phase.ROLL
    assert g.replayed().history == g.history
