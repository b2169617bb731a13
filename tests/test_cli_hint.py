"""``nardy hint``: the moves of a roll ranked by nardy.search, as text and JSON."""

from __future__ import annotations

import json

import pytest

import nardy
from nardy import cli, search


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_hint_lists_the_search_ranking(capsys):
    code, out, _ = run(capsys, "hint", "4HPwATDgc/ABMA", "31", "--evaluator", "pubeval",
                       "--plies", "0", "--top", "0")
    assert code == 0
    want = search.rank_moves(nardy.Position(), (3, 1), "pubeval", 0)
    lines = [line for line in out.splitlines() if line[:4].strip().endswith(".")]
    assert len(lines) == 16 == len(want)
    for line, c in zip(lines, want):
        assert line.split()[1:3] == str(c.move).split()[:2] or str(c.move) in line
        assert f"{c.equity:+.4f}" in line
    assert "8/5 6/5" in lines[0]


def test_hint_json_and_default_evaluator(capsys):
    code, out, _ = run(capsys, "hint", "long-nardy", "65", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["evaluator"] == "long_nardy" and doc["plies"] == 1
    assert doc["moves"][0]["move"] == "24/13"
    assert set(doc["moves"][0]["probabilities"]) == {"win", "win_mars", "lose_mars"}


@pytest.mark.parametrize("argv,match", [
    (["hint", "long-nardy", "31", "--evaluator", "pubeval"], "pubeval"),
    (["hint", "shlem", "31"], "shlem"),
    (["hint", "backgammon", "71"], "dice"),
    (["hint", "backgammon", "31", "--top", "-1"], "top"),
])
def test_hint_bad_input_exits_2(capsys, argv, match):
    code, _, err = run(capsys, *argv)
    assert code == 2 and match in err
