"""Tavla and Portes: backgammon's movement from backgammon's setup with their own scoring,
cube and opening (docs/rules/tavla.md, portes.md). The moves are checked against the
pure-Python backgammon reference (tests/reference/backgammon_ref.py, written from the rules,
not from the core) on reference games x all 21 rolls; every rule of the two pages is a test
on a constructed position or game. NARDY_SLOW=1 checks 5,000 positions instead of 600."""

from __future__ import annotations

import json
import os

import pytest

import nardy
from nardy import _core, svg, textboard
from nardy.formats import jsonform

try:
    from tests.reference import backgammon_family as F
    from tests.reference import backgammon_ref as R
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import backgammon_family as F  # type: ignore[no-redef]
    from reference import backgammon_ref as R  # type: ignore[no-redef]

SLOW = os.environ.get("NARDY_SLOW") == "1"
N_POSITIONS = 5000 if SLOW else 600
CLASSES = (nardy.Tavla, nardy.Portes)
# 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6 (index = point - 1), as the pages say
START = F.side_of({23: 2, 12: 5, 7: 3, 5: 5})


@pytest.fixture(scope="module")
def positions():
    return R.random_positions(N_POSITIONS, seed=20261222)


def _loser_gammoned_with_bar():
    """A finished position, the loser on roll: none borne off, one checker on the bar and
    one in the winner's home board (a backgammon in backgammon)."""
    won = F.side_of({25: 15})
    lost = F.side_of({24: 1, 20: 1, 5: 13})
    return lost, won


@pytest.mark.parametrize("cls", CLASSES)
def test_setup_and_names(cls):
    v = cls()
    assert v.initial_side() == START
    info = _core.variant_info(v.core_variant)
    assert tuple(info["start"]) == START and info["checkers"] == 15
    assert nardy.find_variant(cls.name) is cls
    for alias in cls.aliases:
        assert nardy.find_variant(alias.upper()) is cls


def test_ids_follow_the_registry_order():
    assert int(_core.Variant.TAVLA) == 5 and int(_core.Variant.PORTES) == 6


@pytest.mark.parametrize("cls", CLASSES)
def test_core_vs_reference_all_rolls(cls, positions):
    # T1 / P1: backgammon's movement, hitting, bar and bearing off
    assert len(positions) >= N_POSITIONS
    assert {R.phase(m, o) for m, o in positions} == {"bar", "bearoff", "contact", "race"}
    failures = F.compare_with_reference(cls(), positions)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("cls", CLASSES)
def test_core_vs_gnubg(cls, positions):
    # T1 / P1 against another engine: GNU Backgammon's move generator plays backgammon's
    # movement, which both games keep unchanged (Tavla's hit-and-run option is off by default)
    gnubg = pytest.importorskip("gnubg")
    failures = F.compare_with_gnubg(gnubg, cls(), positions[:600], rolls_each=3, seed=5)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("cls", CLASSES)
def test_hitting_sends_a_blot_to_the_bar(cls):
    # T1 / P1 on a constructed position: the 1 of 6-1 from the 8-point hits the blot on the
    # 7-point (opponent index 23 - 6 = 17)
    mover = F.side_of({7: 2, 5: 13})
    opponent = F.side_of({17: 1, 0: 14})
    got = set(F.core_results(cls(), mover, opponent, (6, 1)))
    assert got == R.legal_results(mover, opponent, (6, 1))
    hit = [(m, o) for m, o in got if o[24] == 1]
    assert hit and all(o[17] == 0 for _, o in hit)


@pytest.mark.parametrize("cls", CLASSES)
def test_no_backgammon_in_the_core_results(cls):
    # T3, T4 / P3: none off is a gammon (2), whatever is on the bar or in the winner's home
    lost, won = _loser_gammoned_with_bar()
    eng = cls().engine
    assert eng.game_end(_core.encode(lost, won)) == (-1, "gammon", 2)
    assert eng.game_end(_core.encode(F.side_of({5: 14, 25: 1}), won)) == (-1, "single", 1)
    # backgammon itself counts the same position a backgammon
    assert nardy.Backgammon().engine.game_end(_core.encode(lost, won)) == (-1, "backgammon", 3)
    assert tuple(_core.variant_info(cls.core_variant)["kinds"]) == ("single", "gammon")


@pytest.mark.parametrize("cls", CLASSES)
def test_scoring_single_gammon(cls):
    s = nardy.find_scoring(cls().default_scoring)
    assert s.name == "single_gammon" and s.kinds == (("single", 1), ("gammon", 2))
    lost, _ = _loser_gammoned_with_bar()
    assert s.classify(lost) == 1
    assert s.classify(F.side_of({24: 1, 5: 13, 25: 1})) == 0
    assert s.level("mars") == 1
    with pytest.raises(nardy.InvalidRuleError):
        s.level("backgammon")  # there is no third level


def test_portes_may_choose_backgammons_scoring():
    assert nardy.Portes.scorings == ("single_gammon", "standard")
    rules = nardy.GameRules(scoring="standard").resolve(nardy.Portes()) \
        if hasattr(nardy.GameRules, "resolve") else None
    lost, _ = _loser_gammoned_with_bar()
    assert nardy.find_scoring("standard").classify(lost) == 2
    assert rules is None or rules.scoring == "standard"
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Game(nardy.Tavla(), nardy.GameRules(scoring="standard"))


def test_tavla_has_no_cube_portes_by_choice():
    # T5: no cube in Tavla; P4: none by default in Portes, allowed when chosen
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Game(nardy.Tavla(), nardy.GameRules(cube=True))
    assert not nardy.Game(nardy.Tavla()).cube_in_play
    assert not nardy.Game(nardy.Portes()).cube_in_play
    assert nardy.Game(nardy.Portes(), nardy.GameRules(cube=True)).cube_in_play


@pytest.mark.parametrize("cls", CLASSES)
def test_opening_winner_throws_both_dice_anew(cls):
    # T2 / P2: the opening throw picks the starter only; a double may open the game
    g = nardy.Game(cls(), seed=1)
    assert g.rules.opening_roll == "fresh"
    seen_double = False
    for seed in range(60):
        g = nardy.Game(cls(), seed=seed)
        g.roll((3, 5))  # the opening throw (white's die, black's die): black starts
        assert g.phase == "roll" and g.turn == nardy.BLACK and g.dice is None
        g.roll()  # the starter's own first throw, two new dice
        assert g.phase == "move" and g.turn == nardy.BLACK
        d = g.dice
        seen_double |= d[0] == d[1]
        assert [a.kind for a in g.history] == ["opening", "roll"]
    assert seen_double


@pytest.mark.parametrize("cls", CLASSES)
def test_games_play_to_the_end_with_the_variant_scoring(cls):
    kinds = set()
    for seed in range(12):
        g = nardy.Game(cls(), seed=seed)
        while not g.is_game_over():
            if g.phase in ("opening", "roll"):
                g.roll()
                continue
            moves = g.legal_moves()
            if len(moves):
                g.play(moves[len(moves) // 2])
            else:
                g.pass_turn()
        r = g.result()
        assert r.kind in ("single", "gammon") and r.value == {"single": 1, "gammon": 2}[r.kind]
        assert g.position.borne_off(r.winner) == 15
        loser = g.position.side(1 - r.winner)
        assert (r.kind == "gammon") == (loser[25] == 0)
        kinds.add(r.kind)
    assert kinds == {"single", "gammon"}


@pytest.mark.parametrize("cls", CLASSES)
def test_rollouts_count_singles_and_gammons(cls):
    res = nardy.rollout(cls(), 400, "random", seed=5, threads=1)
    assert res.kinds == ("single", "gammon")
    assert res.games == 400 and res.unfinished == 0 and res.draws == 0
    assert sum(res.wins[0]) + sum(res.wins[1]) == 400
    assert res.points == (res.wins[0][0] + 2 * res.wins[0][1]) - (res.wins[1][0] + 2 * res.wins[1][1])


@pytest.mark.parametrize("cls", CLASSES)
def test_reference_perft_from_the_start(cls):
    # tests/perft/<variant>.perft takes depth 3 from the reference; depths 1-2 here, again
    pos = nardy.Position(cls())
    assert nardy.perft(pos, 1) == R.perft(R.initial(), 1) == 447
    assert nardy.perft(pos, 2) == R.perft(R.initial(), 2) == 202782


@pytest.mark.parametrize("cls", CLASSES)
def test_text_json_ids_and_pictures(cls):
    v = cls()
    pos = nardy.Position(v)
    for _ in range(7):
        moves = pos.legal_moves((6, 3))
        pos = pos.play(moves[0], (6, 3)) if moves else pos.pass_turn()
    text = pos.to_text()
    assert text.startswith(cls.name) or cls.name in text
    assert nardy.Position.from_text(text) == pos
    assert nardy.parse_position(text) == pos
    assert jsonform.from_json(json.loads(json.dumps(jsonform.to_json(pos)))) == pos
    # gnubg's IDs describe the board (15 checkers, backgammon's geometry)
    assert v.gnubg_ids
    assert nardy.Position.from_position_id(pos.to_position_id(), v, pos.turn) == pos
    assert nardy.Position.from_xgid(pos.to_xgid(), v) == pos
    assert svg.board(pos).startswith("<svg")
    assert svg.board(nardy.Position(v)).count("<circle") == 30  # every checker drawn
    picture = textboard.board(nardy.Position(v))
    assert picture.startswith(f" {cls.name}: white to move") and "pips 167" in picture
