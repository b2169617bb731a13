"""Games and matches to and from the formats that carry game state.

XGID, the gnubg Position ID with its Match ID (``PositionID:MatchID``), the FIBS ``board:``
line and the nardy text form describe a game's state: the checkers, who is on roll, the
dice, the cube and, for a match, its length, score and the Crawford game. Each format is
read into a :class:`~nardy.formats.text.TextState` (nardy's complete description of such a
state) and every Game and Match is written from one, so a format only maps its own fields
and a game read from any of them continues as the game it was written from. JSON and the
match records (``.mat``, SGF, the nardy record) keep whole histories and go through their
own modules.

Colours: in XGID and the gnubg IDs white is the bottom player (XGID's X, gnubg's player 1),
black the top one; in a FIBS line white is the line's player (its first name). What a
format cannot hold (the opening throw, a finished game, a resignation or beaver on offer,
half points) raises :class:`~nardy.errors.InvalidIdError` when writing instead of being
dropped. Details: ``docs/formats.md``.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from nardy import _validate
from nardy.errors import Error, InvalidIdError, InvalidRecordError
from nardy.formats.text import TextState, _game_state, _state_to_game, from_text
from nardy.position import Position, _gnubg_variant
from nardy.variants import BLACK, WHITE, Variant, as_variant

__all__ = ["GameFormats", "MatchFormats", "parse_game", "parse_match"]

_MAX_CUBE_EXP = 15


def _bad(fmt: str, msg: str) -> InvalidIdError:
    return InvalidIdError(f"{fmt}: {msg}")


def _text_arg(s: Any, what: str) -> str:
    if not isinstance(s, str):
        raise InvalidIdError(f"{what} must be a string, not {type(s).__name__}")
    _validate.text(s, what, _validate.MAX_ID_CHARS, error=InvalidIdError)
    return s.strip()


# ---------------------------------------------------------------------------------------
# Objects <-> states
# ---------------------------------------------------------------------------------------


def _state_of(obj: Any) -> TextState:
    """The state of a Game (no match fields) or a Match (its current game and the score)."""
    from nardy.match import Match

    if isinstance(obj, Match):
        s = obj.score
        return _game_state(obj.game, match_length=obj.length, score=(s[0], s[1]),
                           crawford=obj.is_crawford)
    return _game_state(obj)


def _drop_idle_cube(s: TextState, rules: Any, rule_options: dict[str, Any]) -> TextState:
    """The board formats always write a cube; where the rules put none in play (the Crawford
    game, cubeless variants) a cube of 1 in the middle means "no cube"."""
    if s.cube != 1 or s.cube_owner is not None or s.offer is not None:
        return s
    from nardy.game import Game

    try:
        probe = Game(s.position.variant, rules, 0, crawford=s.crawford, **rule_options)
    except Error as e:
        raise InvalidIdError(f"cannot make a game of this state: {e}") from None
    return s if probe.cube_in_play else dataclasses.replace(s, cube=None)


def _game_from(s: TextState, rules: Any, seed: Any, rule_options: dict[str, Any]) -> Any:
    return _state_to_game(_drop_idle_cube(s, rules, rule_options), rules, seed, rule_options)


def _match_from(s: TextState, fmt: str, rules: Any, seed: Any, crawford: bool,
                rule_options: dict[str, Any]) -> Any:
    """A Match at the state's score whose current game is the state's game."""
    from nardy.match import Match

    if s.match_length is None or s.score is None:
        raise _bad(fmt, "carries no match (length and score): read it as a Game")
    length, score = s.match_length, s.score
    one_away = length > 0 and max(score) == length - 1
    if s.crawford and not crawford:
        raise _bad(fmt, "a Crawford game, but the match is made without the Crawford rule")
    if s.crawford and not one_away:
        raise _bad(fmt, f"a Crawford game needs a player one point away, not "
                   f"{score[0]}-{score[1]} to {length}")
    post = crawford and one_away and not s.crawford
    try:
        m = Match(length, s.position.variant, rules, seed, crawford=crawford, score=score,
                  post_crawford=post, **rule_options)
    except Error as e:
        raise _bad(fmt, f"cannot make a match of this state: {e}") from None
    game = _game_from(s, m.rules, m.game.seed, {})
    m._adopt_first_game(game)
    return m


def _money_hints(jacoby: bool, beaver: bool, rules: Any,
                 rule_options: dict[str, Any]) -> dict[str, Any]:
    """Rule options a money-play ID states (Jacoby, beavers), used when no rules are given."""
    if rules is not None or rule_options:
        return rule_options
    out = {}
    if jacoby:
        out["jacoby"] = True
    if beaver:
        out["beaver"] = True
    return out


def _int_score(s: TextState, fmt: str) -> tuple[int, int]:
    if s.score is None:
        return 0, 0
    if not all(float(x).is_integer() for x in s.score):
        raise _bad(fmt, f"scores are whole numbers, not {s.score[0]}-{s.score[1]}")
    return int(s.score[0]), int(s.score[1])


def _check_writable(s: TextState, fmt: str, obj: Any) -> None:
    """The states the board formats cannot hold."""
    from nardy.game import Game

    if s.opening:
        raise _bad(fmt, "has no opening throw: write the game once the opening roll is made")
    if s.over is not None:
        raise _bad(fmt, "has no finished game (nobody is on roll)")
    if s.offer is not None and s.offer.startswith("resign"):
        raise _bad(fmt, "has no resignation on offer")
    if s.last_roll:
        raise _bad(fmt, "has no last roll of the draw rule")
    if isinstance(obj, Game) and obj.crawford:
        raise _bad(fmt, "a Crawford game is part of a match: write the Match")
    _gnubg_variant(s.position.variant, f"{fmt}")


def _cube_exp(value: int) -> int:
    return value.bit_length() - 1


# ---------------------------------------------------------------------------------------
# XGID
# ---------------------------------------------------------------------------------------


def _xgid_state(text: Any, variant: Any) -> tuple[TextState, tuple[bool, bool]]:
    from nardy.formats.xgid import decode_xgid

    s = _text_arg(text, "an XGID")
    position = Position.from_xgid(s, variant)
    rec = decode_xgid(s)
    owner = {0: None, 1: WHITE, -1: BLACK}[rec.cube_position]
    offer = {None: None, "D": "double", "B": "beaver", "R": "raccoon"}[rec.action]
    dice = None if rec.dice == (0, 0) else rec.dice
    cube: int | None = rec.cube
    if rec.crawford:
        if rec.cube != 1 or owner is not None or offer is not None:
            raise _bad("XGID", "the Crawford game has no cube: expected it at 1 in the middle")
        cube = None
    try:
        state = TextState(position, dice=dice, cube=cube, cube_owner=owner, offer=offer,
                          match_length=rec.match_length,
                          score=(rec.score_bottom, rec.score_top), crawford=rec.crawford)
    except Error as e:
        raise _bad("XGID", str(e)) from None
    return state, (rec.jacoby, rec.beaver)


def _xgid_text(s: TextState, rules: Any, obj: Any) -> str:
    from nardy.formats.xgid import XgidRecord, encode_xgid

    _check_writable(s, "XGID", obj)
    length = s.match_length or 0
    w, b = _int_score(s, "XGID")
    turn = s.position.turn
    cube, owner = (1, None) if s.cube is None else (s.cube, s.cube_owner)
    if length:
        flags = 1 if s.crawford else 0
    else:
        flags = (1 if rules.jacoby else 0) | (2 if rules.beaver else 0)
    limit = rules.max_cube
    max_cube = limit if (limit and limit & (limit - 1) == 0
                         and _cube_exp(limit) <= _MAX_CUBE_EXP + 1) else 1024
    action = {None: None, "double": "D", "beaver": "B", "raccoon": "R"}[s.offer]
    rec = XgidRecord(
        mover=s.position.side(turn), opponent=s.position.side(1 - turn), cube=cube,
        cube_position=0 if owner is None else (1 if owner == WHITE else -1),
        turn=1 if turn == WHITE else -1, dice=s.dice or (0, 0), action=action,
        score_bottom=w, score_top=b, rules=flags, match_length=length, max_cube=max_cube)
    return encode_xgid(rec)


# ---------------------------------------------------------------------------------------
# gnubg Position ID + Match ID
# ---------------------------------------------------------------------------------------

# white is gnubg's player 1 (the bottom player, XGID's X), black player 0
_GNUBG_PLAYER = {WHITE: 1, BLACK: 0}
_GNUBG_COLOR = {1: WHITE, 0: BLACK}


def _gnubg_state(text: Any, variant: Any) -> tuple[TextState, tuple[bool, bool]]:
    from nardy.formats.gnubg_id import GameState, decode_match_id

    s = _text_arg(text, "a gnubg ID")
    if s.lower().startswith("gnubg id:"):
        s = s[len("gnubg id:"):].strip()
    pid, sep, mid = s.partition(":")
    if not sep or not mid:
        raise _bad("gnubg ID", "a Position ID alone carries no game state: give "
                   "PositionID:MatchID (e.g. 4HPwATDgc/ABMA:cAkAAAAAAAAA)")
    ms = decode_match_id(mid.strip())
    if ms.game_state is not GameState.PLAYING:
        raise _bad("gnubg ID", f"the Match ID's game is {ms.game_state.name.lower()}; only a "
                   "game being played can be continued")
    on_roll = _GNUBG_COLOR[ms.dice_owner]
    position = Position.from_position_id(pid.strip(), variant, turn=on_roll)
    owner = None if ms.cube_owner is None else _GNUBG_COLOR[ms.cube_owner]
    offer = None
    if ms.double_offered:
        if ms.turn == ms.dice_owner:
            raise _bad("gnubg ID", "a double on offer must wait for the other player's answer")
        offer = "double"
    if ms.resignation:
        if ms.turn == ms.dice_owner:
            raise _bad("gnubg ID", "a resignation on offer by the player who must answer it")
        offer = f"resign{ms.resignation}"
    elif not ms.double_offered and ms.turn != ms.dice_owner:
        raise _bad("gnubg ID", "the player to act is not the player on roll, with nothing "
                   "on offer")
    dice = None if ms.dice == (0, 0) else ms.dice
    cube: int | None = ms.cube
    if ms.crawford:
        if ms.cube != 1 or owner is not None or ms.double_offered:
            raise _bad("gnubg ID", "the Crawford game has no cube: expected it at 1 in the "
                       "middle")
        cube = None
    for k, v in enumerate(ms.score):
        if ms.match_length and v >= ms.match_length:
            raise _bad("gnubg ID", f"score {v} has already won the {ms.match_length}-point "
                       "match")
    try:
        state = TextState(position, dice=dice, cube=cube, cube_owner=owner, offer=offer,
                          match_length=ms.match_length,
                          score=(ms.score[_GNUBG_PLAYER[WHITE]], ms.score[_GNUBG_PLAYER[BLACK]]),
                          crawford=ms.crawford)
    except Error as e:
        raise _bad("gnubg ID", str(e)) from None
    return state, (ms.jacoby, False)


def _gnubg_text(s: TextState, rules: Any, obj: Any) -> str:
    from nardy.formats.gnubg_id import GameState, MatchState, encode_match_id

    _check_writable(s, "gnubg ID", obj)
    if s.offer in ("beaver", "raccoon"):
        raise _bad("gnubg ID", f"a Match ID has no pending {s.offer}")
    length = s.match_length or 0
    w, b = _int_score(s, "gnubg ID")
    turn = s.position.turn
    cube, owner = (1, None) if s.cube is None else (s.cube, s.cube_owner)
    if cube > 1 << _MAX_CUBE_EXP:
        raise _bad("gnubg ID", f"a Match ID holds cubes up to 32768, not {cube}")
    to_act = 1 - turn if s.offer == "double" else turn
    score = [0, 0]
    score[_GNUBG_PLAYER[WHITE]], score[_GNUBG_PLAYER[BLACK]] = w, b
    ms = MatchState(
        cube=cube, cube_owner=None if owner is None else _GNUBG_PLAYER[owner],
        dice_owner=_GNUBG_PLAYER[turn], crawford=s.crawford, game_state=GameState.PLAYING,
        turn=_GNUBG_PLAYER[to_act], double_offered=s.offer == "double",
        dice=s.dice or (0, 0), match_length=length, score=(score[0], score[1]),
        jacoby=bool(rules.jacoby) and not length)
    return f"{s.position.to_position_id()}:{encode_match_id(ms)}"


# ---------------------------------------------------------------------------------------
# FIBS board
# ---------------------------------------------------------------------------------------


def _fibs_state(text: Any, variant: Any) -> tuple[TextState, tuple[bool, bool]]:
    from nardy.formats.fibs import UNLIMITED, parse_fibs_board

    s = _text_arg(text, "a FIBS board")
    board = parse_fibs_board(s)
    if board.turn == 0:
        raise _bad("FIBS board", "the game is over (turn 0): nobody is on roll")
    if board.was_doubled:
        raise _bad("FIBS board", "a double on offer (was_doubled) is not read; give the "
                   "board before or after the answer")
    position = Position.from_fibs(s, variant)
    on_roll = WHITE if board.player_on_roll else BLACK
    raw = board.player_dice if on_roll == WHITE else board.opponent_dice
    dice = None if tuple(raw) == (0, 0) else (int(raw[0]), int(raw[1]))
    length = 0 if board.match_length == UNLIMITED else board.match_length
    score = (board.player_score, board.opponent_score)
    crawford = bool(length and max(score) == length - 1 and not board.did_crawford)
    may = (board.player_may_double, board.opponent_may_double)
    owner: int | None = None
    cube: int | None = board.cube
    if board.cube > 1:
        if may == (True, False):
            owner = WHITE
        elif may == (False, True):
            owner = BLACK
        else:
            raise _bad("FIBS board", f"a cube at {board.cube} is owned: exactly one player "
                       "may double")
    if crawford:
        if board.cube != 1 or any(may):
            raise _bad("FIBS board", "the Crawford game has no cube: expected it at 1 with "
                       "neither player allowed to double")
        cube = None
    try:
        state = TextState(position, dice=dice, cube=cube, cube_owner=owner,
                          match_length=length, score=score, crawford=crawford)
    except Error as e:
        raise _bad("FIBS board", str(e)) from None
    return state, (False, False)


def _fibs_text(s: TextState, rules: Any, obj: Any) -> str:
    from nardy.formats.fibs import UNLIMITED, FibsBoard, format_fibs_board
    from nardy.match import Match

    _check_writable(s, "FIBS board", obj)
    if s.offer is not None:
        raise _bad("FIBS board", f"is not written with a {s.offer} on offer")
    length = s.match_length or 0
    w, b = _int_score(s, "FIBS board")
    turn = s.position.turn
    cube, owner = (1, None) if s.cube is None else (s.cube, s.cube_owner)
    in_play = s.cube is not None
    may = (in_play and owner in (None, WHITE), in_play and owner in (None, BLACK))
    post = isinstance(obj, Match) and obj.is_post_crawford
    dice = s.dice or (0, 0)
    board = FibsBoard.from_sides(
        s.position.side(WHITE), s.position.side(BLACK), player_name="White",
        opponent_name="Black", match_length=length or UNLIMITED, player_score=w,
        opponent_score=b, player_on_roll=turn == WHITE,
        player_dice=dice if turn == WHITE else (0, 0),
        opponent_dice=dice if turn == BLACK else (0, 0), cube=cube,
        player_may_double=may[0], opponent_may_double=may[1], did_crawford=1 if post else 0)
    return format_fibs_board(board)


_READERS = {"xgid": _xgid_state, "gnubg": _gnubg_state, "fibs": _fibs_state}
_WRITERS = {"xgid": _xgid_text, "gnubg": _gnubg_text, "fibs": _fibs_text}


def _read(fmt: str, text: Any, variant: Any, rules: Any,
          rule_options: dict[str, Any]) -> tuple[TextState, dict[str, Any]]:
    state, (jacoby, beaver) = _READERS[fmt](text, variant)
    if state.match_length == 0:
        rule_options = _money_hints(jacoby, beaver, rules, rule_options)
    return state, rule_options


# ---------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------


def _from_json(data: Any, kind: str) -> Any:
    from nardy.formats.jsonform import from_json

    if isinstance(data, (str, bytes, bytearray)):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as e:
            raise InvalidRecordError(f"nardy JSON: not JSON text ({e})") from None
    obj = from_json(data)
    if type(obj).__name__ != kind:
        raise InvalidRecordError(f"nardy JSON: this is a {type(obj).__name__}, not a {kind}")
    return obj


def _to_json(obj: Any) -> str:
    from nardy.formats.jsonform import to_json

    return json.dumps(to_json(obj), separators=(",", ":"))


# ---------------------------------------------------------------------------------------
# The methods of Game and Match
# ---------------------------------------------------------------------------------------


class GameFormats:
    """``from_*`` / ``to_*`` of :class:`~nardy.game.Game` (mixed into it)."""

    @classmethod
    def from_text(cls, text: str, rules: Any = None, seed: int | str | bytes | None = None,
                  **rule_options: Any) -> Any:
        """The game of a nardy text line (``backgammon W:... B:... w dice=31 cube=2b``), every
        variant. A ``match=`` field is read for its Crawford flag only (see
        :meth:`Match.from_text`)."""
        return _game_from(from_text(text), rules, seed, rule_options)

    def to_text(self) -> str:
        """The canonical nardy text line of the game's state (:meth:`from_text` reads it; a
        Crawford game belongs to its match: :meth:`Match.to_text`)."""
        from nardy.formats.text import _format_state

        if self.crawford:  # type: ignore[attr-defined]
            raise _bad("nardy text", "a Crawford game is part of a match: write the Match")
        return _format_state(_state_of(self))

    @classmethod
    def from_xgid(cls, xgid: str, variant: Variant | type[Variant] | str | None = None,
                  rules: Any = None, seed: int | str | bytes | None = None,
                  **rule_options: Any) -> Any:
        """The game of an XGID: the checkers (white the bottom player X), the player on roll,
        the dice, the cube and its owner, a double on offer (``D``; ``B``/``R`` are refused
        by the game) and the Crawford flag. Money-play Jacoby and beaver flags become rule
        options when no rules are given. The match score is read by :meth:`Match.from_xgid`."""
        state, opts = _read("xgid", xgid, variant, rules, rule_options)
        return _game_from(state, rules, seed, opts)

    def to_xgid(self) -> str:
        """The XGID of the game's state, as money play (length 0; a Crawford game belongs to
        its match: :meth:`Match.to_xgid`)."""
        return _xgid_text(_state_of(self), self.rules, self)  # type: ignore[attr-defined]

    @classmethod
    def from_gnubg_id(cls, ids: str, variant: Variant | type[Variant] | str | None = None,
                      rules: Any = None, seed: int | str | bytes | None = None,
                      **rule_options: Any) -> Any:
        """The game of a gnubg ``PositionID:MatchID`` pair (as ``show gnubgid`` prints it):
        white is gnubg's player 1 (the bottom player), black player 0."""
        state, opts = _read("gnubg", ids, variant, rules, rule_options)
        return _game_from(state, rules, seed, opts)

    def to_gnubg_id(self) -> str:
        """``PositionID:MatchID`` of the game's state (money play for a lone game)."""
        return _gnubg_text(_state_of(self), self.rules, self)  # type: ignore[attr-defined]

    @classmethod
    def from_fibs(cls, line: str, variant: Variant | type[Variant] | str | None = None,
                  rules: Any = None, seed: int | str | bytes | None = None,
                  **rule_options: Any) -> Any:
        """The game of a FIBS ``board:`` line (white is the line's player): checkers, player
        on roll, dice, cube and its owner (from who may double)."""
        state, opts = _read("fibs", line, variant, rules, rule_options)
        return _game_from(state, rules, seed, opts)

    def to_fibs(self) -> str:
        """The FIBS ``board:`` line of the game's state, white as the line's player."""
        return _fibs_text(_state_of(self), self.rules, self)  # type: ignore[attr-defined]

    @classmethod
    def from_json(cls, data: str | dict[str, Any]) -> Any:
        """The game of nardy's JSON form (text or the dict :func:`nardy.to_json` gives),
        replayed from its history."""
        return _from_json(data, "Game")

    def to_json(self) -> str:
        """nardy's JSON form of the game, as text (the whole history)."""
        return _to_json(self)


class MatchFormats:
    """``from_*`` / ``to_*`` of :class:`~nardy.match.Match` (mixed into it).

    A match read from a board format (text, XGID, gnubg IDs, FIBS) starts at the format's
    score with the format's game as its current game; its later games are played as usual.
    The Crawford state follows from the score and the Crawford flag: a player one point away
    in a game that is not the Crawford game makes a post-Crawford match.
    """

    @classmethod
    def from_text(cls, text: str, rules: Any = None, seed: int | str | bytes | None = None,
                  *, crawford: bool = True, **rule_options: Any) -> Any:
        """The match of a nardy text line with a ``match=length:white-black`` field."""
        return _match_from(from_text(text), "nardy text", rules, seed, crawford, rule_options)

    def to_text(self) -> str:
        """The nardy text line of the current game with the match's length and score."""
        from nardy.formats.text import _format_state

        return _format_state(_state_of(self))

    @classmethod
    def from_xgid(cls, xgid: str, variant: Variant | type[Variant] | str | None = None,
                  rules: Any = None, seed: int | str | bytes | None = None, *,
                  crawford: bool = True, **rule_options: Any) -> Any:
        """The match of an XGID: length (0: money play), score (white the bottom player),
        Crawford flag and the current game's state."""
        state, opts = _read("xgid", xgid, variant, rules, rule_options)
        return _match_from(state, "XGID", rules, seed, crawford, opts)

    def to_xgid(self) -> str:
        return _xgid_text(_state_of(self), self.rules, self)  # type: ignore[attr-defined]

    @classmethod
    def from_gnubg_id(cls, ids: str, variant: Variant | type[Variant] | str | None = None,
                      rules: Any = None, seed: int | str | bytes | None = None, *,
                      crawford: bool = True, **rule_options: Any) -> Any:
        """The match of a gnubg ``PositionID:MatchID`` pair."""
        state, opts = _read("gnubg", ids, variant, rules, rule_options)
        return _match_from(state, "gnubg ID", rules, seed, crawford, opts)

    def to_gnubg_id(self) -> str:
        return _gnubg_text(_state_of(self), self.rules, self)  # type: ignore[attr-defined]

    @classmethod
    def from_fibs(cls, line: str, variant: Variant | type[Variant] | str | None = None,
                  rules: Any = None, seed: int | str | bytes | None = None, *,
                  crawford: bool = True, **rule_options: Any) -> Any:
        """The match of a FIBS ``board:`` line (length 9999 is money play; a player one point
        away marks the Crawford game unless the line says it was played)."""
        state, opts = _read("fibs", line, variant, rules, rule_options)
        return _match_from(state, "FIBS board", rules, seed, crawford, opts)

    def to_fibs(self) -> str:
        return _fibs_text(_state_of(self), self.rules, self)  # type: ignore[attr-defined]

    @classmethod
    def from_json(cls, data: str | dict[str, Any]) -> Any:
        """The match of nardy's JSON form (text or dict), replayed game by game."""
        return _from_json(data, "Match")

    def to_json(self) -> str:
        """nardy's JSON form of the whole match, as text."""
        return _to_json(self)

    @classmethod
    def from_mat(cls, text: str, rules: Any = None) -> Any:
        """The match of a ``.mat`` record (Jellyfish/gnubg), every move checked."""
        from nardy.formats.mat import read_mat

        return read_mat(text, rules).match

    def to_mat(self, players: tuple[str, str] | None = None) -> str:
        """The ``.mat`` record of the match (gnubg's layout)."""
        from nardy.formats.mat import write_mat

        return write_mat(self, players)

    @classmethod
    def from_sgf(cls, text: str, rules: Any = None) -> Any:
        """The match of an SGF backgammon record (``GM[6]``)."""
        from nardy.formats.sgf import read_sgf

        return read_sgf(text, rules).match

    def to_sgf(self, players: tuple[str, str] | None = None) -> str:
        from nardy.formats.sgf import write_sgf

        return write_sgf(self, players)

    @classmethod
    def from_record(cls, text: str, rules: Any = None) -> Any:
        """The match of a nardy record (every variant)."""
        from nardy.formats.nardyrec import read_record

        return read_record(text, rules).match

    def to_record(self, players: tuple[str, str] | None = None) -> str:
        from nardy.formats.nardyrec import write_record

        return write_record(self, players)


# ---------------------------------------------------------------------------------------
# Recognising the format
# ---------------------------------------------------------------------------------------


def _detect(text: Any, what: str) -> str:
    if not isinstance(text, str):
        raise InvalidIdError(f"{what} must be a string, not {type(text).__name__}")
    s = text.strip()
    if s.startswith("{"):
        return "json"
    if s.upper().startswith("XGID="):
        return "xgid"
    if s.startswith("board:"):
        return "fibs"
    if " W:" in s:
        return "text"
    pid, sep, mid = s.partition(":")
    if sep and len(pid.strip()) == 14 and len(mid.strip()) == 12:
        return "gnubg"
    raise InvalidIdError(
        f"not a {what} nardy knows: {text[:60]!r}; expected the nardy text form "
        f"('backgammon W:... B:... w dice=31'), an XGID ('XGID=...'), a FIBS 'board:' line, "
        f"gnubg IDs ('PositionID:MatchID') or nardy JSON")


def parse_game(text: str, variant: Variant | type[Variant] | str | None = None,
               rules: Any = None, seed: int | str | bytes | None = None,
               **rule_options: Any) -> Any:
    """A :class:`~nardy.game.Game` from any game-state text nardy reads, recognised by its
    shape (as :func:`nardy.parse_position` does for positions): the nardy text form, an XGID,
    gnubg ``PositionID:MatchID``, a FIBS ``board:`` line or nardy JSON text. ``variant`` is
    for the gnubg formats, which name none (default backgammon)."""
    from nardy.game import Game

    fmt = _detect(text, "game text")
    if fmt in ("json", "text") and variant is not None:
        if fmt == "json" or as_variant(variant) != from_text(text).position.variant:
            raise InvalidIdError(f"the {fmt} form names its variant: give no variant")
    if fmt == "json":
        if rules is not None or rule_options:
            raise InvalidRecordError("nardy JSON carries its rules: give none")
        return Game.from_json(text)
    if fmt == "text":
        return Game.from_text(text, rules, seed, **rule_options)
    readers: dict[str, Any] = {"xgid": Game.from_xgid, "gnubg": Game.from_gnubg_id,
                               "fibs": Game.from_fibs}
    return readers[fmt](text, variant, rules, seed, **rule_options)


def parse_match(text: str, variant: Variant | type[Variant] | str | None = None,
                rules: Any = None, seed: int | str | bytes | None = None, *,
                crawford: bool = True, **rule_options: Any) -> Any:
    """A :class:`~nardy.match.Match` from any match-state text (the formats of
    :func:`parse_game`; the nardy text form needs its ``match=`` field)."""
    from nardy.match import Match

    fmt = _detect(text, "match text")
    if fmt == "json":
        if variant is not None or rules is not None or rule_options:
            raise InvalidRecordError("nardy JSON carries its variant and rules: give none")
        return Match.from_json(text)
    if fmt == "text":
        if variant is not None:
            raise InvalidIdError("the text form names its variant: give no variant")
        return Match.from_text(text, rules, seed, crawford=crawford, **rule_options)
    readers: dict[str, Any] = {"xgid": Match.from_xgid, "gnubg": Match.from_gnubg_id,
                               "fibs": Match.from_fibs}
    return readers[fmt](text, variant, rules, seed, crawford=crawford, **rule_options)
