"""The command line: --version, show, convert, variants, --json, help text, the thread
default and the progress bar. Expected values come from the rules and documented constants
(the opening's Position ID and XGID, perft counts of the perft suite), not from the CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import nardy
from nardy import BLACK, WHITE, Position
from nardy.cli import DEFAULT_THREADS, build_parser, main
from nardy.formats import OPENING_POSITION_ID, OPENING_XGID
from nardy.textboard import board

RECORDS = Path(__file__).parent / "records"
ROOT = Path(__file__).resolve().parents[1]
OPENING_TEXT = "backgammon W:24x2,13x5,8x3,6x5 B:24x2,13x5,8x3,6x5 w"
OPENING_FIBS = ("board:You:Opponent:9999:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:"
                "0:0:2:0:1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"nardy {nardy.__version__}"
    proc = subprocess.run([sys.executable, "-m", "nardy", "--version"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT,
                          # the folder this nardy came from: a source tree or site-packages
                          env={"PYTHONPATH": str(Path(nardy.__file__).parents[1]),
                               "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0 and proc.stdout.strip() == f"nardy {nardy.__version__}"


def test_show_on_an_ascii_terminal_falls_back_to_ascii() -> None:
    # the folder this nardy came from: a source tree or site-packages
    env = {"PYTHONPATH": str(Path(nardy.__file__).parents[1]), "PATH": "/usr/bin:/bin",
           "PYTHONIOENCODING": "ascii"}
    proc = subprocess.run([sys.executable, "-m", "nardy", "show", "shlem"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip("\n") == board(Position("shlem"), ascii=True)


def test_every_positional_argument_and_command_has_help() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    helps = {c.dest: c.help for c in sub._choices_actions}
    assert set(helps) >= {"show", "convert", "variants", "perft", "moves", "rollout"}
    for name, p in sub.choices.items():
        assert helps.get(name), name
        for action in p._actions:
            if not action.option_strings:  # positional
                assert action.help and len(action.help) > 10, (name, action.dest)


def test_gnubg_formats_take_the_variant_of_the_command(capsys) -> None:
    # nackgammon's start in a Position ID: perft 1 counts its moves, not backgammon's
    pid = Position("nackgammon").to_position_id()
    nack = nardy.perft(Position("nackgammon"), 1)
    assert nack != nardy.perft(Position("backgammon"), 1)
    rc, out, _ = run(capsys, "perft", "nackgammon", "1", "--position", pid, "--json")
    assert rc == 0 and json.loads(out)["nodes"] == nack
    rc, _, err = run(capsys, "perft", "long-nardy", "1", "--position", pid)
    assert rc == 2 and "not long-nardy" in err


def test_one_thread_by_default() -> None:
    parser = build_parser()
    assert DEFAULT_THREADS == 1
    assert parser.parse_args(["perft", "backgammon", "2"]).threads == 1
    assert parser.parse_args(["rollout", "backgammon", "10"]).threads == 1


@pytest.mark.parametrize("text", [OPENING_TEXT, OPENING_POSITION_ID,
                                  OPENING_POSITION_ID + ":cAkAAAAAAAAA", OPENING_XGID,
                                  OPENING_FIBS, "backgammon", "short nardy"])
def test_show_reads_every_format(capsys, text: str) -> None:
    rc, out, _ = run(capsys, "show", text, "--ascii")
    assert rc == 0
    cube = 1 if text == OPENING_XGID else None  # XGID always carries the cube
    assert out.rstrip("\n") == board(Position("backgammon"), ascii=True, cube=cube)
    rc, out, _ = run(capsys, "show", text, "--json")
    doc = json.loads(out)
    opening = [0] * 26
    opening[23], opening[12], opening[7], opening[5] = 2, 5, 3, 5
    assert doc["white"] == opening and doc["black"] == opening
    assert doc["pips"] == {"white": 167, "black": 167} and doc["turn"] == "white"


def test_show_other_variants_turn_dice_and_cube(capsys) -> None:
    rc, out, _ = run(capsys, "show", "long-nardy W:24x14,19 B:12x15 b dice=63", "--ascii")
    assert rc == 0
    assert "black to move" in out and "dice 6-3" in out and "X black, on roll" in out
    rc, out, _ = run(capsys, "show", "backgammon W:24x2,13x5,8x3,6x5 B:24x2,13x5,8x3,6x5 b "
                     "dice=52 cube=4w", "--json")
    doc = json.loads(out)
    assert doc["dice"] == [5, 2] and doc["cube"] == {"value": 4, "owner": "white"}
    rc, out, _ = run(capsys, "show", "backgammon W:24x2,13x5,8x3,6x5 B:24x2,13x5,8x3,6x5 w "
                     "cube=2b match=7:2-4", "--ascii")
    assert "match to 7: white 2, black 4" in out.split("\n")[0]
    rc, out, _ = run(capsys, "show", "shlem")
    assert rc == 0 and "stage 1" in out and "reserve 3" in out
    doc = json.loads(run(capsys, "show", "shlem", "--json")[1])
    assert doc["pips"] is None  # Shlem has no pip count
    rc, out, _ = run(capsys, "show", "backgammon")
    assert "●" in out and "○" in out
    rc, out, _ = run(capsys, "show", "backgammon", "--ascii")
    assert out.isascii()


def test_show_writes_svg_and_png(capsys, tmp_path: Path) -> None:
    svg, png = tmp_path / "b.svg", tmp_path / "b.png"
    rc, _, _ = run(capsys, "show", "long-nardy", "--svg", str(svg))
    assert rc == 0 and ET.fromstring(svg.read_text()).tag == "{http://www.w3.org/2000/svg}svg"
    pytest.importorskip("cairosvg")
    rc, _, err = run(capsys, "show", OPENING_XGID, "--png", str(png), "--size", "300")
    assert rc == 0, err
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") == 300  # IHDR width
    rc, _, err = run(capsys, "show", "backgammon", "--png", str(tmp_path / "no" / "x.png"))
    assert rc == 2 and "cannot write" in err


def test_png_without_cairosvg_is_a_clear_error(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg now fails
    rc, _, err = run(capsys, "show", "backgammon", "--png", str(tmp_path / "x.png"))
    assert rc == 2 and "cairosvg" in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("argv,message", [
    (["show", "nonsense"], "cannot read 'nonsense' as a position"),
    (["show", "backgammon W:24x2 B:- w"], "every side has 15"),
    (["show", "XGID=junk:0:0:1:00:0:0:0:0:10"], "XGID"),
    (["convert", "/nonexistent/match.mat"], "cannot read"),
    (["convert", "shlem", "--to", "xgid"], "only backgammon"),
    (["convert", "backgammon", "--to", "sgf"], "match record"),
    (["perft", "backgammon", "2", "--threads", "-1"], "threads"),
    (["rollout", "backgammon", "0"], "games"),
    (["rollout", "backgammon", "5", "--variance-reduction"], "evaluator policy"),
])
def test_errors_exit_2_with_a_message(capsys, argv: list[str], message: str) -> None:
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and message in err and "Traceback" not in err


def test_convert_positions(capsys) -> None:
    rc, out, _ = run(capsys, "convert", "backgammon")
    assert rc == 0
    lines = dict(line.split(": ", 1) for line in out.strip().split("\n"))
    assert lines == {"text": OPENING_TEXT, "position-id": OPENING_POSITION_ID,
                     "xgid": OPENING_XGID, "fibs": OPENING_FIBS}
    assert run(capsys, "convert", OPENING_XGID, "--to", "position-id")[1].strip() == \
        OPENING_POSITION_ID
    # a position after a move, black on roll with a roll and the cube: through each format
    after = Position("backgammon").play("8/5 6/5", (3, 1))
    text = nardy.to_text(after, dice=(6, 4))
    for fmt in ("xgid", "fibs", "text"):
        converted = run(capsys, "convert", text, "--to", fmt)[1].strip()
        doc = json.loads(run(capsys, "show", converted, "--json")[1])
        assert doc["white"] == list(after.side(WHITE)) and doc["black"] == list(after.side(BLACK))
        assert doc["turn"] == "black" and doc["dice"] == [6, 4], fmt
    doc = json.loads(run(capsys, "convert", "long-nardy", "--to", "json")[1])
    assert nardy.from_json(doc) == Position("long-nardy")
    doc = json.loads(run(capsys, "convert", "shlem", "--json")[1])
    assert list(doc) == ["text"] and doc["text"].startswith("shlem W:")


def test_convert_match_records(capsys, tmp_path: Path) -> None:
    mat, sgf = RECORDS / "random_5pt_seed9.mat", RECORDS / "random_5pt_seed9.sgf"
    out = tmp_path / "m.sgf"
    rc, _, err = run(capsys, "convert", str(mat), "-o", str(out))
    assert rc == 0, err
    assert out.read_text() == sgf.read_text()  # the same match, recorded in both formats
    rc, text, _ = run(capsys, "convert", str(sgf), "--to", "mat")
    assert rc == 0 and text == mat.read_text()
    copy = tmp_path / "record.txt"
    copy.write_text(mat.read_text())
    rc, _, err = run(capsys, "convert", str(copy), "--to", "sgf")
    assert rc == 2 and "extension" in err
    rc, text, _ = run(capsys, "convert", str(copy), "--from", "mat", "--to", "sgf")
    assert rc == 0 and text == sgf.read_text()


def test_variants(capsys) -> None:
    rc, out, _ = run(capsys, "variants")
    assert rc == 0
    for cls in nardy.VARIANTS:
        assert f"{cls.name}: " in out
        for alias in cls.aliases:
            assert alias in out
    doc = json.loads(run(capsys, "variants", "--json")[1])
    assert [d["name"] for d in doc] == [cls.name for cls in nardy.VARIANTS]
    ln = next(d for d in doc if d["name"] == "long-nardy")
    assert ln["options"]["head_rule"] == {"default": "federation",
                                          "allowed": ["federation", "classic", "extended"]}
    assert next(d for d in doc if d["name"] == "shlem")["options"]["pass_limit"]["default"] == 4


def test_json_of_perft_moves_rollout(capsys) -> None:
    doc = json.loads(run(capsys, "perft", "backgammon", "2", "--json")[1])
    assert doc["nodes"] == 202782 and doc["depth"] == 2 and doc["rolls"] == 21
    doc = json.loads(run(capsys, "perft", "backgammon", "1", "--divide", "--json")[1])
    assert doc["nodes"] == 447 and {"dice": [3, 1], "nodes": 16} in doc["divide"]
    doc = json.loads(run(capsys, "moves", "backgammon", "31", "--json")[1])
    assert doc["count"] == 16 and "8/5 6/5" in doc["moves"]
    doc = json.loads(run(capsys, "rollout", "backgammon", "300", "--seed", "3", "--json",
                         "--no-progress")[1])
    assert doc["games"] == 300 and doc["threads"] == 1
    assert sum(doc["wins"][0]) + sum(doc["wins"][1]) + doc["draws"] + doc["unfinished"] == 300


def test_moves_lists_whole_turns(capsys) -> None:
    try:
        from tests.reference import acey_deucey_ref as acey
    except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
        from reference import acey_deucey_ref as acey  # type: ignore[no-redef]
    # Acey-deucey's 1-2 from the start: the 1-2 with every named double, as the independent
    # reference lists the turn (each move is its result and the double it names)
    doc = json.loads(run(capsys, "moves", "acey-deucey", "21", "--json")[1])
    _, want = acey.turn_moves(acey.start(), 2, 1)
    assert doc["count"] == len({(r, named) for r, named, _ in want}) == len(set(doc["moves"]))
    assert all(re.search(r"\([1-6]-[1-6]\)", m) for m in doc["moves"])
    # Gul bara: a double cascades on a late turn (the default away from the start), not on
    # the mover's second turn
    text = "gul-bara W:24x13,19,18 B:12x13,10,8 w"
    pos = Position.from_text(text)
    late = json.loads(run(capsys, "moves", "gul-bara", "55", "--position", text, "--json")[1])
    second = json.loads(run(capsys, "moves", "gul-bara", "55", "--position", text, "--turn",
                            "2", "--json")[1])
    assert second["count"] == len(pos.legal_moves((5, 5))) < late["count"]
    assert late["count"] == len(pos.turn_moves((5, 5), 100))
    assert run(capsys, "moves", "gul-bara", "55", "--turn", "0")[0] != 0


def _last_bar(err: str) -> str:
    return [x for x in err.replace("\n", "\r").split("\r") if x.strip()][-1]


@pytest.mark.parametrize("threads", ["1", "2"])
def test_perft_progress_bar_on_any_thread_count(capsys, threads: str) -> None:
    rc, out, err = run(capsys, "perft", "backgammon", "3", "--threads", threads, "--progress")
    assert rc == 0 and "116154993" in out  # perft 3 of the perft suite
    last = _last_bar(err)
    assert "100.0%" in last and "ETA" in last
    m = re.search(r"([\d,]+) nodes, ([\d,.]+) nodes/s", last)
    assert m, last
    assert int(m.group(1).replace(",", "")) == 116154993
    assert float(m.group(2).replace(",", "")) > 0
    assert err.count("\r") >= 10  # redrawn as the work goes


def test_rollout_progress_bar(capsys) -> None:
    rc, out, err = run(capsys, "rollout", "backgammon", "4000", "--seed", "1", "--progress")
    assert rc == 0
    last = _last_bar(err)
    assert "100.0%" in last and "4,000/4,000 games" in last and "ETA 00:00" in last
    rate = float(re.search(r"([\d,.]+) games/s", last).group(1).replace(",", ""))
    assert rate > 0
    # the bar does not change the counts: the same as one call
    rc, out2, _ = run(capsys, "rollout", "backgammon", "4000", "--seed", "1", "--json",
                      "--no-progress")
    plain = nardy.rollout(Position("backgammon"), 4000, seed=1, threads=1)
    assert json.loads(out2)["wins"] == [list(w) for w in plain.wins]


def test_rollout_with_an_evaluator_and_variance_reduction(capsys) -> None:
    pid = "kgAAkAQAAAAAAA"  # a race of three checkers a side
    rc, out, _ = run(capsys, "rollout", "backgammon", "60", "--position", pid, "--policy",
                     "race", "--variance-reduction", "--seed", "2", "--json")
    assert rc == 0
    doc = json.loads(out)
    api = nardy.rollout(Position.from_position_id(pid), 60, "race", seed=2,
                        variance_reduction=True)
    assert doc["variance_reduction"] is True and doc["policy"] == "race@0"
    assert doc["mean"] == api.mean and doc["raw_mean"] == api.raw_mean != api.mean
    rc, out, _ = run(capsys, "rollout", "backgammon", "60", "--position", pid, "--policy",
                     "race", "--plies", "1", "--variance-reduction", "--seed", "2")
    assert rc == 0 and "luck-adjusted mean" in out and "race@1" in out


def _long_nardy_game() -> nardy.Game:
    g = nardy.Game("long-nardy", seed=11)
    while not g.is_game_over():
        g.roll()
        if g.phase == "move":
            moves = g.legal_moves()
            g.play(0) if len(moves) else g.pass_turn()
    return g


def test_convert_nardy_records(capsys, tmp_path: Path) -> None:
    from nardy.formats import read_mat, read_record, write_record

    mat = RECORDS / "random_5pt_seed9.mat"
    rec = tmp_path / "m.nardy"
    rc, _, err = run(capsys, "convert", str(mat), "-o", str(rec))
    assert rc == 0, err
    back = read_record(rec.read_text())
    assert back.match.score == read_mat(mat.read_text()).match.score == (4, 5)
    rc, text, _ = run(capsys, "convert", str(rec), "--to", "mat")
    assert rc == 0 and text == mat.read_text()  # .mat -> .nardy -> .mat gives the file back
    # long nardy has only the nardy record: it round-trips, and .mat says why it cannot
    src = tmp_path / "long.nardy"
    src.write_text(write_record(_long_nardy_game()))
    out = tmp_path / "again.nardy"
    rc, _, err = run(capsys, "convert", str(src), "-o", str(out))
    assert rc == 0, err
    assert out.read_text() == src.read_text()
    rc, _, err = run(capsys, "convert", str(src), "--to", "mat")
    assert rc == 2 and "error" in err and "Traceback" not in err
    rc, _, err = run(capsys, "convert", str(src))
    assert rc == 2 and "--to" in err


def test_perft_of_a_turn_numbered_variant_counts_from_the_first_turn(capsys) -> None:
    # Gul bara's start is each player's turn 1 (no cascade yet), as nardy.perft counts it
    for name in ("gul-bara", "acey-deucey"):
        want = nardy.perft(Position(nardy.find_variant(name)()), 2)
        code, out, _ = run(capsys, "perft", name, "2", "--no-progress")
        assert code == 0 and str(want) in out.replace(",", ""), (name, out)
    assert nardy.perft(Position(nardy.GulBara()), 2) == 2768  # tests/perft/gul-bara.perft


def test_parallel_perft_of_turn_numbered_variants_equals_the_serial_count() -> None:
    from nardy import parallel

    for name in ("gul-bara", "acey-deucey"):
        start = Position(nardy.find_variant(name)())
        want = nardy.perft(start, 2)
        assert parallel.perft(start, 2) == want
        assert parallel.perft_threads(start, 2, threads=1) == want
        assert parallel.perft_threads(start, 2, progress=lambda done, n: None) == want


def test_threaded_perft_of_turn_numbered_variants_equals_the_serial_count() -> None:
    """The core's split of the root's whole turns over threads counts each child on its ply:
    the opponent's first turn below the start, the same player after a move that ends in
    another roll (Acey-deucey), and the dice a stopped cascade leaves him (Gul bara's
    "to-opponent")."""
    from nardy import parallel
    from nardy.formats.text import from_text

    # White's cascade of 3s stops with one 3 left after 11/2 (tests/test_gul_bara_carried.py's
    # position, with one black checker on each point that blocks White's head)
    text = "W:24x14,11 B:23,22,21,20,19,18,offx9 w turn=5"
    stops = from_text("gul-bara[stopped_cascade=to-opponent] " + text).position
    cases = [(Position(nardy.GulBara()), 3), (Position(nardy.AceyDeucey()), 2), (stops, 2)]
    for pos, depth in cases:
        want = nardy.perft(pos, depth)
        for threads in (2, 3):
            assert parallel.perft_threads(pos, depth, threads=threads) == want, pos
        assert parallel.perft(pos, depth, threads=2) == want, pos
    # the carried dice are in the last count (without them it differs)
    assert nardy.perft(from_text("gul-bara " + text).position, 2) != nardy.perft(stops, 2)
    # a child's turn number comes from its ply: on turn 2, counting turns over the game's
    # rolls makes the second roller's turn below the root a cascade turn
    counts = set()
    for options in ("stopped_cascade=to-opponent",
                    "stopped_cascade=to-opponent,cascade_count=game-rolls"):
        pos = from_text(f"gul-bara[{options}] " + text).position
        want = nardy.perft(pos, 2, first_turn=2)
        assert pos.variant.engine.perft_turn(pos.key, 2, False, 2, None, threads=2) == want
        counts.add(want)
    assert len(counts) == 2
    engine = stops.variant.engine
    with pytest.raises(nardy.Error):
        engine.perft_turn(stops.key, 2, threads=-1)
