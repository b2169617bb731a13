"""The opening has the same shape in every variant: roll() leads to dice to play, and the loop
of docs/games.md plays any variant to the end."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import nardy
from nardy import BLACK, WHITE, Game, Phase

DOC = Path(__file__).resolve().parents[1] / "docs" / "games.md"


def _doc_loop() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    loops = [b for b in blocks if "def play_to_the_end" in b]
    assert len(loops) == 1
    return loops[0]


def _doc_function():
    code = _doc_loop().split("for variant in nardy.VARIANTS")[0]
    scope: dict = {}
    exec(compile(code, str(DOC), "exec"), scope)
    return scope["play_to_the_end"]


def test_the_documented_loop_runs_as_written(capsys):
    exec(compile(_doc_loop(), str(DOC), "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == [v.name for v in nardy.VARIANTS]


RULES = [{}, {"opening_roll": "fresh"}, {"opening_roll": "rolloff"}]


@pytest.mark.parametrize("variant", [v.name for v in nardy.VARIANTS])
@pytest.mark.parametrize("rules", RULES, ids=["default", "fresh", "rolloff"])
def test_the_documented_loop_plays_every_variant_to_the_end(variant, rules):
    play = _doc_function()
    # Gul bara's doubles cascade lists millions of moves in about a third of random games
    # (a low double early on, docs/rules/gul-bara.md): seeds whose games stay small
    seeds = (0, 4) if nardy.find_variant(variant).sequence_turns else range(3)
    for seed in seeds:
        r = play(variant, seed=seed, **rules)
        assert isinstance(r, nardy.Result)
        assert r.winner in (WHITE, BLACK, None)
        # the same seed gives the same game
        assert play(variant, seed=seed, **rules) == r


def test_shlem_with_claims_ends_in_the_loop_too():
    r = _doc_function()(nardy.Shlem(blockade_end="claim"), seed=4)
    assert isinstance(r, nardy.Result)


@pytest.mark.parametrize("variant", [v.name for v in nardy.VARIANTS])
@pytest.mark.parametrize("opening", ["rolloff", "fresh"])
def test_roll_leads_from_the_opening_to_dice(variant, opening):
    for seed in range(30):
        g = Game(variant, seed=seed, opening_roll=opening)
        g.roll()
        assert g.phase is Phase.MOVE and g.dice is not None and g.turn == g.starter
        kinds = [a.kind for a in g.history]
        # ties re-thrown, then (fresh) the starter's own throw
        n_open = kinds.count("opening")
        assert kinds == ["opening"] * n_open + (["roll"] if opening == "fresh" else [])
        throws = [a.dice for a in g.history if a.kind == "opening"]
        assert all(w == b for w, b in throws[:-1]) and throws[-1][0] != throws[-1][1]
        w, b = throws[-1]
        assert g.starter == (WHITE if w > b else BLACK)
        if opening == "rolloff":
            assert sorted(g.dice) == sorted((w, b))
        else:
            assert g.history[-1].dice == g.dice and g.history[-1].player == g.starter


def test_fresh_opening_dice_come_from_the_same_stream():
    # the implicit fresh opening throws exactly what an opening throw plus a roll would
    for seed in range(20):
        a = Game("long-nardy", seed=seed)
        a.roll()
        b = Game("long-nardy", seed=seed)
        rng = random.Random(seed)
        while True:
            w, bl = int(rng.random() * 6) + 1, int(rng.random() * 6) + 1
            b.roll((w, bl))
            if w != bl:
                break
        b.roll((int(rng.random() * 6) + 1, int(rng.random() * 6) + 1))
        assert a.history == b.history and a.dice == b.dice


def test_explicit_dice_keep_one_throw_per_call_and_the_double_before_the_first_roll():
    g = Game("long-nardy", seed=0, cube=True)
    g.roll((4, 4))
    assert g.phase is Phase.OPENING
    g.roll((2, 5))
    assert g.phase is Phase.ROLL and g.turn == BLACK and g.dice is None
    assert g.can_double()
    g.roll((6, 6))
    assert g.phase is Phase.MOVE and g.dice == (6, 6)


def test_undo_takes_back_the_fresh_throw_first_and_keeps_the_dice():
    g = Game("long-nardy", seed=7)
    g.roll()
    first = g.history
    assert g.undo().kind == "roll" and g.phase is Phase.ROLL
    assert g.undo().kind == "opening" and g.phase is Phase.OPENING
    g.roll()
    assert g.history == first
