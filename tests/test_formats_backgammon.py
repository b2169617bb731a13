"""nardy.formats: gnubg Position/Match IDs, XGID and FIBS board lines.

Cross-checked against the real GNU Backgammon (PyPI ``gnubg``): Position IDs
on thousands of random boards, Match IDs over every field gnubg.matchid
exposes, and XGIDs through gnubg's own XGID importer (``setgnubgid``).
"""

from __future__ import annotations

import base64
import dataclasses
import importlib
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "python"


def _load_formats():
    """nardy.formats, from the source tree if nardy is not installed."""
    if importlib.util.find_spec("nardy") is None:
        sys.path.insert(0, str(SRC))
    return importlib.import_module("nardy.formats")


F = _load_formats()
G = F.gnubg_id
InvalidIdError = G.InvalidIdError
InvalidPositionError = G.InvalidPositionError
Error = InvalidIdError.__mro__[1]  # nardy.errors.Error
assert Error.__name__ == "Error"

try:
    import gnubg
except ImportError:  # pragma: no cover
    gnubg = None

needs_gnubg = pytest.mark.skipif(gnubg is None, reason="the gnubg package is not installed")

OPENING = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0)


# ---------------------------------------------------------------------------
# random legal side arrays


def random_sides(rng: random.Random):
    """(mover, opponent): 15 checkers each, no point held by both sides."""

    def fill(allowed):
        side = [0] * 26
        k = rng.randint(1, min(9, len(allowed))) if allowed else 0
        points = rng.sample(allowed, k) if k else []
        p_bar = rng.choice((0, 0, 0, 0.05, 0.2, 1.0))
        p_off = rng.choice((0, 0, 0, 0.1, 0.4, 1.0))
        for _ in range(15):
            r = rng.random()
            if r < p_bar or not points:
                side[24 if r < p_bar or rng.random() < 0.5 else 25] += 1
            elif r < p_bar + p_off:
                side[25] += 1
            else:
                side[rng.choice(points)] += 1
        return side

    mover = fill(list(range(24)))
    opponent = fill([j for j in range(24) if mover[23 - j] == 0])
    if rng.random() < 0.5:
        mover, opponent = opponent, mover
    return tuple(mover), tuple(opponent)


def gnubg_board(mover, opponent):
    return (tuple(opponent[:25]), tuple(mover[:25]))


sides_strategy = st.randoms(use_true_random=False).map(random_sides)


# ---------------------------------------------------------------------------
# Position ID


def test_opening_position_id():
    assert F.encode_position_id(OPENING, OPENING) == "4HPwATDgc/ABMA" == F.OPENING_POSITION_ID
    assert F.decode_position_id("4HPwATDgc/ABMA") == (OPENING, OPENING)


def test_position_id_side_order_is_opponent_first():
    # the mover has all 15 on the bar, the opponent all 15 on its 6-point
    mover = (0,) * 24 + (15, 0)
    opponent = (0,) * 5 + (15,) + (0,) * 20
    pid = F.encode_position_id(mover, opponent)
    # first key bits: five empty opponent points, then 15 ones
    key = base64.b64decode(pid + "==")
    assert key[0] == 0b11100000
    assert F.decode_position_id(pid) == (mover, opponent)


@needs_gnubg
def test_position_id_matches_gnubg_on_random_boards():
    rng = random.Random(20240601)
    checked = 0
    for _ in range(3000):
        mover, opponent = random_sides(rng)
        board = gnubg_board(mover, opponent)
        ours = F.encode_position_id(mover, opponent)
        theirs = gnubg.positionid(board)
        assert ours == theirs, (mover, opponent)
        assert F.decode_position_id(theirs) == (mover, opponent)
        # gnubg reads ours back (unless it finds the position illegal:
        # both sides on the bar against closed boards)
        try:
            back = gnubg.positionfromid(ours)
        except ValueError:
            continue
        assert tuple(map(tuple, back)) == board
        checked += 1
    assert checked > 2500


@given(sides_strategy)
def test_position_id_round_trip(sides):
    mover, opponent = sides
    pid = F.encode_position_id(mover, opponent)
    assert len(pid) == 14
    assert F.decode_position_id(pid) == (mover, opponent)


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
               min_size=14, max_size=14))
def test_any_position_id_string_decodes_exactly_or_is_rejected(s):
    try:
        mover, opponent = F.decode_position_id(s)
    except InvalidIdError:
        return
    assert F.encode_position_id(mover, opponent) == s


def _bits_to_position_id(bits):
    key = sum(b << k for k, b in enumerate(bits))
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


def _key_bits(first, second):
    """Raw key bits of two 25-count lists (gnubg order), no validation."""
    bits = []
    for side in (first, second):
        for n in side:
            bits += [1] * n + [0]
    return bits


def test_independent_key_builder_agrees():
    assert _bits_to_position_id(_key_bits(OPENING[:25], OPENING[:25])) == "4HPwATDgc/ABMA"


@pytest.mark.parametrize(
    "bad",
    [
        "", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/ABMA\n", " 4HPwATDgc/ABMA",
        "4HPwATDgc/AB-A", "4HPwATDgc/AB_A", "4HPwATDgc/ABM=", "4HPwATDgc/AB A",
        "4HPwATDgc/ABéA", "4HPwATDgc/ABMB", "4HPwATDgc/ABMP", "4HPwATDgc/ABM/",
        "//////////////", "/////////////w",
    ],
)
def test_malformed_position_id_strings(bad):
    with pytest.raises(InvalidIdError):
        F.decode_position_id(bad)


@pytest.mark.parametrize("bad", [None, b"4HPwATDgc/ABMA", 12345678901234, ["4HPwATDgc/ABMA"]])
def test_position_id_not_a_str(bad):
    with pytest.raises(InvalidIdError):
        F.decode_position_id(bad)


def _counts(**points):
    c = [0] * 25
    for k, v in points.items():
        c[int(k[1:])] = v
    return c


@pytest.mark.parametrize(
    "bits, why",
    [
        (_key_bits(_counts(p0=16), _counts()), "16 opponent checkers"),
        (_key_bits(_counts(), _counts(p3=9, p24=7)), "16 mover checkers"),
        ([1] * 31 + [0] * 49, "key ends before the sides are complete"),
        ([1] * 80, "all ones"),
        (_key_bits(_counts(), _counts()) + [0] * 10 + [1], "a bit after the last side"),
        (_key_bits(_counts(p5=5), _counts(p5=5)) + [0, 0, 1], "garbage after a valid key"),
        (_key_bits(_counts(p0=1), _counts(p23=1)), "point held by both sides"),
        (_key_bits(_counts(p10=2), _counts(p13=3)), "point held by both sides (midboard)"),
    ],
)
def test_malformed_position_id_keys(bits, why):
    assert len(bits) <= 80
    pid = _bits_to_position_id(bits + [0] * (80 - len(bits)))
    with pytest.raises(InvalidIdError):
        F.decode_position_id(pid)


@needs_gnubg
def test_shared_point_rejected_like_gnubg():
    pid = _bits_to_position_id(_key_bits(_counts(p0=1), _counts(p23=1)) + [0] * 28)
    with pytest.raises(ValueError):
        gnubg.positionfromid(pid)


def test_index_0_and_index_23_are_different_points():
    side = (15,) + (0,) * 25  # the opponent's index 0 lies on the mover's index 23
    assert F.decode_position_id(F.encode_position_id(side, side)) == (side, side)


@pytest.mark.parametrize(
    "mover, opponent",
    [
        (OPENING[:25], OPENING),                       # 25 entries
        (OPENING[:25] + (1,), OPENING),                # 14 checkers
        (OPENING[:25] + (1,), OPENING[:25] + (-1,)),   # a negative count
        ((15,) + (0,) * 25, (0,) * 23 + (15, 0, 0)),   # point held by both
        (("x",) * 26, OPENING),
        ((1.0,) * 15 + (0.0,) * 11, OPENING),
        (None, OPENING),
    ],
)
def test_encode_position_id_validates(mover, opponent):
    with pytest.raises(InvalidPositionError):
        F.encode_position_id(mover, opponent)


# ---------------------------------------------------------------------------
# Match ID


def test_match_id_examples():
    # gnubg writes a match-play ID with bit 66 (not Jacoby) set: trailing E
    s = F.MatchState(cube=4, cube_owner=1, dice_owner=1, turn=1, dice=(5, 2),
                     match_length=7, score=(2, 3))
    assert F.encode_match_id(s) == "UonqACAAGAAE"
    assert F.decode_match_id("UonqACAAGAAE") == s
    money = F.MatchState(dice_owner=1, turn=1, dice=(5, 2), jacoby=True)
    assert F.encode_match_id(money) == "cIkKAAAAAAAA"
    assert F.decode_match_id("cIkKAAAAAAAE") == F.MatchState(
        dice_owner=1, turn=1, dice=(5, 2), jacoby=False)


def test_match_state_normalises_dice_and_fields():
    s = F.MatchState(dice=(2, 5), game_state=3, crawford=1, match_length=5)
    assert s.dice == (5, 2)
    assert s.game_state is F.GameState.RESIGNED
    assert s.crawford is True
    # low-high dice in an ID are read (and re-written high-low)
    low_first = "cIkKAAAAAAAE"
    key = int.from_bytes(base64.b64decode(low_first), "little")
    key = (key & ~(0x3F << 15)) | (2 << 15) | (5 << 18)
    swapped = base64.b64encode(key.to_bytes(9, "little")).decode()
    assert F.decode_match_id(swapped).dice == (5, 2)


def random_match_state(rng: random.Random, *, gnubg_limits: bool):
    length = rng.choice((0, 0, 1, 3, 5, 7, 11, 25, 64))
    if length:
        hi = length - 1 if gnubg_limits else length
        score = (rng.randint(0, hi), rng.randint(0, hi))
    else:
        score = (0, 0) if gnubg_limits else (rng.randint(0, 500), rng.randint(0, 500))
    roll = (0, 0) if rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6))
    return F.MatchState(
        cube=1 << rng.randint(0, 15),
        cube_owner=rng.choice((None, 0, 1)),
        dice_owner=rng.randint(0, 1),
        crawford=bool(length) and rng.random() < 0.3,
        game_state=rng.randint(0, 4),
        turn=rng.randint(0, 1),
        double_offered=rng.random() < 0.3,
        resignation=rng.randint(0, 3),
        dice=roll,
        match_length=length,
        score=score,
        jacoby=rng.random() < 0.5,
    )


_GNUBG_MATCH_IDS = r"""
import json, sys
import gnubg
out = []
for cube, owner, dice_owner, length, score, crawford, jacoby, turn, resign, doubled, state, dice in json.load(sys.stdin):
    ci = dict(gnubg.cubeinfo(cube, owner, dice_owner, length, tuple(score), crawford, 0))
    ci["jacoby"] = jacoby
    pi = gnubg.posinfo(turn, resign, doubled, state, tuple(dice))
    out.append(gnubg.matchid(ci, pi))
json.dump(out, sys.stdout)
"""


def as_decoded(s):
    """What a Match ID of ``s`` decodes to: the Jacoby bit counts in money play only."""
    return dataclasses.replace(s, jacoby=s.jacoby and not s.match_length)


def test_match_id_jacoby_bit_clear_in_match_play():
    # bits by the manual's table (cube 1 centred, playing, 5-point match at 1-2) and
    # bit 66 = 0, which gnubg writes when its Jacoby setting is on: no Jacoby in a match
    key = 3 << 4 | 1 << 8 | 5 << 21 | 1 << 36 | 2 << 51
    mid = base64.b64encode(key.to_bytes(9, "little")).decode()
    s = F.decode_match_id(mid)
    assert (s.match_length, s.score, s.jacoby) == (5, (1, 2), False)
    money = F.decode_match_id(base64.b64encode((3 << 4 | 1 << 8).to_bytes(9, "little")).decode())
    assert money.jacoby is True  # in money play the clear bit is the Jacoby rule


def test_xgid_max_cube_exponent_16():
    # the tenth field is the cube limit as a power of two; 2**16 is read, 2**17 is not
    r = F.decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:16")
    assert r.max_cube == 1 << 16
    with pytest.raises(InvalidIdError, match="above 16"):
        F.decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:17")


def gnubg_match_ids(states, rng):
    """gnubg's Match IDs for the states, computed in a child process: the PyPI gnubg module
    now and then segfaults inside cubeinfo() after many calls (not reproducible outside
    pytest), and a crash must cost a retry, not the whole test run."""
    rows = []
    for s in states:
        dice = list(s.dice if rng.random() < 0.5 else s.dice[::-1])
        rows.append([s.cube, -1 if s.cube_owner is None else s.cube_owner, s.dice_owner,
                     s.match_length, list(s.score), int(s.crawford), int(s.jacoby), s.turn,
                     s.resignation, int(s.double_offered), int(s.game_state), dice])
    for _attempt in range(3):
        proc = subprocess.run([sys.executable, "-c", _GNUBG_MATCH_IDS], input=json.dumps(rows),
                              capture_output=True, text=True, timeout=300)
        if proc.returncode == 0:
            return json.loads(proc.stdout)
        assert proc.returncode < 0, proc.stderr  # a Python error is a real failure
    raise AssertionError(f"gnubg crashed three times: {proc.stderr[-500:]}")


@needs_gnubg
def test_match_id_matches_gnubg():
    rng = random.Random(7)
    states = [random_match_state(rng, gnubg_limits=True) for _ in range(3000)]
    theirs = gnubg_match_ids(states, rng)
    seen = set()
    for s, mid in zip(states, theirs, strict=True):
        assert F.encode_match_id(s) == mid, s
        assert F.decode_match_id(mid) == as_decoded(s)
        seen.add((s.cube_owner, s.crawford, int(s.game_state), s.resignation,
                  s.double_offered, s.jacoby, s.turn, s.dice_owner))
    assert len(seen) > 500  # the combinations really were exercised


@needs_gnubg
def test_match_id_defaults_match_gnubg():
    # gnubg's defaults: money, centred cube at 1, jacoby on, no game
    assert F.encode_match_id(F.MatchState(game_state=0, jacoby=True)) == gnubg.matchid(
        gnubg.cubeinfo(), gnubg.posinfo())


match_states = st.builds(
    lambda rng: random_match_state(rng, gnubg_limits=False), st.randoms(use_true_random=False))


@given(match_states)
def test_match_id_round_trip(s):
    mid = F.encode_match_id(s)
    assert len(mid) == 12
    assert F.decode_match_id(mid) == as_decoded(s)


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
               min_size=12, max_size=12))
def test_any_match_id_string_decodes_or_is_rejected(s):
    try:
        state = F.decode_match_id(s)
    except InvalidIdError:
        return
    again = F.encode_match_id(state)
    assert F.decode_match_id(again) == state
    key = int.from_bytes(base64.b64decode(s), "little")
    if (key >> 15) & 7 >= (key >> 18) & 7:  # dice already high-first
        if state.match_length:  # bit 66 (not Jacoby) means nothing in match play
            key |= 1 << 66
            s = base64.b64encode(key.to_bytes(9, "little")).decode()
        assert again == s


def _match_key(**fields):
    layout = dict(cube=(0, 4), owner=(4, 2), move=(6, 1), crawford=(7, 1), gs=(8, 3),
                  turn=(11, 1), doubled=(12, 1), resign=(13, 2), d1=(15, 3), d2=(18, 3),
                  length=(21, 15), s0=(36, 15), s1=(51, 15), nojacoby=(66, 1), spare=(67, 5))
    values = dict(owner=3, gs=1)
    values.update(fields)
    key = 0
    for name, v in values.items():
        pos, width = layout[name]
        assert 0 <= v < 1 << width
        key |= v << pos
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def test_independent_match_key_builder_agrees():
    assert _match_key(move=1, turn=1, d1=5, d2=2, nojacoby=1) == "cIkKAAAAAAAE"
    assert F.decode_match_id(_match_key(cube=15, owner=0, length=3, s0=3, s1=2)).cube == 32768


@pytest.mark.parametrize(
    "bad",
    [
        "", "cIkKAAAAAAA", "cIkKAAAAAAAEA", "cIkKAAAAAA=E", "cIkK AAAAAAE", "cIkKAAAAAAA\u00e9",
        "cIkKAAAAAAA-",
        _match_key(spare=1), _match_key(spare=16), _match_key(owner=2),
        _match_key(gs=5), _match_key(gs=7), _match_key(d1=7, d2=1), _match_key(d1=3, d2=7),
        _match_key(d1=3), _match_key(d2=3), _match_key(length=5, s0=6),
        _match_key(length=5, s1=9), _match_key(crawford=1),
    ],
)
def test_malformed_match_ids(bad):
    with pytest.raises(InvalidIdError):
        F.decode_match_id(bad)


@pytest.mark.parametrize("bad", [None, b"cIkKAAAAAAAE", 7])
def test_match_id_not_a_str(bad):
    with pytest.raises(InvalidIdError):
        F.decode_match_id(bad)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(cube=3), dict(cube=0), dict(cube=1 << 16), dict(cube_owner=2), dict(dice_owner=2),
        dict(turn=-1), dict(game_state=5), dict(resignation=4), dict(match_length=-1),
        dict(match_length=1 << 15), dict(score=(1, 2, 3)), dict(match_length=3, score=(4, 0)),
        dict(crawford=True), dict(score=(-1, 0)), dict(jacoby=2), dict(cube="2"),
    ],
)
def test_match_state_validates(kwargs):
    with pytest.raises(Error):
        F.MatchState(**kwargs)


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (1, 2, 3), "12", (1.0, 2.0)])
def test_match_state_validates_dice(dice):
    with pytest.raises(Error):
        F.MatchState(dice=dice)


# ---------------------------------------------------------------------------
# XGID


def test_xgid_opening():
    r = F.decode_xgid(F.OPENING_XGID)
    assert F.OPENING_XGID == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert (r.mover, r.opponent) == (OPENING, OPENING)
    assert (r.cube, r.cube_position, r.turn, r.dice, r.action) == (1, 0, 1, (0, 0), None)
    assert (r.score_bottom, r.score_top, r.rules, r.match_length, r.max_cube) == (0, 0, 0, 0, 1024)
    assert F.encode_xgid(r) == F.OPENING_XGID
    # the prefix is optional on reading
    assert F.decode_xgid(F.OPENING_XGID[5:]) == r


def test_xgid_top_player_on_roll_keeps_the_string_and_swaps_the_sides():
    # X (upper case) has borne off one checker from its 24-point; O is on roll
    r = F.decode_xgid("XGID=-b----E-C---eE---c-e----A-:1:1:-1:52:2:1:0:7:10")
    x = OPENING[:23] + (1, 0, 1)
    assert (r.mover, r.opponent) == (OPENING, x)
    assert not r.mover_is_bottom
    assert r.cube == 2 and r.cube_owner == "opponent"
    assert (r.mover_score, r.opponent_score) == (1, 2)
    assert F.encode_xgid(r) == "XGID=-b----E-C---eE---c-e----A-:1:1:-1:52:2:1:0:7:10"


def test_xgid_bars_and_actions():
    # O (lower case) has two on its bar (character 0), X one on its bar (25)
    r = F.decode_xgid("XGID=bC----B-------------b---dA:1:1:1:D:0:0:3:0:8")
    assert r.mover[24] == 1 and r.opponent[24] == 2
    assert r.mover[0] == 3 and r.mover[5] == 2 and r.mover[25] == 9
    assert r.opponent[0] == 4 and r.opponent[4] == 2 and r.opponent[25] == 7
    assert r.action == "D" and r.dice == (0, 0) and r.max_cube == 256
    assert r.jacoby and r.beaver and not r.crawford
    for a in "BR":
        assert F.decode_xgid(f"XGID=bC----B-------------b---dA:1:1:1:{a}:0:0:3:0:8").action == a
    m = F.decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:6:4:1:7:10")
    assert m.crawford and not m.jacoby and m.dice == (3, 1)


def random_xgid_record(rng: random.Random, *, gnubg_limits: bool):
    mover, opponent = random_sides(rng)
    length = rng.choice((0, 0, 1, 3, 5, 7, 9, 13, 25))
    turn = rng.choice((1, -1))
    if length:
        sb, st_ = rng.randint(0, length - 1), rng.randint(0, length - 1)
        rules = 0
        # (gnubg drops the flag in a 1-point match, which is all Crawford)
        if (sb == length - 1 or st_ == length - 1) and rng.random() < 0.5:
            rules = 0 if gnubg_limits and length == 1 else 1
    else:
        sb = st_ = 0 if gnubg_limits else rng.randint(0, 30)
        rules = rng.randint(0, 3)
    if gnubg_limits and rules and length:
        cube, cube_position = 1, 0  # the Crawford game: cube dead and centred
    else:
        cube = 1 << rng.randint(0, 6 if gnubg_limits else 15)
        cube_position = 0 if cube == 1 and gnubg_limits else rng.choice((-1, 0, 1))
    r = rng.random()
    if r < 0.2:
        dice, action = (0, 0), None
    elif r < 0.3 and not (gnubg_limits and rules and length):
        dice, action = (0, 0), ("D" if gnubg_limits else rng.choice("DBR"))
    else:
        dice, action = (rng.randint(1, 6), rng.randint(1, 6)), None
    return F.XgidRecord(
        mover=mover, opponent=opponent, cube=cube, cube_position=cube_position, turn=turn,
        dice=dice, action=action, score_bottom=sb, score_top=st_, rules=rules,
        match_length=length, max_cube=1 << rng.randint(0, 15),
    )


def _closed_boards_both_on_bar(mover, opponent):
    closed = lambda side: all(side[i] >= 2 for i in range(6))  # noqa: E731
    return closed(mover) and closed(opponent) and mover[24] and opponent[24]


@needs_gnubg
def test_xgid_read_like_gnubg():
    """gnubg's own XGID importer agrees on the board and on every match field."""
    rng = random.Random(99)
    checked = 0
    for _ in range(400):
        r = random_xgid_record(rng, gnubg_limits=True)
        if _closed_boards_both_on_bar(r.mover, r.opponent):
            continue  # gnubg refuses these positions
        xgid = F.encode_xgid(r)
        assert F.decode_xgid(xgid) == r
        gnubg.setgnubgid(xgid)
        assert tuple(map(tuple, gnubg.board())) == gnubg_board(r.mover, r.opponent), xgid
        pid, mid = gnubg.gnubgid().split(":")
        assert pid == F.encode_position_id(r.mover, r.opponent)
        bottom = 1 if r.turn == 1 else 0  # gnubg: player 1 is the bottom player, X
        expected = F.MatchState(
            cube=r.cube,
            cube_owner={1: 1, -1: 0, 0: None}[r.cube_position],
            dice_owner=bottom,
            crawford=r.crawford,
            game_state=F.GameState.PLAYING,
            # gnubg steps a pending double ("D") back to the doubler's cube
            # decision: the turn stays with the doubler, the cube before it
            turn=bottom,
            double_offered=False,
            dice=r.dice,
            match_length=r.match_length,
            score=(r.score_top, r.score_bottom),
            jacoby=r.jacoby,
        )
        assert F.decode_match_id(mid) == expected, xgid
        checked += 1
    assert checked > 350


xgid_records = st.builds(
    lambda rng: random_xgid_record(rng, gnubg_limits=False), st.randoms(use_true_random=False))


@given(xgid_records)
def test_xgid_round_trip(r):
    s = F.encode_xgid(r)
    assert F.decode_xgid(s) == r
    assert F.encode_xgid(F.decode_xgid(s)) == s


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "XGID=",
        "XGID=:::::::::",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",          # a field missing
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10:0",     # one too many
        "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",        # 25 characters
        "XGID=-b----E-C---eE---c-e----B--:0:0:1:00:0:0:0:0:10",      # 27 characters
        "XGID=-b----E-C---eE---c-e----Q-:0:0:1:00:0:0:0:0:10",       # not A-P
        "XGID=-b----E-C---eE---c-e----B.:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10",       # 16 on a point
        "XGID=-b----E-C---eE---c-e----C-:0:0:1:00:0:0:0:0:10",       # 16 X checkers
        "XGID=cb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",       # 16 O checkers
        "XGID=Ab----E-C---eE---c-e----A-:0:0:1:00:0:0:0:0:10",       # X on O's bar
        "XGID=-b----E-C---eE---c-e----Aa:0:0:1:00:0:0:0:0:10",       # O on X's bar
        "xgid=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        " XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10\n",
        "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-::0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:0:10",      # cube 2**16
        "XGID=-b----E-C---eE---c-e----B-:-1:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10",       # cube position 2
        "XGID=-b----E-C---eE---c-e----B-:0:+1:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10",       # turn 0
        "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0: 1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:0:0:0:0:0:10",        # one digit
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:03:0:0:0:0:10",       # a single zero die
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:DD:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:d:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:X:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:-1:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10",       # score = length
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:9:0:7:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10",       # match rules 0/1
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10",       # money rules 0..3
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:-3:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:99999:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:17",       # max cube 2**17
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:1.0",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:",
        "4HPwATDgc/ABMA:cAkAAAAAAAAA",                                # a gnubg ID
    ],
)
def test_malformed_xgid(bad):
    with pytest.raises(InvalidIdError):
        F.decode_xgid(bad)


@pytest.mark.parametrize("bad", [None, b"XGID=", 3])
def test_xgid_not_a_str(bad):
    with pytest.raises(InvalidIdError):
        F.decode_xgid(bad)


def test_xgid_record_validates():
    ok = dict(mover=OPENING, opponent=OPENING)
    F.XgidRecord(**ok)
    for extra in (dict(cube=3), dict(cube_position=2), dict(turn=0), dict(action="X"),
                  dict(action="D", dice=(3, 1)), dict(match_length=5, score_top=5),
                  dict(match_length=5, rules=2), dict(rules=4), dict(max_cube=1000)):
        with pytest.raises(Error):
            F.XgidRecord(**ok, **extra)
    with pytest.raises(InvalidPositionError):
        F.XgidRecord(mover=OPENING[:25], opponent=OPENING)


@given(st.text(max_size=80))
def test_xgid_fuzz(s):
    try:
        r = F.decode_xgid(s)
    except InvalidIdError:
        return
    assert F.decode_xgid(F.encode_xgid(r)) == r


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(list("-ABCDEPabcdep")), min_size=26, max_size=26),
       st.sampled_from(["0:0:1:00:0:0:0:0:10", "1:-1:-1:63:2:1:1:5:10", "2:1:1:D:0:0:3:0:8"]))
def test_xgid_position_fuzz(chars, rest):
    s = "XGID=" + "".join(chars) + ":" + rest
    try:
        r = F.decode_xgid(s)
    except InvalidIdError:
        return
    assert F.encode_xgid(r) == s


# ---------------------------------------------------------------------------
# FIBS board

FIBS_DOC = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:"
            "2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
FIBS_X = ("board:mpgnu:buster:17:0:2:0:0:0:2:1:4:3:0:1:0:1:0:0:2:0:0:0:0:0:1:-2:-2:-1:-4:-4:"
          "0:-1:3:6:0:0:1:1:1:0:-1:1:25:0:2:0:0:0:2:2:0:0")


def test_fibs_documented_example():
    b = F.parse_fibs_board(FIBS_DOC)
    assert (b.player_name, b.opponent_name, b.match_length) == ("You", "someplayer", 3)
    assert (b.turn, b.colour, b.direction, b.home, b.bar) == (1, 1, -1, 0, 25)
    assert b.player_dice == (6, 2) and b.opponent_dice == (0, 0) and b.can_move == 2
    assert b.player_on_roll is True
    assert b.sides() == (OPENING, OPENING)
    assert F.format_fibs_board(b) == FIBS_DOC
    assert F.parse_fibs_board(FIBS_DOC + "\r\n") == b


def test_fibs_x_moving_up():
    # the player is X (colour -1) moving from 1 to 24, two checkers off
    b = F.parse_fibs_board(FIBS_X)
    assert (b.colour, b.direction, b.home, b.bar) == (-1, 1, 25, 0)
    assert b.player_side() == (4, 4, 1, 2, 2) + (0,) * 20 + (2,)
    opp = b.opponent_side()
    assert sum(opp) == 15 and opp[2] == 2 and opp[3] == 1 and opp[18] == 1
    assert b.player_on_roll is True and b.sides() == (b.player_side(), opp)
    assert F.format_fibs_board(b) == FIBS_X


@needs_gnubg
@given(sides_strategy)
@settings(max_examples=50)
def test_fibs_sides_give_gnubg_position_ids(sides):
    mover, opponent = sides
    for colour in (-1, 1):
        for direction in (-1, 1):
            b = F.FibsBoard.from_sides(opponent, mover, player_on_roll=False,
                                       colour=colour, direction=direction)
            b2 = F.parse_fibs_board(F.format_fibs_board(b))
            assert b2 == b
            m, o = b2.sides()
            assert (m, o) == (mover, opponent)
            assert F.encode_position_id(m, o) == gnubg.positionid(gnubg_board(mover, opponent))


@given(
    sides_strategy,
    st.sampled_from((-1, 1)), st.sampled_from((-1, 1)), st.sampled_from((True, False, None)),
    st.tuples(st.integers(1, 6), st.integers(1, 6)) | st.just((0, 0)),
    st.integers(0, 6).map(lambda e: 1 << e), st.booleans(), st.booleans(),
    st.sampled_from((-1, 0, 1)), st.integers(0, 4),
    st.text(alphabet="abcXYZ_019-", min_size=1, max_size=12),
)
def test_fibs_round_trip(sides, colour, direction, on_roll, dice, cube, pmay, omay, doubled,
                         can_move, name):
    mover, opponent = sides
    b = F.FibsBoard.from_sides(
        mover, opponent, player_name=name, opponent_name=name + "2", match_length=9999,
        player_on_roll=on_roll, player_dice=dice, cube=cube, player_may_double=pmay,
        opponent_may_double=omay, was_doubled=doubled, colour=colour, direction=direction,
        can_move=can_move,
    )
    line = F.format_fibs_board(b)
    assert len(line.split(":")) == 53
    back = F.parse_fibs_board(line)
    assert back == b
    assert (back.player_side(), back.opponent_side()) == (mover, opponent)
    if on_roll is None:
        with pytest.raises(InvalidIdError):
            back.sides()
    else:
        assert back.sides() == ((mover, opponent) if on_roll else (opponent, mover))


def _fibs_with(index, value, base=FIBS_DOC):
    tokens = base.split(":")
    tokens[index] = value
    return ":".join(tokens)


@pytest.mark.parametrize(
    "bad",
    [
        "", "board", "board:", FIBS_DOC + ":0", FIBS_DOC.rsplit(":", 1)[0],
        FIBS_DOC.replace("board:", "bord:", 1), FIBS_DOC.replace("board:", "Board:", 1),
        _fibs_with(1, ""), _fibs_with(2, ""),
        _fibs_with(3, "x"), _fibs_with(3, "3.0"), _fibs_with(3, "+3"), _fibs_with(3, ""),
        _fibs_with(3, "-3"), _fibs_with(4, "-1"),
        _fibs_with(7, "-3"),                    # 16 X checkers
        _fibs_with(12, "4"),                    # 14 O checkers
        _fibs_with(6, "1"),                     # O (the player) on the opponent's bar
        _fibs_with(31, "-1"),                   # X on the player's bar
        _fibs_with(32, "2"),                    # turn
        _fibs_with(33, "0"),                    # one die zero
        _fibs_with(33, "7"),
        _fibs_with(37, "3"), _fibs_with(37, "0"),   # cube
        _fibs_with(38, "2"),                    # may double
        _fibs_with(40, "2"),                    # was doubled
        _fibs_with(41, "0"),                    # colour
        _fibs_with(42, "0"), _fibs_with(42, "1"),   # direction / home-bar mismatch
        _fibs_with(43, "25"), _fibs_with(44, "0"),
        _fibs_with(45, "1"),                    # 16 O checkers with one off
        _fibs_with(46, "-1"),
        _fibs_with(47, "16"),
        _fibs_with(49, "5"),                    # can move
        _fibs_with(52, "-1"),
    ],
)
def test_malformed_fibs(bad):
    with pytest.raises(InvalidIdError):
        F.parse_fibs_board(bad)


@pytest.mark.parametrize("bad", [None, FIBS_DOC.encode(), 53])
def test_fibs_not_a_str(bad):
    with pytest.raises(InvalidIdError):
        F.parse_fibs_board(bad)


@given(st.text(max_size=200))
def test_fibs_fuzz(s):
    try:
        F.parse_fibs_board(s)
    except InvalidIdError:
        pass


@given(st.lists(st.integers(-20, 30), min_size=50, max_size=50))
def test_fibs_numeric_fuzz(nums):
    s = "board:a:b:" + ":".join(map(str, nums))
    try:
        b = F.parse_fibs_board(s)
    except InvalidIdError:
        return
    assert F.format_fibs_board(b) == s


# ---------------------------------------------------------------------------
# every decoder raises only InvalidIdError


@given(st.text(max_size=40) | st.binary(max_size=20) | st.integers() | st.none())
def test_decoders_raise_only_invalid_id_error(x):
    for decode in (F.decode_position_id, F.decode_match_id, F.decode_xgid, F.parse_fibs_board):
        try:
            decode(x)
        except InvalidIdError as e:
            assert isinstance(e, ValueError) and isinstance(e, Error)


def test_error_hierarchy():
    assert issubclass(InvalidIdError, Error) and issubclass(Error, ValueError)
    assert Error.__name__ == "Error"
