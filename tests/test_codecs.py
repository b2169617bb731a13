"""The C++ Position ID and XGID codecs, one at a time and in numpy batches: against the
pure-Python reference written from the formats (tests/reference/gnubg_ids_ref.py) and against
the PyPI gnubg package, round trips on thousands of random positions, malformed input, and
inputs left unchanged."""

from __future__ import annotations

import random

import numpy as np
import pytest

import nardy
from nardy import BLACK, WHITE, batch
from nardy.errors import Error, InvalidIdError, InvalidPositionError

try:
    from tests.reference import gnubg_ids_ref as R
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import gnubg_ids_ref as R  # type: ignore[no-redef]

try:
    import gnubg
except ImportError:  # pragma: no cover
    gnubg = None
needs_gnubg = pytest.mark.skipif(gnubg is None, reason="the gnubg package is not installed")

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
N = 3000


def random_sides(rng: random.Random, checkers: int = 15):
    """(mover, opponent) of `checkers` each, no point held by both, bar and off often used."""
    def fill(allowed):
        side = [0] * 26
        points = rng.sample(allowed, rng.randint(1, min(9, len(allowed)))) if allowed else []
        p_bar = rng.choice((0, 0, 0.05, 0.2, 1.0))
        p_off = rng.choice((0, 0, 0.1, 0.4, 1.0))
        for _ in range(checkers):
            r = rng.random()
            if r < p_bar:
                side[24] += 1
            elif r < p_bar + p_off or not points:
                side[25] += 1
            else:
                side[rng.choice(points)] += 1
        return side

    mover = fill(list(range(24)))
    opponent = fill([j for j in range(24) if mover[23 - j] == 0])
    if rng.random() < 0.5:
        mover, opponent = opponent, mover
    return tuple(mover), tuple(opponent)


@pytest.fixture(scope="module")
def sides():
    rng = random.Random(14)
    return [random_sides(rng) for _ in range(N)]


@pytest.fixture(scope="module")
def boards(sides):
    return np.array([[m, o] for m, o in sides], dtype=np.int8)


# ------------------------------------------------------------------------- Position ID

def test_batch_position_ids_match_the_reference_and_round_trip(sides, boards):
    before = boards.copy()
    ids = batch.to_position_ids(boards)
    assert ids.shape == (N,) and ids.dtype == np.dtype("<U14")
    assert np.array_equal(boards, before)  # the input is only read
    want = [R.encode_position_id(m, o) for m, o in sides]
    assert ids.tolist() == want
    ids_before = ids.copy()
    back = batch.from_position_ids(ids)
    assert np.array_equal(ids, ids_before)
    assert back.dtype == np.int8 and np.array_equal(back, boards)
    assert back.variant == nardy.Backgammon() and back.on_roll == 0
    # from a list of str and from bytes too
    assert np.array_equal(batch.from_position_ids(want), boards)
    assert np.array_equal(batch.from_position_ids(np.array(want, dtype="S14")), boards)
    # strided input (every other element) is read as it lies
    assert np.array_equal(batch.from_position_ids(ids[::2]), boards[::2])


def test_single_position_ids_agree_with_the_batch(sides):
    for m, o in sides[:500]:
        pid = R.encode_position_id(m, o)
        assert nardy.formats.encode_position_id(m, o) == pid
        assert nardy.formats.decode_position_id(pid) == (m, o)
        for turn in (WHITE, BLACK):
            p = nardy.Position.from_sides("backgammon", m, o, turn)
            assert p.to_position_id() == pid
            assert nardy.Position.from_position_id(pid, turn=turn) == p


def test_positions_of_other_setups_with_gnubgs_board():
    rng = random.Random(3)
    for name in ("nackgammon", "backgammon[no_hit_and_hide=true]"):
        v = nardy.find_variant(name.split("[")[0])()
        rows = np.array([random_sides(rng) for _ in range(200)], dtype=np.int8)
        ids = batch.to_position_ids(rows, v)
        back = batch.from_position_ids(ids, v)
        assert back.variant == v and np.array_equal(back, rows)


@needs_gnubg
def test_position_ids_agree_with_gnubg(sides, boards):
    ids = batch.to_position_ids(boards)
    checked = 0
    for (m, o), pid in zip(sides, ids.tolist()):
        assert gnubg.positionid((o[:25], m[:25])) == pid
        try:
            board = gnubg.positionfromid(pid)
        except ValueError:  # gnubg's own legality test: both sides on the bar, boards closed
            continue
        assert tuple(map(tuple, board)) == (o[:25], m[:25])
        checked += 1
    assert checked > 0.8 * N


def test_every_base64_string_decodes_as_the_reference_does():
    rng = random.Random(15)
    cases = ["".join(rng.choice(B64) for _ in range(14)) for _ in range(4000)]
    # IDs near valid ones: one character changed in a real ID
    for _ in range(4000):
        pid = list(R.encode_position_id(*random_sides(rng)))
        pid[rng.randrange(14)] = rng.choice(B64)
        cases.append("".join(pid))
    accepted = 0
    for s in cases:
        try:
            want = R.decode_position_id(s)
        except ValueError:
            want = None
        try:
            got = nardy.formats.decode_position_id(s)
        except InvalidIdError:
            got = None
        assert got == want, s
        accepted += got is not None
    assert accepted > 1000  # both outcomes are exercised
    good = [s for s in cases if _ref_ok(s)]
    bad = [s for s in cases if not _ref_ok(s)]
    assert np.array_equal(batch.from_position_ids(good),
                          np.array([R.decode_position_id(s) for s in good], dtype=np.int8))
    for s in bad[:200]:
        with pytest.raises(InvalidIdError, match=r"ids\[1\]"):
            batch.from_position_ids([good[0], s])


def _ref_ok(s: str) -> bool:
    try:
        R.decode_position_id(s)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("bad", [
    "", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB-A", "4HPwATDgc/ABM=",
    "4HPwATDgc/ABéA", "4HPwATDgc/ABMB", "//////////////", "/////////////w",
])
def test_malformed_position_ids(bad):
    with pytest.raises(InvalidIdError):
        nardy.formats.decode_position_id(bad)
    with pytest.raises(InvalidIdError):
        nardy.Position.from_position_id(bad)
    with pytest.raises(InvalidIdError, match=r"ids\[0\]"):
        batch.from_position_ids([bad])


@pytest.mark.parametrize("ids", [
    "4HPwATDgc/ABMA",                               # one str, not a sequence
    [None, "4HPwATDgc/ABMA"],                        # object array
    np.zeros(3),                                     # numbers
    np.array([["4HPwATDgc/ABMA"]]),                  # 2-d
    [b"4HPwATDgc/ABMA", 5],
])
def test_position_id_arrays_of_the_wrong_kind(ids):
    with pytest.raises(InvalidIdError):
        batch.from_position_ids(ids)


def test_empty_batches():
    assert batch.from_position_ids([]).shape == (0, 2, 26)
    assert batch.to_position_ids(np.zeros((0, 2, 26), np.int8)).shape == (0,)
    assert batch.from_xgids([])[0].shape == (0, 2, 26)


def test_invalid_boards_are_refused_and_left_alone(boards):
    bad = boards[:10].copy()
    bad[7, 0, 3] += 1  # 16 checkers
    before = bad.copy()
    with pytest.raises(InvalidPositionError, match="position 7"):
        batch.to_position_ids(bad)
    with pytest.raises(InvalidPositionError, match="position 7"):
        batch.to_xgids(bad)
    assert np.array_equal(bad, before)
    with pytest.raises(InvalidPositionError):
        batch.to_position_ids(np.zeros((2, 3, 26), np.int8))


def test_variants_without_gnubgs_board_are_refused(boards):
    for v in ("long nardy", "shlem", "hypergammon"):
        with pytest.raises(InvalidIdError):
            batch.from_position_ids(["4HPwATDgc/ABMA"], v)
        with pytest.raises(InvalidIdError):
            batch.from_xgids([R.encode_xgid(*R.decode_position_id("4HPwATDgc/ABMA"))], v)
        with pytest.raises(InvalidIdError):
            nardy.Position.from_position_id("4HPwATDgc/ABMA", v)
    with pytest.raises((InvalidIdError, InvalidPositionError)):
        batch.to_position_ids(batch.to_array([nardy.Position("long nardy")]))


def test_a_hypergammon_key_with_three_checkers():
    # the C++ decoder counts the variant's checkers: three a side leave 0..3 off
    m = (0,) * 21 + (1, 1, 1, 0, 0)
    pid = R.encode_position_id(m, m)
    assert nardy._core.decode_position_id(pid, 3) == (m, m)
    with pytest.raises(InvalidIdError):
        nardy._core.decode_position_id(R.encode_position_id(*random_sides(random.Random(1))), 3)


# ------------------------------------------------------------------------------- XGID

def test_batch_xgids_match_the_reference_and_round_trip(sides, boards):
    rng = random.Random(16)
    turns = np.array([rng.choice((WHITE, BLACK)) for _ in range(N)], dtype=np.int8)
    before, turns_before = boards.copy(), turns.copy()
    xs = batch.to_xgids(boards, turn=turns)
    assert np.array_equal(boards, before) and np.array_equal(turns, turns_before)
    want = [R.encode_xgid(m, o, 1 if t == WHITE else -1) for (m, o), t in zip(sides, turns)]
    assert xs.tolist() == want
    back, turn, fields = batch.from_xgids(xs, fields=True)
    assert np.array_equal(back, boards) and np.array_equal(turn, turns)
    assert (fields["cube"] == 1).all() and (fields["max_cube"] == 1024).all()
    assert (fields["dice"] == 0).all() and (fields["match_length"] == 0).all()
    for (m, o), t, x in zip(sides[:300], turns[:300].tolist(), want):
        p = nardy.Position.from_sides("backgammon", m, o, t)
        assert p.to_xgid() == x
        assert nardy.Position.from_xgid(x) == p
        assert nardy.formats.encode_xgid(nardy.formats.decode_xgid(x)) == x


def test_xgid_fields_as_written():
    x = "XGID=bC----B-------------b---dA:1:1:-1:52:2:1:0:7:8"
    rec = nardy.formats.decode_xgid(x)
    boards, turn, f = batch.from_xgids([x, "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:3:0:10"],
                                       fields=True)
    assert np.array_equal(boards[0], [rec.mover, rec.opponent]) and turn.tolist() == [BLACK, WHITE]
    assert f["cube"].tolist() == [2, 1] and f["cube_position"].tolist() == [1, 0]
    assert f["turn"].tolist() == [-1, 1] and f["dice"].tolist() == [[5, 2], [0, 0]]
    assert f["action"].tolist() == [0, 1] and f["score_bottom"].tolist() == [2, 0]
    assert f["score_top"].tolist() == [1, 0] and f["rules"].tolist() == [0, 3]
    assert f["match_length"].tolist() == [7, 0] and f["max_cube"].tolist() == [256, 1024]


def test_xgid_mutations_read_as_the_reference_reads_them():
    rng = random.Random(17)
    alphabet = "-ABCDEFPQabcdefpq0123456789:XGID=DBR"
    accepted = 0
    for _ in range(3000):
        m, o = random_sides(rng)
        s = list(R.encode_xgid(m, o, rng.choice((1, -1))))
        for _ in range(rng.randint(1, 2)):
            s[rng.randrange(5, 31)] = rng.choice(alphabet[:17])  # the position field only
        x = "".join(s)
        try:
            want = R.decode_xgid_position(x)
        except ValueError:
            want = None
        try:
            rec = nardy.formats.decode_xgid(x)
            got = (rec.mover, rec.opponent, rec.turn)
        except InvalidIdError:
            got = None
        assert got == want, x
        accepted += got is not None
        if got is not None:
            b, _ = batch.from_xgids([x])
            assert b[0].tolist() == [list(got[0]), list(got[1])]
        else:
            with pytest.raises(InvalidIdError, match=r"xgids\[0\]"):
                batch.from_xgids([x])
    assert 300 < accepted < 2900


@pytest.mark.parametrize("bad", [
    "", "XGID=", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10:1",
    "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
    "XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",    # X on O's bar
    "XGID=-b----E-C---eE---c-e----Bb:0:0:1:00:0:0:0:0:10",    # O on X's bar
    "XGID=-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:0:10",   # cube 2**16
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:17",
    "XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10",    # cube position 2
    "XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10",    # turn 0
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:0:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10",    # score = length
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10",    # rules 2 in a match
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:40000:10",
    "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:-1:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:1234567",
    "XGID=-p----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",    # 16 + 11 O checkers
    "XGID=-b----E-C---eé---c-e----B-:0:0:1:00:0:0:0:0:10",
])
def test_malformed_xgids(bad):
    with pytest.raises(InvalidIdError):
        nardy.formats.decode_xgid(bad)
    with pytest.raises(InvalidIdError):
        nardy.Position.from_xgid(bad)
    with pytest.raises(InvalidIdError, match=r"xgids\[0\]"):
        batch.from_xgids([bad])


def test_bad_turns_for_to_xgids(boards):
    for turn in (2, -1, [0] * 5, np.zeros((N, 2), int), True):
        with pytest.raises(Error):
            batch.to_xgids(boards, turn=turn)


def test_errors_are_value_errors_of_nardy():
    for call in (lambda: batch.from_position_ids(["x"]), lambda: batch.from_xgids(["x"]),
                 lambda: nardy.formats.decode_position_id(5)):
        with pytest.raises(ValueError) as info:
            call()
        assert isinstance(info.value, Error)
