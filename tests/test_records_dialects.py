"""Match records as other programs write them, and the constructs of the standard itself that
real files use: resignations by the player not on roll, matches resumed at a score, byte-order
marks, empty and long player names, BackgammonGalaxy's ``Losses``, capped ``Wins ... and the
match``, ``Cannot Move``, ``????``, blank forced moves, capitalised ``Bar``/``Off``.

Every record here is written by hand from the format's description (the .mat layout of gnubg
and Jellyfish, as docs/formats.md gives it), and every expectation is stated from the rules,
not taken from nardy's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from nardy.errors import Error, InvalidRecordError, InvalidRuleError
from nardy.formats import read_mat, read_sgf, to_text, write_mat, write_sgf

from nardy import BLACK, WHITE, Game, Match

RECORDS = Path(__file__).parent / "records"


def head(length=3, white="White", black="Black", score=(0, 0), game=1):
    left = f"{white} : {score[0]}"
    return f"\n {length} point match\n\n Game {game}\n {left:<31}{black} : {score[1]}\n"


def row(n, left, right=None):
    """A numbered line in gnubg's columns (white's cell 27 wide, black's from column 33)."""
    return f"{n:3d}) {left:<27} {right}\n" if right is not None else f"{n:3d}) {left}\n"


OPEN = row(1, "31: 8/5 6/5", "64: 24/18 13/9")
WHITE_WINS = " " * 6 + "Wins {} point{}\n"
BLACK_WINS = " " * 34 + "Wins {} point{}\n"


def wins(column, n, match=False):
    return column.format(n, "" if n == 1 else "s").replace("\n", " and the match\n" if match
                                                           else "\n")


def err(text, reader=read_mat):
    with pytest.raises(InvalidRecordError) as e:
        reader(text)
    assert isinstance(e.value, Error)
    return e.value


# ---------------------------------------------------------------------------------------
# Resignation by the player who is not on roll
# ---------------------------------------------------------------------------------------


def test_resignation_by_the_player_not_on_roll():
    # white played 31, black 64: white is on roll, and black resigns a single game
    r = read_mat(head() + OPEN + wins(WHITE_WINS, 1))
    g = r.match.game
    res = g.result()
    assert (res.winner, res.reason, res.points) == (WHITE, "resign", 1)
    resign = [a for a in g.history if a.kind == "resign"]
    assert [(a.player, a.level) for a in resign] == [(BLACK, 1)]
    assert g.turn == WHITE  # nobody rolled: white was on roll when black resigned
    # and it is written back as the same record
    again = read_mat(write_mat(r))
    assert again.match.game.result() == res
    assert [a.kind for a in again.match.game.history] == [a.kind for a in g.history]


def test_game_resign_by_either_player():
    g = Game("backgammon", seed=1)
    g.roll((3, 1))
    g.play("8/5 6/5")
    assert g.turn == BLACK
    g.resign(2, WHITE)          # white resigns a gammon while black is on roll
    assert g.to_act == BLACK and g.pending_resignation == (WHITE, 2)
    g.decline()
    assert g.turn == BLACK and g.to_act == BLACK
    g.resign(1, player=WHITE)
    g.accept()
    assert (g.result().winner, g.result().points) == (BLACK, 1)
    assert g.replayed().result() == g.result()
    g = Game("backgammon", seed=1)
    g.roll((3, 1))
    with pytest.raises(Error, match="WHITE"):
        g.resign(1, 2)


# ---------------------------------------------------------------------------------------
# A match that starts at a given score
# ---------------------------------------------------------------------------------------


def test_match_starts_at_a_score():
    m = Match(5, "backgammon", seed=1, score=(2, 3))
    assert m.score == (2, 3) and m.start_score == (2, 3) and not m.game.crawford
    m.game.roll((3, 1))
    m.game.play("8/5 6/5")
    m.game.double()               # black doubles, white drops
    m.game.drop()
    assert m.score == (2, 4)       # the game adds to the starting score
    m.next_game()
    assert m.is_crawford           # black is one point away: the Crawford game


def test_match_start_crawford_state():
    m = Match(5, "backgammon", seed=1, score=(4, 1))
    assert m.is_crawford and m.crawford_game == 0 and not m.is_post_crawford
    m = Match(5, "backgammon", seed=1, score=(4, 1), post_crawford=True)
    assert not m.is_crawford and m.is_post_crawford and m.crawford_game is None
    m.game.roll((3, 1))
    m.game.play("8/5 6/5")
    m.game.double()                # the cube is back after the Crawford game
    for bad in (dict(score=(5, 0)), dict(score=(-1, 0)), dict(score=(1,)),
                dict(score=(0, 1.25)), dict(score=(2, 1), post_crawford=True),
                dict(score=(4, 0), post_crawford=True, crawford=False),
                dict(score=(4, 0), post_crawford=1)):
        with pytest.raises(InvalidRuleError):
            Match(5, "backgammon", **bad)


def test_record_at_a_nonzero_score():
    # a 5-point match resumed at 2-1; white wins a double dropped: 3-1
    text = head(5, score=(2, 1)) + OPEN + row(2, " Doubles => 2", " Drops") + wins(WHITE_WINS, 1)
    r = read_mat(text)
    assert r.match.start_score == (2, 1) and r.match.score == (3, 1)
    out = write_mat(r)
    assert " White : 2                      Black : 1\n" in out
    assert read_mat(out).match.start_score == (2, 1)
    assert read_sgf(write_sgf(r)).match.score == (3, 1)


def test_record_at_a_score_crawford_inferred():
    # 4-1 in a 5-point match: without a double the first game is the Crawford game
    crawford = head(5, score=(1, 4)) + OPEN + wins(WHITE_WINS, 1)
    r = read_mat(crawford)
    assert r.match.games[0].crawford and not r.match.starts_post_crawford
    # a double in it shows that the Crawford game was before the record
    post = head(5, score=(1, 4)) + OPEN + row(2, " Doubles => 2", " Drops") + wins(WHITE_WINS, 1)
    r = read_mat(post)
    assert not r.match.games[0].crawford and r.match.starts_post_crawford
    # written with nardy's PostCrawford tag, so even a game without a double reads back so
    m = Match(5, "backgammon", seed=3, score=(1, 4), post_crawford=True)
    m.game.roll((3, 1))
    m.game.play("8/5 6/5")
    out = write_mat(m)
    assert '; [PostCrawford "On"]' in out
    assert read_mat(out).match.starts_post_crawford
    assert read_sgf(write_sgf(m)).match.starts_post_crawford
    # a Crawford game with a double, and the tag saying it was before: refused
    e = err('; [PostCrawford "Off"]\n' + post)
    assert e.game == 1 and "Crawford" in str(e)


def test_record_first_game_number_and_score_checked():
    e = err(head(5, score=(2, 1)) + OPEN + row(2, " Doubles => 2", " Drops")
            + wins(WHITE_WINS, 1) + "\n Game 2\n White : 2                      Black : 1\n")
    assert e.game == 2 and "3-1" in str(e)
    e = err(head(5, score=(5, 1)) + OPEN)
    assert "cannot be played" in str(e)


# ---------------------------------------------------------------------------------------
# Byte-order mark, player names
# ---------------------------------------------------------------------------------------


def test_byte_order_mark():
    text = "\ufeff; [Site \"x\"]\n" + head() + OPEN
    assert read_mat(text).tags == {"Site": "x"}
    assert read_mat("\ufeff" + head() + OPEN).match.game.turn == WHITE
    sgf = write_sgf(read_mat(head() + OPEN))
    assert read_sgf("\ufeff" + sgf).match.game.turn == WHITE


def test_empty_player_names_read_and_written():
    text = head(white="", black="") + OPEN
    r = read_mat(text)
    assert r.players == ("", "")
    out = write_mat(r)
    assert read_mat(out).players == ("", "")
    assert "\n  : 0                            : 0\n" in out
    r = read_mat(head(white="Alice", black="") + OPEN)
    assert r.players == ("Alice", "")
    r = read_mat(head(white="", black="Bob") + OPEN)
    assert r.players == ("", "Bob")
    assert read_sgf(write_sgf(r)).players == ("", "Bob")
    assert read_sgf(write_sgf(r, players=("", ""))).players == ("", "")


def test_long_names_keep_a_separator():
    long = "Jean-Baptiste Marie Harmand"       # "name : 0" is 31 characters
    assert len(f"{long} : 0") == 31
    r = read_mat(head() + OPEN)
    out = write_mat(r, players=(long, "Johan Huyck"))
    assert f"{long} : 0 Johan Huyck : 0" in out
    assert read_mat(out).players == (long, "Johan Huyck")
    # gnubg's own export glues them: read that too
    glued = head() .replace("White : 0                      Black : 0",
                            f"{long} : 0Johan Huyck : 0") + OPEN
    assert read_mat(glued).players == (long, "Johan Huyck")
    with pytest.raises(InvalidRecordError, match="name"):
        write_mat(r, players=("a:b", "c"))


# ---------------------------------------------------------------------------------------
# Dialects
# ---------------------------------------------------------------------------------------


def test_galaxy_losses_cell():
    # BackgammonGalaxy: "Losses N points" in the loser's column, then the winner's "Wins"
    text = (head() + OPEN + row(2, " Doubles => 2", " Drops")
            + " " * 34 + "Losses 1 point\n" + wins(WHITE_WINS, 1))
    r = read_mat(text)
    assert r.match.score == (1, 0)
    # white drops: white loses, in the left column
    text = (head() + OPEN + row(2, "52: 13/8 13/11", " Doubles => 2") + row(3, " Drops")
            + " " * 6
            + "Losses 1 point\n" + wins(BLACK_WINS, 1))
    assert read_mat(text).match.score == (0, 1)
    e = err(head() + OPEN + row(2, " Doubles => 2", " Drops") + " " * 34 + "Losses 2 points\n"
            + wins(WHITE_WINS, 1))
    assert "Losses 2" in str(e) and e.game == 1
    e = err(head() + OPEN + row(2, " Doubles => 2", " Drops") + " " * 6 + "Losses 1 point\n"
            + wins(WHITE_WINS, 1))
    assert "other player" in str(e)


# Black at 3 in a 5-point match needs 2: the cube goes to 8 and white drops at 4
CUBE_FIGHT = (head(5, score=(0, 3)) + row(1, "31: 8/5 6/5", " Doubles => 2")
              + row(2, " Takes", "64: 24/18 13/9") + row(3, " Doubles => 4", " Takes")
              + row(4, "62: 13/7 13/11", " Doubles => 8") + "  5)  Drops")


def test_wins_and_the_match_capped():
    r = read_mat(CUBE_FIGHT + " " * 23 + "Wins 2 points and the match\n")
    assert r.match.game.result().points == 4 and r.match.is_over()
    assert r.match.winner() == BLACK
    r = read_mat(CUBE_FIGHT + " " * 23 + "Wins 4 points and the match\n")
    assert r.match.game.result().points == 4
    for n in (3, 5):   # neither the value, nor the match length, nor what black needed
        e = err(CUBE_FIGHT + " " * 23 + f"Wins {n} points and the match\n")
        assert f"{n} point(s), the game is worth 4" in str(e) and (e.game, e.move) == (1, 5)
    e = err(CUBE_FIGHT + " " * 23 + "Wins 2 points\n")   # no cap without "and the match"
    assert "worth 4" in str(e)
    # "and the match" when the match goes on
    e = err(head(5) + OPEN + row(2, " Doubles => 2", " Drops")
            + wins(WHITE_WINS, 1, match=True))
    assert "and the match" in str(e)


def test_wins_and_the_match_capped_after_a_resignation():
    # black needs 2; black owns the cube at 4 and white resigns: worth 4, written 2
    text = (head(5, score=(0, 3)) + row(1, "31: 8/5 6/5", " Doubles => 2")
            + row(2, " Takes", "64: 24/18 13/9") + row(3, " Doubles => 4", " Takes")
            + row(4, "62: 13/7 13/11") + " " * 34 + "Wins 2 points and the match\n")
    g = read_mat(text).match.game
    assert (g.result().winner, g.result().reason, g.result().points) == (BLACK, "resign", 4)


SEED001 = (RECORDS / "seed001.mat").read_text().replace(
    "41: 13/8* 17/16*", "41: 13/9* 17/16*").replace("34: 8/4 8/5", "").replace(
    " 12) 44: 7/3(3) 12/8\n", "")


def test_cannot_move_capitals_and_blank_forced_moves():
    # seed 001, corrected as in test_records.py: black dances with 3-6 (move 7), and black's
    # 4-6 (bar/21) and 2-4 (bar/23 bar/21) with a checker on the bar are forced
    base = read_mat(SEED001).match.game
    text = (SEED001.replace("36: \n", "36: Cannot Move\n")
            .replace("16: bar/24 13/7", "16: Bar/24 13/7")
            .replace("46: bar/21", "46:").replace("24: bar/23 bar/21", "24: "))
    assert text.count("Cannot Move") == 1 and "Bar/24" in text
    g = read_mat(text).match.game
    assert g.position == base.position
    assert [a.kind for a in g.history] == [a.kind for a in base.history]
    # "Cannot Move" where a move exists, and a blank that is not forced
    e = err(SEED001.replace("46: bar/21", "46: Cannot Move"))
    assert (e.game, e.move, e.player) == (1, 8, BLACK) and "Cannot Move" in str(e)
    e = err(SEED001.replace("43: 13/9/6", "43: "))
    assert (e.move, e.player) == (1, BLACK) and "no move written for 43" in str(e)


def test_capitalised_off_is_read_as_a_move():
    e = err(head() + row(1, "62: 6/Off 6/4"))
    assert "cannot read" not in str(e)   # read as a move, refused as illegal
    assert e.move == 1 and e.player == WHITE


def test_question_marks_roll_then_resignation():
    for marks in ("????", "???"):
        r = read_mat(head() + row(1, "31: 8/5 6/5", f"64: {marks}") + wins(WHITE_WINS, 1))
        g = r.match.game
        assert g.result().reason == "resign" and g.result().winner == WHITE
        assert [a.kind for a in g.history][-3:] == ["roll", "resign", "accept"]
    e = err(head() + row(1, "31: 8/5 6/5", "64: ????") + row(2, "31: 8/5 6/5"))
    assert (e.move, e.player) == (1, BLACK) and "????" in str(e)


def test_impossible_values_name_game_move_and_why():
    e = err(head() + OPEN + wins(BLACK_WINS, 5))
    assert (e.game, e.move) == (1, 1) and "no resignation gives 5" in str(e)
    e = err(head(0) + OPEN + wins(WHITE_WINS, 1, match=True))
    assert "money play" in str(e)
    e = err(head() + OPEN + row(2, " Doubles => 2", " Drops") + " " * 34
            + "Losses 1 point\n")
    assert "Losses" in str(e)


def test_sgf_empty_and_missing_names():
    r = read_mat(head() + OPEN)
    s = write_sgf(r, players=("", "Bob"))
    assert "PW[]" in s
    assert read_sgf(s).players == ("", "Bob")
    assert read_sgf(s.replace("PW[]", "")).players == ("White", "Bob")
    assert to_text(read_sgf(s).match.game).startswith("backgammon ")


def test_json_keeps_the_starting_score():
    from nardy.formats import from_json, to_json

    m = Match(5, "backgammon", seed=3, score=(1, 4), post_crawford=True)
    m.game.roll((3, 1))
    m.game.play("8/5 6/5")
    d = to_json(m)
    assert d["start_score"] == [1, 4] and d["post_crawford"] is True
    back = from_json(d)
    assert back.start_score == (1, 4) and back.starts_post_crawford and back.score == (1, 4)
    assert "start_score" not in to_json(Match(5, "backgammon", seed=3))


def test_text_form_refuses_a_resignation_by_the_player_not_on_roll():
    from nardy.errors import InvalidIdError

    g = Game("backgammon", seed=1)
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.resign(1, WHITE)
    with pytest.raises(InvalidIdError, match="not on roll"):
        to_text(g)
    g.decline()
    g.resign(1)                    # black, on roll
    assert to_text(g).endswith("offer=resign1")


def test_json_and_pickle_keep_a_resignation_by_the_player_not_on_roll():
    import pickle

    from nardy.formats import from_json, to_json

    g = Game("backgammon", seed=1)
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.resign(2, WHITE)             # black on roll
    back = from_json(to_json(g))
    assert back.pending_resignation == (WHITE, 2) and back.to_act == BLACK
    back.accept()
    assert back.result().winner == BLACK
    assert pickle.loads(pickle.dumps(g)).pending_resignation == (WHITE, 2)


def test_nackgammon_in_mat_and_sgf():
    # Nackgammon's start (24x2 23x2 13x4 8x3 6x4): white's 3-1 can make the 5-point
    text = '; [Variation "Nackgammon"]\n' + head() + row(1, "31: 8/5 6/5", "64: 24/18 13/9")
    r = read_mat(text)
    assert r.match.variant.name == "nackgammon"
    assert to_text(r.match.game.position) == ("nackgammon W:24x2,23x2,13x4,8x2,6x3,5x2 "
                                              "B:24,23x2,18,13x3,9,8x3,6x4 w")
    out = write_mat(r)
    assert '; [Variation "Nackgammon"]' in out
    assert read_mat(out).match.game.position == r.match.game.position
    back = read_sgf(write_sgf(r))
    assert back.match.variant.name == "nackgammon"
    assert back.match.game.position == r.match.game.position
    # black's 23-point holds checkers only in Nackgammon: without the tag, refused
    play = row(1, "31: 8/5 6/5", "65: 23/18 13/7")
    assert read_mat('; [Variation "Nackgammon"]\n' + head() + play).match.variant.name \
        == "nackgammon"
    e = err(head() + play)
    assert (e.move, e.player) == (1, BLACK)
    with pytest.raises(InvalidRecordError, match="long-nardy"):
        write_mat(Match(3, "long-nardy", seed=1))
