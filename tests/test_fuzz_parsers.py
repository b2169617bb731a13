"""Hostile input to every parser: whatever the text (random, mutated from a valid example,
or huge), a parser returns a value or raises a nardy.Error subclass, never anything else,
and input over a documented limit fails at once."""

from __future__ import annotations

import copy
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nardy
from nardy import _validate
from nardy.formats import (
    OPENING_POSITION_ID,
    OPENING_XGID,
    decode_match_id,
    decode_position_id,
    decode_xgid,
    parse_fibs_board,
)
from nardy.formats.mat import read_mat, write_mat
from nardy.formats.nardyrec import read_record, write_record
from nardy.formats.sgf import read_sgf, write_sgf

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _game_text() -> dict[str, str]:
    g = nardy.Game("backgammon", seed=3)
    for _ in range(30):
        if g.is_game_over():
            break
        g.roll()
        moves = g.legal_moves()
        if moves:
            g.play(moves[0])
        else:
            g.pass_turn()
    out = {"text": nardy.to_text(g)}
    for name, write in (("mat", write_mat), ("sgf", write_sgf), ("record", write_record)):
        try:
            out[name] = write(g)
        except (nardy.Error, TypeError, AttributeError):
            pass
    return out


EXAMPLES = _game_text()
FIBS = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:"
        "6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")

XGID_STATE = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:2:4:0:7:10"
GNUBG_STATE = nardy.Match.from_xgid(XGID_STATE).to_gnubg_id()
MATCH_TEXT = nardy.Match.from_xgid(XGID_STATE).to_text()
GAME_JSON = nardy.Match.from_xgid(XGID_STATE).game.to_json()

PARSERS = {
    "from_text": (nardy.from_text, EXAMPLES["text"]),
    "position_id": (decode_position_id, OPENING_POSITION_ID),
    "match_id": (decode_match_id, "cAgAAAAAAAAA"),
    "xgid": (decode_xgid, OPENING_XGID),
    "fibs": (parse_fibs_board, FIBS),
    "mat": (read_mat, EXAMPLES.get("mat", "; [Site \"x\"]\n 3 point match\n")),
    "sgf": (read_sgf, EXAMPLES.get("sgf", "(;FF[4]GM[6])")),
    "record": (read_record, EXAMPLES.get("record", "")),
    "parse_move": (lambda s: nardy.Position().parse_move(s, (3, 1)), "8/5 6/5"),
    "notation": (lambda s: nardy.Move.from_notation(s, nardy.Shlem(), nardy.BLACK), "41/42"),
    "notation-long": (lambda s: nardy.Move.from_notation(s, "long-nardy"), "24/21 24/23"),
    "game-xgid": (nardy.Game.from_xgid, XGID_STATE),
    "match-xgid": (nardy.Match.from_xgid, XGID_STATE),
    "game-gnubg": (nardy.Game.from_gnubg_id, GNUBG_STATE),
    "match-gnubg": (nardy.Match.from_gnubg_id, GNUBG_STATE),
    "game-fibs": (nardy.Game.from_fibs, FIBS),
    "match-fibs": (nardy.Match.from_fibs, FIBS),
    "game-text": (nardy.Game.from_text, MATCH_TEXT),
    "match-text": (nardy.Match.from_text, MATCH_TEXT),
    "game-json": (nardy.Game.from_json, GAME_JSON),
    "parse_game": (nardy.parse_game, XGID_STATE),
    "parse_match": (nardy.parse_match, MATCH_TEXT),
}


def _call(parse, text):
    try:
        parse(text)
    except nardy.Error as e:
        assert str(e)


@st.composite
def _mutated(draw, base: str) -> str:
    chars = list(base)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "dup"]))
        at = draw(st.integers(0, len(chars)))
        if op == "insert":
            chars.insert(at, draw(st.characters()))
        elif op == "delete" and chars:
            del chars[min(at, len(chars) - 1)]
        elif op == "replace" and chars:
            chars[min(at, len(chars) - 1)] = draw(st.sampled_from(
                list("0123456789/:*()[];xXbBwW-+ \n\t²٣") + [draw(st.characters())]))
        elif op == "dup":
            chars[at:at] = chars[max(0, at - 5):at]
    return "".join(chars)


@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(data=st.data())
def test_parsers_raise_only_nardy_errors(name, data):
    parse, example = PARSERS[name]
    text = data.draw(st.one_of(st.text(max_size=60), _mutated(example)))
    _call(parse, text)


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_parsers_refuse_non_text(name):
    parse, _ = PARSERS[name]
    for bad in (None, 5, b"8/5", ["8/5"], {"a": 1}):
        with pytest.raises(nardy.Error):
            parse(bad)


@pytest.mark.parametrize("name, limit", [
    ("from_text", _validate.MAX_ID_CHARS), ("xgid", _validate.MAX_ID_CHARS),
    ("fibs", _validate.MAX_ID_CHARS), ("mat", _validate.MAX_RECORD_CHARS),
    ("sgf", _validate.MAX_RECORD_CHARS), ("record", _validate.MAX_RECORD_CHARS),
    ("parse_move", _validate.MAX_NOTATION_CHARS), ("notation", _validate.MAX_NOTATION_CHARS),
    ("position_id", None), ("match_id", None), ("game-xgid", _validate.MAX_ID_CHARS),
    ("match-gnubg", _validate.MAX_ID_CHARS), ("parse_game", _validate.MAX_ID_CHARS)])
def test_huge_input_fails_at_once(name, limit):
    parse, example = PARSERS[name]
    size = (limit or 10**5) + 1
    text = (example * (size // max(len(example), 1) + 1))[:size]
    start = time.perf_counter()
    with pytest.raises(nardy.Error) as info:
        parse(text)
    assert time.perf_counter() - start < 5  # (a full parse of 16 MiB would take minutes)
    if limit is not None:
        assert isinstance(info.value, nardy.InputTooLargeError)
        assert f"{limit:,}" in str(info.value)


def test_the_issue_examples():
    cases = [
        lambda: nardy.Move.from_notation("42/41", nardy.Shlem(), 2),
        lambda: nardy.Move.from_notation("8/5", None, 2),
        lambda: nardy.Move([(5, -1)]).notation(nardy.Shlem()),
        lambda: nardy.Move([5]),
        lambda: nardy.Move(None),
        lambda: nardy.Move([(True, 1)]),
        lambda: nardy.Position().parse_move("1x²3", (3, 1)),
        lambda: read_sgf("(;FF[4]GM[6]MI[length:5]RE[W+1];B[double])"),
        lambda: nardy.from_text("backgammon W:6x²,8x3 B:6x5 w"),
    ]
    for case in cases:
        with pytest.raises(nardy.Error):
            case()


def _deep(n: int) -> list:
    top: list = []
    cur = top
    for _ in range(n):
        nxt: list = []
        cur.append(nxt)
        cur = nxt
    return top


def test_json_deep_nesting_is_an_error_not_a_recursion_error():
    g = nardy.Game("backgammon", seed=1)
    g.roll()
    g.play(g.legal_moves()[0])
    d = nardy.to_json(g)
    for where in ("move", "dice"):
        bad = copy.deepcopy(d)
        bad["history"][1][where] = [_deep(100_000)]
        before = copy.deepcopy(bad["history"][0])
        with pytest.raises(nardy.InvalidRecordError):
            nardy.from_json(bad)
        assert bad["history"][0] == before


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)


@FUZZ
@given(data=st.data())
def test_from_json_raises_only_nardy_errors_and_leaves_input_alone(data):
    g = nardy.Game("backgammon", seed=2)
    g.roll()
    g.play(g.legal_moves()[0])
    base = nardy.to_json(data.draw(st.sampled_from(
        [g, g.position, nardy.Position("shlem"), g.position.legal_moves((3, 1))])))
    d = copy.deepcopy(base)
    # replace one value somewhere in the dict by a random JSON value
    path = []
    node = d
    while isinstance(node, (dict, list)) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        if not isinstance(node[key], (dict, list)) or not node[key]:
            break
        node = node[key]
    if path:
        parent = d
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = data.draw(json_values)
    else:
        d = data.draw(json_values)
    snapshot = copy.deepcopy(d)
    try:
        nardy.from_json(d)
    except nardy.Error as e:
        assert str(e)
    assert d == snapshot or d != d  # (NaN compares unequal to itself)
