"""Game records: Jellyfish/gnubg .mat and SGF (GM[6]) matches, and the seed-001 sample game.

The .mat layout is gnubg's ExportGameJF (columns of 33 characters, cube actions and results
in the player's column); every record read is replayed move by move through Match/Game, and
the first illegal or inconsistent thing raises InvalidRecordError naming game, move, player.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nardy.errors import InvalidRecordError
from nardy.formats import MatchRecord, read_mat, read_sgf, to_text, write_mat, write_sgf
from nardy.game import Phase

from nardy import BLACK, WHITE, Game, GameRules, LongNardy, Match, Position

sys.path.insert(0, str(Path(__file__).parent))
from test_formats_text_json import play_match  # the same random player

RECORDS = Path(__file__).parent / "records"


def finals(match):
    return [g.position for g in match.games]


# ---------------------------------------------------------------------------------------
# The exact .mat layout (gnubg's export), built from scripted games
# ---------------------------------------------------------------------------------------


def scripted(length, script, **rules):
    """A match played from a script: ("open", w, b) | ("roll", d1, d2) | notation | action."""
    m = Match(length, "backgammon", seed=0, **rules)
    for item in script:
        g = m.game
        if item == "next":
            m.next_game()
        elif isinstance(item, tuple):
            g.roll(item[1:])
        elif item in ("double", "take", "drop", "accept", "decline", "beaver", "raccoon",
                      "pass"):
            getattr(g, "pass_turn" if item == "pass" else item)()
        elif item.startswith("resign"):
            g.resign(int(item[6:]))
        else:
            g.play(item)
    return m


HEAD = "\n 3 point match\n\n Game 1\n White : 0                      Black : 0\n"


def test_layout_double_and_drop_right_column():
    m = scripted(3, [("open", 3, 1), "8/5 6/5", ("roll", 6, 4), "24/18 13/9", "double",
                     "drop"])
    assert write_mat(m) == HEAD + (
        "  1) 31: 8/5 6/5                 64: 24/18 13/9 \n"
        "  2)  Doubles => 2                Drops\n"
        "      Wins 1 point\n\n")


def test_layout_black_starts_double_take_and_drop_left_column():
    m = scripted(3, [("open", 2, 6), "24/18 13/11", ("roll", 5, 5), "8/3(2) 6/1*(2)",
                     "double", "take", ("roll", 6, 6), "pass", "double", "drop"])
    assert write_mat(m) == HEAD + (
        "  1)                             62: 24/18 13/11 \n"
        "  2) 55: 8/3 8/3 6/1* 6/1         Doubles => 2\n"
        "  3)  Takes                      66: \n"
        "  4)  Doubles => 4                Drops\n"
        "      Wins 2 points\n\n")
    # and the drop in the left column: "Wins" goes to the right one, on the same line
    m = scripted(3, [("open", 3, 1), "8/5 6/5", "double", "drop"])
    assert write_mat(m) == HEAD + (
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point \n\n")


def test_layout_resignations():
    # black rolls and resigns: the dice alone, then white's win on its own line
    m = scripted(1, [("open", 6, 2), "13/7 8/6", ("roll", 5, 1), "resign1", "accept"])
    assert write_mat(m).split("Game 1\n")[1] == (
        " White : 0                      Black : 0\n"
        "  1) 62: 13/7 8/6                51: \n"
        "      Wins 1 point\n\n")
    # white resigns before rolling, after black's move: black's column
    m = scripted(1, [("open", 6, 2), "13/7 8/6", ("roll", 5, 1), "13/8 6/5",
                     "resign2", "accept"])
    assert write_mat(m).split("Game 1\n")[1].splitlines()[2:] == [
        "                                  Wins 2 points", ""]
    # a declined resignation leaves no trace
    m = scripted(1, [("open", 6, 2), "13/7 8/6", "resign3", "decline", ("roll", 5, 1),
                     "13/8 6/5"])
    r = read_mat(write_mat(m))
    assert r.match.game.position == m.game.position
    assert "resign" not in [a.kind for a in r.match.game.history]


def test_layout_bear_off_win_in_both_columns():
    seen = set()
    for seed in range(40):
        m = Match(0, seed=seed, cube=False)
        g = m.game
        rng = random.Random(seed)
        while not g.is_game_over():
            if g.phase is Phase.MOVE:
                n = g.move_count()
                g.play(rng.randrange(n)) if n else g.pass_turn()
            else:
                g.roll()
        w = g.winner()
        if w in seen:
            continue
        seen.add(w)
        text = write_mat(m)
        lines = text.rstrip("\n").splitlines()
        column = 6 if w == WHITE else 34
        points = g.result().points
        assert lines[-1] == " " * column + f"Wins {points} point" + ("s" if points > 1 else "")
        # white's winning move ends its line unfinished; black's ends with a space
        assert lines[-2].endswith(" ") and text.endswith("\n\n")
        assert read_mat(text).match.score == m.score
        if len(seen) == 2:
            break
    assert seen == {WHITE, BLACK}


# ---------------------------------------------------------------------------------------
# Reading gnubg/Jellyfish layouts
# ---------------------------------------------------------------------------------------

GNUBG_LIKE = """; [Site "somewhere"]
; [EventDate "2024.01.02"]
; a free comment line

 3 point match

 Game 1
 alice : 0                      bob : 0
  1)                             62: 24/18 13/11 
  2) 41: 13/9 24/23              55: 13/8 13/8 8/3 8/3
  3) 66: 13/7* 13/7 8/2 8/2       Doubles => 2
  4)  Drops                       Wins 1 point 

 Game 2
 alice : 0                      bob : 1
  1) 31: 8/5 6/5                 43: 24/21 13/9 
  2)  Doubles => 2                Drops
      Wins 1 point

"""


def test_read_gnubg_like_layout():
    r = read_mat(GNUBG_LIKE)
    assert r.players == ("alice", "bob")
    assert r.tags == {"Site": "somewhere", "EventDate": "2024.01.02",
                      "Comment": "a free comment line"}
    assert r.match.length == 3 and r.match.score == (1, 1) and len(r.match.games) == 2
    # written back: the same moves, the same layout (the comment line is a tag now)
    out = write_mat(r)
    assert out.split(" 3 point match")[1] == GNUBG_LIKE.split(" 3 point match")[1]


def test_read_jellyfish_names_and_dice_order():
    text = HEAD + ("  1) 13: 8/5 6/5                 46: bar/21 13/9 \n")
    with pytest.raises(InvalidRecordError, match="bar"):
        read_mat(text)  # black has no checker on the bar
    with pytest.raises(InvalidRecordError, match="not a legal move"):
        read_mat(HEAD + "  1) 13: 8/5 6/5                 46: 6/off 13/9 \n")
    r = read_mat(HEAD + "  1) 13: 8/5 6/5                 46: 24/18 13/9 \n"
                        "  2) 21: 13/11 6/5 \n")
    assert r.match.game.turn == BLACK
    moves = [a for a in r.match.game.history if a.kind == "move"]
    assert [a.dice for a in moves] == [(3, 1), (4, 6), (2, 1)]


def test_read_our_notation_in_cells():
    r = read_mat(HEAD + "  1) 31: 8/5 6/5                 64: 24/18/14 \n")
    assert r.match.game.position == Position().play("8/5 6/5", (3, 1)).play("24/14", (6, 4))
    assert r.match.game.history[-1].move.steps[0].to == 17  # the written order is kept


# ---------------------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------------------

RULES = [
    (5, {}),
    (7, {"crawford": False}),
    (0, {"jacoby": True}),
    (0, {"scoring": "encyclopedia", "max_cube": 8}),
    (3, {"stakes": "arithmetic"}),
    (1, {}),
]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(RULES))
def test_round_trip_mat_and_sgf(seed, lr):
    length, rules = lr
    rules = dict(rules)
    crawford = rules.pop("crawford", True)
    m = play_match(length, seed, crawford=crawford, **rules)
    names = ("Ann Lee", "Bo")
    t = write_mat(m, players=names, tags={"Event": "test"})
    r = read_mat(t)
    assert write_mat(r) == t and r.players == names and r.tags == {"Event": "test"}
    assert finals(r.match) == finals(m) and r.match.score == m.score
    assert r.match.rules == m.rules and r.match.crawford_rule == m.crawford_rule
    s = write_sgf(m, players=names)
    r2 = read_sgf(s)
    assert write_sgf(r2) == s and r2.players == names
    assert finals(r2.match) == finals(m) and r2.match.score == m.score
    assert r2.match.rules == m.rules
    # across formats
    assert finals(read_sgf(write_sgf(r)).match) == finals(m)
    assert to_text(r2.match) == to_text(r.match)


def test_sgf_beaver_raccoon_and_automatic_doubles():
    m = Match(0, "backgammon", seed=2, beaver=True, raccoon=True, auto_doubles=1)
    g = m.game
    g.roll((4, 4))           # a tied opening throw: the cube goes to 2
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.double()
    g.beaver()
    g.raccoon()
    g.take()
    with pytest.raises(InvalidRecordError, match="beaver"):
        write_mat(m)
    s = write_sgf(m)
    assert "CV[2]" in s and s.count("[double]") == 3
    r = read_sgf(s)
    assert r.match.game.cube_value == 16 and r.match.game.cube_owner == BLACK  # raccooner
    assert r.match.game.history[2:] == m.game.history[2:]
    assert write_sgf(r) == s
    m2 = Match(0, "backgammon", seed=2, auto_doubles=1)
    m2.game.roll((2, 2))
    m2.game.roll((3, 1))
    with pytest.raises(InvalidRecordError, match="automatic doubles"):
        write_mat(m2)


def test_sample_record_files():
    mat = (RECORDS / "random_5pt_seed9.mat").read_text()
    sgf = (RECORDS / "random_5pt_seed9.sgf").read_text()
    r = read_mat(mat)
    assert write_mat(r) == mat
    r2 = read_sgf(sgf)
    assert write_sgf(r2) == sgf
    assert finals(r.match) == finals(r2.match)
    assert r.match.score == r2.match.score == (4, 5) and r.match.is_over()
    assert r.players == r2.players == ("Alice", "Bob")
    assert r.match.crawford_game == 3
    # the record was written by play_match(5, 9): the replay ends where that match ended
    m = play_match(5, 9)
    assert finals(m) == finals(r.match)


def test_record_objects():
    m = play_match(3, 4)
    rec = MatchRecord(m, ("x", "y"), {"Event": "e"})
    assert read_mat(write_mat(rec)).players == ("x", "y")
    g = Game(seed=3)
    g.roll((3, 1))
    g.play("8/5 6/5")
    r = read_mat(write_mat(g))    # one game: a money session
    assert r.match.length == 0 and r.match.game.position == g.position


# ---------------------------------------------------------------------------------------
# Errors: the first bad thing, named
# ---------------------------------------------------------------------------------------


def err(text, reader=read_mat, **kw):
    with pytest.raises(InvalidRecordError) as e:
        reader(text, **kw)
    return e.value


def test_error_illegal_move_names_game_move_player():
    text = GNUBG_LIKE.replace("55: 13/8 13/8 8/3 8/3", "55: 13/8 13/8 8/3 9/4")
    e = err(text)
    assert (e.game, e.move, e.player) == (1, 2, BLACK)
    assert str(e).startswith("game 1, move 2 (black), line 10: 55: 13/8 13/8 8/3 9/4:")
    text = GNUBG_LIKE.replace("31: 8/5 6/5", "31: 8/4 6/5")
    e = err(text)
    assert (e.game, e.move, e.player) == (2, 1, WHITE)


def row(n, left, right=None):
    """A numbered .mat line in gnubg's columns."""
    return f"{n:3d}) {left:<27} {right}\n" if right is not None else f"{n:3d}) {left}\n"


OPEN_64 = row(1, "31: 8/5 6/5", "64: 24/18 13/9 ")

BAD_MAT = [
    ("", "no 'N point match'"),
    ("hello\n", "expected 'N point match'"),
    (" 3 point match\n\n Game 2\n", "expected 'Game 1'"),
    (" 3 point match\n\n", "no games"),
    (" 3 point match\n\n  1) 31: 8/5 6/5\n", "expected 'Game 1'"),
    (" 3 point match\n\n Game 1\n", "no score line"),
    (" 3 point match\n\n Game 1\n a : x   b : 0\n", "score line"),
    (HEAD + "  2) 31: 8/5 6/5\n", "move number 2), expected 1)"),
    (HEAD + "  1) 31: 8/5 6/5 xyz\n", "'xyz'"),
    (HEAD + "  1) 31: 8/5 6/5\n hello\n", "cannot read 'hello'"),
    (HEAD + "  1) 31: 8/5 6/5 Takes now\n", "'now'"),
    (HEAD + "  1) 33: 8/5 6/5\n", "is a double"),
    (HEAD + row(1, "31: 8/5 6/5", "31: 8/5 6/5") + row(2, "62: 6/off 6/4"),
     "move 2 (white)"),
    (HEAD + "  1)                             31: 8/5 6/5\n"
            "  2) 31: 8/5 6/5                 31: 8/5 6/5\n"
            "  3)                             31: 8/5 6/5\n", "white's turn"),
    (HEAD + row(1, "31: 8/5 6/5", " Doubles => 4"), "the cube goes to 2"),
    (HEAD + row(1, "31: 8/5 6/5", " Takes"), "no double for black"),
    (HEAD + OPEN_64 + row(2, " Doubles => 2", " Drops") + "      Wins 2 points\n",
     "2 point(s), the game is worth 1"),
    (HEAD + OPEN_64 + row(2, " Doubles => 2", " Drops") + " " * 34 + "Wins 1 point\n",
     "black wins, but white won"),
    (HEAD + OPEN_64 + " " * 34 + "Wins 5 points\n", "no resignation gives 5"),
    (HEAD + row(1, "31: 8/5 6/5", "64: ") + row(2, "31: 8/5 6/5"), "no move written for 64"),
    (HEAD + row(1, "31: 8/5 6/5") + "\n Game 2\n White : 0  Black : 0\n", "not finished"),
    (HEAD + OPEN_64 + " " * 34 + "Wins 1 point\n" + row(2, "31: 8/5 6/5"),
     "follows 'Wins'"),
    (HEAD + OPEN_64 + row(2, " Doubles => 2", " Drops") + "      Wins 1 point\n\n"
            " Game 2\n White : 0                      Black : 0\n", "score 0-0"),
    (HEAD + OPEN_64 + row(2, " Doubles => 2", " Drops") + "      Wins 1 point\n\n"
            " Game 2\n Wit : 1                      Black : 0\n", "players"),
    ('; [Variation "Hypergammon-7"]\n' + HEAD, "only backgammon and"),
    ('; [Crawford "maybe"]\n' + HEAD, "On\" or \"Off"),
    ('; [CubeLimit "lots"]\n' + HEAD, "CubeLimit"),
    ('; [Rules "speed=fast"]\n' + HEAD, "not a rule"),
    ('; [Rules "scoring=chess"]\n' + HEAD, "cannot be played"),
    ('; [Beaver "On"]\n' + HEAD, "money-play option"),
    ('; [Site "a"]\n; [Site "b"]\n' + HEAD, "given twice"),
    (HEAD + "  1) 31: 8/5 6/5 ???\n", "'???'"),
]


@pytest.mark.parametrize("text,why", BAD_MAT)
def test_mat_malformed(text, why):
    e = err(text)
    assert why in str(e), str(e)


def test_mat_rules_parameter_and_not_text():
    assert err(b" 3 point match", read_mat) is not None
    text = HEAD + OPEN_64 + row(2, " Doubles => 2", " Drops") + "      Wins 1 point\n"
    assert read_mat(text).match.rules.cube
    e = err(text, rules=GameRules(cube=False))
    assert "no doubling cube" in str(e) and e.move == 2 and e.player == WHITE


def test_unwritable():
    g = Game("long-nardy", seed=1)
    with pytest.raises(InvalidRecordError, match="only backgammon"):
        write_mat(g)
    with pytest.raises(InvalidRecordError, match="set-up position"):
        write_sgf(Game(position=Position().play("8/5 6/5", (3, 1))))
    with pytest.raises(InvalidRecordError, match="player name"):
        write_mat(Match(3, seed=1), players=("a : b", "c"))
    with pytest.raises(InvalidRecordError, match="cannot write"):
        write_mat("a match")
    with pytest.raises(InvalidRecordError, match="Crawford"):
        write_mat(Game(crawford=True))
    assert LongNardy  # (imported for the variant check above)


SGF = ("(;FF[4]GM[6]CA[UTF-8]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RU[Crawford]RE[W+1]\n"
       ";W[31hefe]\n;B[64aglp]\n;W[double]\n;B[drop])\n")


def test_sgf_reads_gnubg_style():
    r = read_sgf(SGF)
    assert r.players == ("a", "b") and r.match.score == (1, 0)
    assert r.match.game.history[1].move.notation() == "8/5 6/5"
    # properties gnubg adds (analysis, luck, comments) are ignored; nested trees are one line
    rich = SGF.replace(";W[31hefe]", ";W[31hefe]A[0][hefe E ver 3 0.5]LU[+0.1]C[nice \\] move]")
    assert finals(read_sgf(rich).match) == finals(r.match)
    nested = SGF.replace("\n;B[64aglp]", "(;B[64aglp]").replace("[drop])", "[drop]))")
    assert finals(read_sgf(nested).match) == finals(r.match)


BAD_SGF = [
    ("", "no game tree"),
    ("x", "expected '('"),
    ("(", "a game tree needs at least one node"),
    ("(;GM[6]", "unterminated game tree"),
    ("(;GM[6]MI[length:3", "unterminated property value"),
    ("(;GM[1])", "GM[1] is not backgammon"),
    ("(;GM[6]GM[6])", "given twice"),
    ("(;GM[6]PW)", "has no value"),
    ("(;GM[6]MI[length])", "not tag:value"),
    ("(;GM[6]MI[length:x])", "must be numbers"),
    ("(;GM[6];W[31hefe](;B[64aglp])(;B[64aglq]))", "variations"),
    ("(;GM[6];W[31hefe]B[64aglp])", "both W and B"),
    ("(;GM[6];W[31h])", "cannot read the move"),
    ("(;GM[6];W[31he])", "not a legal move"),
    ("(;GM[6];W[71hefe])", "cannot read the move"),
    ("(;GM[6];W[31zefe])", "not a step"),
    ("(;GM[6];W[31hefy])", "not a step"),
    ("(;GM[6];AW[a])", "set-up property AW"),
    ("(;GM[6];PL[W]DI[7])", "not a roll"),
    ("(;GM[6]RE[white])", "is not W+n"),
    ("(;GM[6]RE[W+1])", "won, but the game is not over"),
    ("(;GM[6]CV[3])", "power of two"),
    ("(;GM[6]MI[length:3]CV[2])", "money-play option"),
    ("(;GM[6]CV[4]NR[auto_doubles=1])", "allow 1 automatic doubles"),
    ("(;GM[6]MI[length:3];W[31hefe])(;GM[6]MI[length:5])", "match length 5"),
    ("(;GM[6]MI[length:3];W[31hefe])(;GM[6]MI[length:3])", "not finished"),
    ("(;GM[6]MI[length:3]PW[a];W[31hefe];W[double])", "cannot double"),
    ("(;GM[6];W[31hefe];B[64agxq])", "64"),
    ("(;GM[6]) x", "expected '('"),
    ("(;GM[6] x)", "unexpected 'x'"),
    ("(;GM[6]NR[speed=1])", "not a rule"),
]


@pytest.mark.parametrize("text,why", BAD_SGF)
def test_sgf_malformed(text, why):
    e = err(text, read_sgf)
    assert why in str(e), str(e)


def test_sgf_errors_name_the_move():
    e = err(SGF.replace("B[64aglp]", "B[64aglq]"), read_sgf)
    assert (e.game, e.move, e.player) == (1, 1, BLACK)
    e = err(SGF.replace("RE[W+1]", "RE[W+2]"), read_sgf)
    assert "2 point(s)" in str(e)


def _mutate_lines(text, data):
    lines = text.splitlines(keepends=True)
    k = data.draw(st.integers(0, len(lines) - 1))
    op = data.draw(st.sampled_from(["delete", "dup", "swap", "char", "cut"]))
    if op == "delete":
        del lines[k]
    elif op == "dup":
        lines.insert(k, lines[k])
    elif op == "swap" and k + 1 < len(lines):
        lines[k], lines[k + 1] = lines[k + 1], lines[k]
    elif op == "char" and lines[k]:
        j = data.draw(st.integers(0, len(lines[k]) - 1))
        ch = data.draw(st.sampled_from(list("0123456789/*:)( abxyz[];\\") + ["\n"]))
        lines[k] = lines[k][:j] + ch + lines[k][j + 1:]
    elif op == "cut":
        lines = lines[:k]
    return "".join(lines)


SAMPLE_MAT = (RECORDS / "random_5pt_seed9.mat").read_text()
SAMPLE_SGF = (RECORDS / "random_5pt_seed9.sgf").read_text()


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mat_mutations_never_crash(data):
    text = _mutate_lines(SAMPLE_MAT, data)
    try:
        r = read_mat(text)
    except InvalidRecordError:
        return
    assert read_mat(write_mat(r)).match.score == r.match.score


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_sgf_mutations_never_crash(data):
    text = _mutate_lines(SAMPLE_SGF, data)
    try:
        r = read_sgf(text)
    except InvalidRecordError:
        return
    assert read_sgf(write_sgf(r)).match.score == r.match.score


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_records_fuzz_never_crash(text):
    for reader in (read_mat, read_sgf):
        try:
            reader(text)
        except InvalidRecordError:
            pass


# ---------------------------------------------------------------------------------------
# Seed 001: the encyclopedia's sample game
# ---------------------------------------------------------------------------------------

SEED001 = (RECORDS / "seed001.mat").read_text()
#: Move 12 of the seed (black's 4-1, line 6 of the record): "с 12 бьют белую на VIII";
#: a 4 from line 12 lands on IX, where white's checker stands.
FIX_12 = ("41: 13/8* 17/16*", "41: 13/9* 17/16*")
#: Move 22 (black's 3-4, line 11): "двумя шашками с VIII" - black has none left there.
DROP_22 = ("34: 8/4 8/5", "")


def test_seed001_as_written_stops_at_move_12():
    e = err(SEED001)
    assert (e.game, e.move, e.player, e.line) == (1, 6, BLACK, 14)
    assert "13/8* 17/16*" in str(e) and "no blot to hit on 8" in str(e)
    assert str(e).startswith("game 1, move 6 (black), line 14: ")


def test_seed001_corrected_move_12_stops_at_move_22():
    e = err(SEED001.replace(*FIX_12))
    assert (e.game, e.move, e.player) == (1, 11, BLACK)
    assert "moves checkers the player does not have" in str(e)


def test_seed001_corrected_replays_to_move_21():
    text = SEED001.replace(*FIX_12).replace(*DROP_22).replace(" 12) 44: 7/3(3) 12/8\n", "")
    r = read_mat(text)
    g = r.match.game
    assert r.match.rules.scoring == "encyclopedia" and not r.match.rules.cube
    assert len([a for a in g.history if a.kind in ("move", "pass")]) == 21
    assert [a.kind for a in g.history].count("pass") == 1   # move 14: black cannot enter
    assert to_text(g) == "backgammon W:12,8x2,7x3,6x5,3x2,1x2 B:23x2,21x2,6x8,2x3 b"
    # every hit the text announces happened: moves 6, 10, 12 (two), 13, 15, 17, 19
    hits = [sum(s.hit for s in a.move.steps) for a in g.history if a.kind == "move"]
    assert sum(hits) == 8
    # and the white move 23 of the seed is legal after a black 3-4 played elsewhere
    g.roll((3, 4))
    assert g.move_count() > 0
