"""Game records: backgammon matches as Jellyfish/gnubg ``.mat`` text and as SGF (GM[6]).

* :func:`write_mat` / :func:`read_mat` -- the ``.mat`` export of Jellyfish and GNU Backgammon
  (``N point match``, ``Game 1``, the score line, numbered moves ``31: 8/5 6/5`` in two columns,
  ``Doubles => 2``, ``Takes``, ``Drops``, ``Wins 2 points``), in gnubg's exact layout.
* :func:`write_sgf` / :func:`read_sgf` -- the Smart Game Format for backgammon (``GM[6]``): one
  game tree per game, ``W[31hefe]`` moves with points ``a``..``x``, ``y`` bar, ``z`` off,
  ``double`` / ``take`` / ``drop``, match information in ``MI``, result in ``RE``.

Reading replays every game through :class:`~nardy.match.Match` and the :class:`~nardy.game.Game`
API: each move is checked against the legal moves of its roll, each cube action against the
cube rules, each ``Wins N points`` against the result. The first thing that does not fit raises
:class:`~nardy.errors.InvalidRecordError`; its message names the game, the move number (the
numbered line of the ``.mat`` layout, also used for SGF) and the player, and the exception
carries them as ``.game``, ``.move`` and ``.player`` (``.line`` too for ``.mat`` text).

White is gnubg's player 0 (the left column of ``.mat``, ``PW`` and ``W`` in SGF), Black is
player 1. Only backgammon is recorded in these formats. Details: ``docs/formats.md``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from nardy.errors import Error, InvalidRecordError
from nardy.variants import BLACK, WHITE, Backgammon

__all__ = ["MatchRecord", "read_mat", "read_sgf", "write_mat", "write_sgf"]

_NAMES = {WHITE: "white", BLACK: "black"}


@dataclass
class MatchRecord:
    """A match read from a record, with what the record says around it.

    ``match``: the replayed :class:`~nardy.match.Match` (its last game may be unfinished);
    ``players``: (white's name, black's name); ``tags``: header information by name
    (``Event``, ``Site``, ``Round``, ``EventDate``, ``Transcriber``, ``Comment`` and any other
    ``; [Name "value"]`` tag of a ``.mat`` file), in the order read.
    """

    match: Any
    players: tuple[str, str] = ("White", "Black")
    tags: dict[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------
# Events: what both formats record, in a common form
# ---------------------------------------------------------------------------------------


@dataclass
class _Event:
    kind: str                 # move, roll (dice only), double, take, drop, win
    player: int               # who acts (for win: the winner)
    dice: tuple[int, int] | None = None
    text: str | None = None   # move notation (our point numbers; may be empty: no move)
    value: int | None = None  # Doubles => value, Wins value points
    resigned: bool | None = None  # win: True by resignation (SGF "R"), None unknown
    move_no: int = 0          # numbered line of the .mat layout
    line: int | None = None   # line of the .mat text


def _error(why: str, game: int | None = None, ev: _Event | None = None,
           line: int | None = None) -> InvalidRecordError:
    where = []
    if game is not None:
        where.append(f"game {game}")
    if ev is not None:
        where.append(f"move {ev.move_no} ({_NAMES[ev.player]})")
        line = ev.line if line is None else line
    if line is not None:
        where.append(f"line {line}")
    err = InvalidRecordError((", ".join(where) + ": " if where else "") + why)
    err.game = game  # type: ignore[attr-defined]
    err.move = None if ev is None else ev.move_no  # type: ignore[attr-defined]
    err.player = None if ev is None else ev.player  # type: ignore[attr-defined]
    err.line = line  # type: ignore[attr-defined]
    err.reason = why  # type: ignore[attr-defined]
    return err


def _number(events: list[_Event]) -> None:
    """Move numbers as in the .mat layout: a line per white cell and black cell."""
    i = 0
    for k, ev in enumerate(events):
        if ev.kind == "win":
            ev.move_no = events[k - 1].move_no if k else 1
            continue
        if k == 0 and ev.player == BLACK:
            i = 1
        elif i % 2 != ev.player:
            i += 1  # keeps the numbering going through beavers (not in the .mat layout)
        ev.move_no = i // 2 + 1
        i += 1


# ---------------------------------------------------------------------------------------
# Rules in the records
# ---------------------------------------------------------------------------------------


def _rule_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def _rule_value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if text == "none":
        return None
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    return text


def _rules_tag(variant: Any, rules: Any, skip: Sequence[str]) -> str:
    """Non-default variant options and game rules as ``k=v,k=v`` (sorted), leaving out the
    game rules in ``skip``."""
    from nardy.game import GameRules

    base = GameRules().resolve(Backgammon())
    parts = [f"{f.name}={_rule_text(getattr(rules, f.name))}" for f in fields(GameRules)
             if f.name not in skip and getattr(rules, f.name) != getattr(base, f.name)]
    parts += [f"{k}={_rule_text(v)}" for k, v in variant.rules.items()
              if v != Backgammon.options[k][0]]
    return ",".join(sorted(parts))


def _parse_rules_tag(text: str, what: str) -> dict[str, Any]:
    from nardy.game import GameRules

    known = {f.name for f in fields(GameRules)} | set(Backgammon.options)
    out: dict[str, Any] = {}
    if not text.strip():
        return out
    for part in text.split(","):
        key, eq, value = part.strip().partition("=")
        if not eq or key not in known:
            raise _error(f"{what}: {part!r} is not a rule k=v; known rules: "
                         + ", ".join(sorted(known)))
        out[key] = _rule_value(value)
    return out


def _make_match(length: int, rules: dict[str, Any], crawford: bool, given: Any) -> Any:
    from nardy.game import GameRules
    from nardy.match import Match

    vopts = {k: v for k, v in rules.items() if k in Backgammon.options}
    grules = {k: v for k, v in rules.items() if k not in Backgammon.options}
    try:
        variant = Backgammon(**vopts)
        if given is not None:
            base = given if isinstance(given, GameRules) else GameRules(**given)
            return Match(length, variant, base, 0, crawford=crawford)
        return Match(length, variant, GameRules(**grules), 0, crawford=crawford)
    except (Error, TypeError) as e:
        raise _error(f"the record's rules cannot be played: {e}") from None


# ---------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------


def _move_text(tokens: Sequence[str]) -> str:
    """gnubg's plain points (25 = bar, 0 = off) to our notation."""
    out = []
    for tok in tokens:
        parts = []
        for part in tok.split("/"):
            star = "*" if part.endswith("*") else ""
            name = part.rstrip("*")
            tail = ""
            m = re.fullmatch(r"(.*?)(\(\d\))", name)
            if m:
                name, tail = m.group(1), m.group(2)
            name = {"25": "bar", "0": "off"}.get(name, name)
            parts.append(name + star + tail)
        out.append("/".join(parts))
    return " ".join(out)


def _replay_game(match: Any, k: int, events: list[_Event], score: tuple[int, int] | None,
                 is_last: bool) -> None:
    from nardy.game import FRESH, Phase

    g = match.game
    if score is not None and tuple(match.score) != score:
        raise _error(f"the record gives the score {score[0]}-{score[1]}, but the games "
                     f"before give {match.score[0]}-{match.score[1]}", k)
    for j, ev in enumerate(events):
        nxt = events[j + 1] if j + 1 < len(events) else None

        def fail(why: str, ev: _Event = ev) -> InvalidRecordError:
            return _error(why, k, ev)

        if g.is_game_over() and ev.kind != "win":
            raise fail("the game is already over")
        try:
            if ev.kind in ("move", "roll"):
                assert ev.dice is not None
                if g.phase is Phase.OPENING:
                    d1, d2 = ev.dice
                    if g.rules.opening_roll == FRESH:
                        g.roll((2, 1) if ev.player == WHITE else (1, 2))
                    else:
                        if d1 == d2:
                            raise fail(f"the first roll {d1}{d2} is a double, but the "
                                       "opening roll-off cannot be")
                        hi, lo = max(d1, d2), min(d1, d2)
                        g.roll((hi, lo) if ev.player == WHITE else (lo, hi))
                elif g.phase is Phase.MOVE:
                    raise fail(f"{_NAMES[g.turn]} rolled {g.dice[0]}{g.dice[1]} and has not "
                               "moved (a cell with dice only, but a move was possible)")
                if g.phase is Phase.ROLL:
                    if g.turn != ev.player:
                        raise fail(f"it is {_NAMES[g.turn]}'s turn")
                    g.roll(ev.dice)
                elif g.phase is Phase.MOVE:
                    if g.turn != ev.player:
                        raise fail(f"it is {_NAMES[g.turn]}'s turn")
                    if sorted(g.dice) != sorted(ev.dice):
                        raise fail(f"the opening dice are {g.dice[0]}{g.dice[1]}, the record "
                                   f"has {ev.dice[0]}{ev.dice[1]}")
                else:
                    raise fail(f"cannot roll now: the game waits for "
                               f"{_NAMES[g.to_act]} ({g.phase})")
                if ev.kind == "roll" or not ev.text:
                    # dice only: a pass, or a roll followed by a resignation (or the end)
                    if not g.move_count():
                        g.pass_turn()
                    elif nxt is not None and nxt.kind != "win":
                        raise fail(f"no move written for {ev.dice[0]}{ev.dice[1]}, but "
                                   f"{g.move_count()} legal moves exist")
                    continue
                try:
                    move = g.position.parse_move(ev.text, g.dice)
                except Error as e:
                    raise fail(f"{ev.dice[0]}{ev.dice[1]}: {ev.text}: {e}") from None
                g.play(_as_written(g, ev.text, move))
            elif ev.kind == "double":
                if g.phase is Phase.DOUBLED and ev.player == g.to_act:
                    g.beaver()   # SGF: a double by the doubled player is a beaver
                elif g.phase is Phase.BEAVERED and ev.player == g.to_act:
                    g.raccoon()
                else:
                    if g.phase is not Phase.ROLL or g.turn != ev.player:
                        raise fail(f"cannot double now: the game waits for "
                                   f"{_NAMES[g.to_act]} ({g.phase})")
                    g.double()
                    if ev.value is not None and ev.value != g.rules.stake(g.cube_level + 1):
                        raise fail(f"'Doubles => {ev.value}', but the cube goes to "
                                   f"{g.rules.stake(g.cube_level + 1)}")
            elif ev.kind in ("take", "drop"):
                if g.to_act != ev.player or g.phase not in (
                        Phase.DOUBLED, Phase.BEAVERED, Phase.RACCOONED):
                    raise fail(f"no double for {_NAMES[ev.player]} to answer")
                getattr(g, ev.kind)()
            elif ev.kind == "win":
                _replay_win(g, ev, fail)
            else:  # pragma: no cover
                raise fail(f"unknown event {ev.kind}")
        except InvalidRecordError:
            raise
        except Error as e:
            raise fail(str(e)) from None
    if not g.is_game_over() and not is_last:
        raise _error("the game is not finished, but another game follows", k)


def _as_written(g: Any, text: str, move: Any) -> Any:
    """The legal ``move`` with its steps as the record writes them, when every segment of the
    record's notation is one die (``24/22 22/16``, ``13/9/6``, ``8/4(2)``): a record read and
    written again then keeps its steps. Otherwise ``move`` as the engine gives it."""
    from nardy.notation import parse_move_steps
    from nardy.position import Move

    pos = g.position
    v = pos.variant
    try:
        steps = [(f, t) for f, t, _ in parse_move_steps(text, v, pos.turn)]
    except Error:
        return move
    if len(steps) != len(move.steps) or not _dice_fit(steps, g.dice):
        return move
    them = list(pos.sides()[1])
    out = []
    for f, t in steps:  # hits in the written order (a blot is hit by the first to land)
        hit = False
        if t >= 0 and them[v.to_mover(t)] == 1:
            them[v.to_mover(t)] = 0
            hit = True
        out.append((f, t, hit))
    written = Move(out)
    return written if g.legal_moves().index_of(written) >= 0 else move


def _dice_fit(steps: list[tuple[int, int]], dice: tuple[int, int]) -> bool:
    """Each step is one die of the roll (a bearing-off step may use a larger die)."""
    d1, d2 = dice
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    for order in orders:
        if len(steps) <= len(order) and all(
                (f - t == d) if t >= 0 else (f + 1 <= d)
                for (f, t), d in zip(steps, order)):
            return True
    return False


def _replay_win(g: Any, ev: _Event, fail: Any) -> None:
    from nardy.game import Phase

    if g.is_game_over():
        r = g.result()
        if ev.resigned and r.reason != "resign":
            raise fail(f"the record says {_NAMES[ev.player]} won by resignation, but the game "
                       f"ended by {r.reason}")
        if r.winner != ev.player:
            raise fail(f"the record says {_NAMES[ev.player]} wins, but "
                       f"{_NAMES[r.winner] if r.winner is not None else 'nobody'} won")
        if ev.value is not None and r.points != ev.value:
            raise fail(f"the record says {ev.value} point(s), the game is worth {r.points}")
        return
    if ev.resigned is False:
        raise fail(f"the record says {_NAMES[ev.player]} won, but the game is not over")
    loser = 1 - ev.player
    if g.phase not in (Phase.ROLL, Phase.MOVE) or g.turn != loser:
        raise fail(f"the record ends with a win for {_NAMES[ev.player]}, which only a "
                   f"resignation by {_NAMES[loser]} can give, and {_NAMES[loser]} is not on "
                   "roll (nardy lets only the player on roll resign)")
    for level in range(1, len(g.scoring.kinds) + 1):
        trial = copy.copy(g)
        trial.resign(level)
        trial.accept()
        if ev.value is None or trial.result().points == ev.value:
            g.resign(level)
            g.accept()
            return
    raise fail(f"no resignation gives {ev.value} point(s) with the cube at {g.cube_value}")


def _replay(length: int, rules: dict[str, Any], crawford: bool, given: Any,
            games: list[tuple[list[_Event], tuple[int, int] | None]]) -> Any:
    match = _make_match(length, rules, crawford, given)
    for k, (events, score) in enumerate(games, start=1):
        if k > 1:
            try:
                match.next_game()
            except Error as e:
                raise _error(f"cannot start this game: {e}", k) from None
        _number(events)
        _replay_game(match, k, events, score, k == len(games))
    return match


# ---------------------------------------------------------------------------------------
# From games to events (writing)
# ---------------------------------------------------------------------------------------


def _as_match(obj: Any) -> tuple[Any, tuple[str, str], dict[str, str]]:
    from nardy.game import Game
    from nardy.match import Match

    if isinstance(obj, MatchRecord):
        return obj.match, obj.players, dict(obj.tags)
    if isinstance(obj, Match):
        return obj, ("White", "Black"), {}
    if isinstance(obj, Game):
        return obj, ("White", "Black"), {}
    raise InvalidRecordError(f"cannot write a {type(obj).__name__} as a game record")


def _games_of(obj: Any) -> tuple[int, list[Any], Any, bool]:
    """(length, games, rules, crawford rule) of a Match, or of one Game as a money session."""
    from nardy.game import Game

    if isinstance(obj, Game):
        games, length, rules, crawford = [obj], 0, obj.rules, False
        if obj.crawford:
            raise InvalidRecordError("a lone Crawford game cannot be written: write its match")
    else:
        games, length, rules, crawford = list(obj.games), obj.length, obj.rules, obj.crawford_rule
    if type(games[0].variant) is not Backgammon:
        raise InvalidRecordError(f"only backgammon has .mat and SGF records, not "
                                 f"{games[0].variant.name}")
    for g in games:
        if g.setup["position"] is not None:
            raise InvalidRecordError("a game started from a set-up position cannot be written "
                                     "as a record of moves")
    return length, games, rules, crawford


def _step_text(step: Any) -> str:
    f = "25" if step.from_ == 24 else str(step.from_ + 1)
    t = "0" if step.to == -1 else str(step.to + 1)
    return f"{f}/{t}" + ("*" if step.hit else "")


def _game_events(g: Any, sgf: bool) -> tuple[list[_Event], int, Any]:
    """Events of a game's history; also the automatic doubles and the move objects."""
    events: list[_Event] = []
    moves: list[Any] = []
    auto = g.automatic_doubles
    pending = None
    level = 0
    for a in g.history:
        kind = a.kind
        if kind == "opening":
            continue
        if kind == "roll":
            pending = a
            continue
        if kind in ("resign", "decline"):
            continue  # an accepted resignation shows as the win; a declined one leaves no trace
        if pending is not None and kind not in ("move", "pass"):
            events.append(_Event("roll", pending.player, tuple(pending.dice)))
            moves.append(None)
        pending = None
        if kind in ("move", "pass"):
            text = " ".join(_step_text(s) for s in a.move.steps) if kind == "move" else ""
            events.append(_Event("move", a.player, tuple(a.dice), text))
            moves.append(a.move if kind == "move" else None)
        elif kind == "double":
            events.append(_Event("double", a.player, value=g.rules.stake(auto + level + 1)))
            moves.append(None)
        elif kind in ("beaver", "raccoon"):
            if not sgf:
                raise InvalidRecordError(f"a {kind} cannot be written in .mat (write SGF)")
            level += 1
            events.append(_Event("double", a.player))
            moves.append(None)
        elif kind == "take":
            level += 1
            events.append(_Event("take", a.player))
            moves.append(None)
        elif kind == "drop":
            events.append(_Event("drop", a.player))
            moves.append(None)
    if pending is not None:
        events.append(_Event("roll", pending.player, tuple(pending.dice)))
        moves.append(None)
    r = g.result()
    if r is not None:
        if r.winner is None:
            raise InvalidRecordError("a drawn game cannot be written in these formats")
        if not float(r.points).is_integer():
            raise InvalidRecordError(f"a game worth {r.points} points cannot be written")
        events.append(_Event("win", r.winner, value=int(r.points),
                             resigned=r.reason == "resign"))
        moves.append(None)
    if auto and not sgf:
        raise InvalidRecordError("automatic doubles cannot be written in .mat (write SGF)")
    _number(events)
    return events, auto, moves


def _game_scores(length: int, games: list[Any]) -> list[tuple[int, int]]:
    scores = []
    w = b = 0.0
    for g in games:
        if not (float(w).is_integer() and float(b).is_integer()):
            raise InvalidRecordError("half points (draws) cannot be written in these formats")
        scores.append((int(w), int(b)))
        r = g.result()
        if r is not None:
            w += r.points_for(WHITE)
            b += r.points_for(BLACK)
    return scores


# ---------------------------------------------------------------------------------------
# .mat
# ---------------------------------------------------------------------------------------

#: Tags of the .mat header that carry rules, not information.
_MAT_RULE_TAGS = ("Variation", "Crawford", "Jacoby", "Beaver", "CubeLimit", "Rules")
_MAT_SKIP_RULES = ("jacoby", "beaver", "max_cube")


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def write_mat(record: Any, players: tuple[str, str] | None = None,
              tags: dict[str, str] | None = None) -> str:
    """A :class:`~nardy.match.Match` (or one :class:`~nardy.game.Game`, written as a money
    session of one game, or a :class:`MatchRecord`) as ``.mat`` text, laid out as gnubg's
    ``export match mat``. ``players``: (white's name, black's name); ``tags``: header tags.

    Rule tags: ``Crawford "Off"``, ``Jacoby "On"``, ``Beaver "On"`` and ``CubeLimit "N"`` (as
    eXtreme Gammon writes them) and, for nardy's other non-default game rules, ``Rules
    "scoring=encyclopedia,..."``. Not expressible (InvalidRecordError): beavers, raccoons,
    automatic doubles, draws, games started from a set-up position; a declined resignation is
    left out."""
    obj, names, rtags = _as_match(record)
    names = tuple(players) if players is not None else names  # type: ignore[assignment]
    if tags is not None:
        rtags = dict(tags)
    for name in names:
        if not name or "\n" in name or " : " in name or name != name.strip():
            raise InvalidRecordError(f"player name {name!r} cannot be written in .mat")
    length, games, rules, crawford = _games_of(obj)
    out: list[str] = []
    comment = rtags.pop("Comment", None)
    for key, value in rtags.items():
        if key in _MAT_RULE_TAGS:
            continue
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 ]*", key) or "\n" in value or '"' in value:
            raise InvalidRecordError(f"tag {key!r}: {value!r} cannot be written in .mat")
        out.append(f'; [{key} "{value}"]\n')
    if length and not crawford:
        out.append('; [Crawford "Off"]\n')
    if rules.jacoby:
        out.append('; [Jacoby "On"]\n')
    if rules.beaver:
        out.append('; [Beaver "On"]\n')
    if rules.max_cube is not None:
        out.append(f'; [CubeLimit "{rules.max_cube}"]\n')
    extra = _rules_tag(games[0].variant, rules, _MAT_SKIP_RULES)
    if extra:
        out.append(f'; [Rules "{extra}"]\n')
    if comment:  # as gnubg writes the match comment: after a blank line, "; " per line
        out.append("\n" + "".join(f"; {line}\n" for line in comment.split("\n")))
    else:
        out.append("\n")
    out.append(f" {length} point match\n\n")
    for k, (g, score) in enumerate(zip(games, _game_scores(length, games)), start=1):
        events, _, _ = _game_events(g, sgf=False)
        out.append(f" Game {k}\n")
        left = f"{names[0]} : {score[0]}"
        out.append(f" {left:<31}{names[1]} : {score[1]}\n")
        out.append(_mat_game_body(events))
    text = "".join(out)
    return text if text.endswith("\n") else text + "\n"


def _dice_text(dice: Any) -> str:
    """The higher die first, as gnubg and Jellyfish write rolls."""
    return f"{max(dice)}{min(dice)}"


def _mat_game_body(events: list[_Event]) -> str:
    """gnubg's ExportGameJF layout, cell by cell."""
    out: list[str] = []
    i = 0
    dice_rolled = False
    for k, ev in enumerate(events):
        if ev.kind == "win":
            prev = events[k - 1] if k else None
            if prev is not None and prev.kind == "drop":
                continue  # written with the drop
            n = ev.value or 0
            if prev is not None and prev.kind == "move" and not ev.resigned:
                # after the winning move (gnubg's GameStatus test)
                out.append((" " * 34 if (i - 1) & 1 else "\n      ") + f"Wins {_points(n)}\n\n")
                continue
            # a resignation: gnubg's MOVE_RESIGN layout
            odd = (i & 1) ^ dice_rolled
            if ev.player == WHITE:   # black resigned
                out.append(("\n" if odd else "") + f"      Wins {_points(n)}\n\n")
            elif i & 1:
                out.append((" " if odd else " " * 24) + f"Wins {_points(n)}\n\n")
            else:
                out.append((" " if odd else " " * 34) + f"Wins {_points(n)}\n\n")
            continue
        if ev.kind == "move":
            cell = _dice_text(ev.dice) + ": "
            if ev.text:
                steps = ev.text.split(" ")
                cell += "".join(s + (" " if j < 3 else "") for j, s in enumerate(steps))
            dice_rolled = False
        elif ev.kind == "roll":
            cell = _dice_text(ev.dice) + ": "
        elif ev.kind == "double":
            cell = f" Doubles => {ev.value}"
        elif ev.kind == "take":
            cell = " Takes"
        else:  # drop
            nxt = events[k + 1] if k + 1 < len(events) else None
            won = nxt.value if nxt is not None and nxt.kind == "win" else None
            cell = " Drops" + (("\n      " if i & 1 else " " * 23) + f"Wins {_points(won)}"
                               if won is not None else "")
        if i == 0 and ev.player == BLACK:
            out.append("  1)" + " " * 29)
            i = 1
        last_roll = ev.kind == "roll" and (k + 1 < len(events) and events[k + 1].kind == "win")
        if i & 1:
            out.append(cell + ("" if last_roll else "\n"))
        elif last_roll:
            out.append(f"{i // 2 + 1:3d}) {cell:<3}")
        else:
            out.append(f"{i // 2 + 1:3d}) {cell:<27} ")
        dice_rolled = last_roll
        if ev.kind == "drop":
            out.append("\n" if i & 1 else "\n\n")
        i += 1
    text = "".join(out)
    if text and not text.endswith("\n"):
        text += "\n"
    return text


_CELL_RE = re.compile(
    r"(?P<dice>(?<![\w/*])[1-6][1-6]:)"
    r"|(?P<double>Doubles\s*=>\s*(?P<dv>\d+))"
    r"|(?P<take>Takes)"
    r"|(?P<drop>Drops)"
    r"|(?P<win>Wins\s+(?P<wv>\d+)\s+points?(?:\s+and\s+the\s+match)?)")
_STEP_RE = re.compile(r"^(?:bar|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+(?:\([1-4]\))?$")


def _mat_cells(line: str, start: int, lineno: int) -> list[_Event]:
    """The cells of one line (from column ``start``), each with its column's player."""
    cells: list[_Event] = []
    matches = list(_CELL_RE.finditer(line, start))
    if not matches:
        if line[start:].strip():
            raise _error(f"cannot read {line[start:].strip()!r}", line=lineno)
        return cells
    if line[start:matches[0].start()].strip():
        raise _error(f"cannot read {line[start:matches[0].start()].strip()!r}", line=lineno)
    for j, m in enumerate(matches):
        end = matches[j + 1].start() if j + 1 < len(matches) else len(line)
        body = line[m.end():end].strip()
        player = WHITE if m.start() < 20 else BLACK
        if m.group("dice"):
            tokens = body.split()
            for tok in tokens:
                if not _STEP_RE.match(tok):
                    raise _error(f"{m.group('dice')} {body}: cannot read {tok!r} as a "
                                 "checker move (from/to)", line=lineno)
            d = m.group("dice")
            cells.append(_Event("move", player, (int(d[0]), int(d[1])), _move_text(tokens),
                                line=lineno))
        else:
            if body:
                raise _error(f"cannot read {body!r} after {m.group(0)!r}", line=lineno)
            if m.group("double"):
                cells.append(_Event("double", player, value=int(m.group("dv")), line=lineno))
            elif m.group("take"):
                cells.append(_Event("take", player, line=lineno))
            elif m.group("drop"):
                cells.append(_Event("drop", player, line=lineno))
            else:
                cells.append(_Event("win", player, value=int(m.group("wv")), line=lineno))
    return cells


def read_mat(text: str, rules: Any = None) -> MatchRecord:
    """Reads ``.mat`` text and replays it (see the module doc). ``rules``: the
    :class:`~nardy.game.GameRules` (or dict) to play under, instead of those the header tags
    give. Raises :class:`~nardy.errors.InvalidRecordError`."""
    if not isinstance(text, str):
        raise InvalidRecordError(f".mat: expected text, not {type(text).__name__}")
    lines = text.splitlines()
    n = 0
    tags: dict[str, str] = {}
    length = None
    while n < len(lines):
        raw = lines[n]
        s = raw.strip()
        n += 1
        if not s or s.startswith("#"):
            continue
        if s.startswith(";"):
            m = re.fullmatch(r';\s*\[([A-Za-z][A-Za-z0-9 ]*?)\s+"([^"]*)"\]', s)
            if m:
                if m.group(1) in tags:
                    raise _error(f"tag {m.group(1)!r} given twice", line=n)
                tags[m.group(1)] = m.group(2)
            else:
                tags["Comment"] = (tags.get("Comment", "") + "\n" if "Comment" in tags else "") \
                    + s[1:].strip()
            continue
        m = re.fullmatch(r"(\d{1,4}) point match", s)
        if not m:
            raise _error(f"expected 'N point match', got {s!r}", line=n)
        length = int(m.group(1))
        break
    if length is None:
        raise _error("no 'N point match' line: not a .mat record")

    rule_kw: dict[str, Any] = {}
    crawford = True
    for key, value in tags.items():
        low = value.strip().lower()
        if key == "Variation":
            if low not in ("backgammon", "standard"):
                raise _error(f"variation {value!r}: only backgammon is supported")
        elif key in ("Crawford", "Jacoby", "Beaver"):
            if low not in ("on", "off"):
                raise _error(f'tag {key}: expected "On" or "Off", got {value!r}')
            if key == "Crawford":
                crawford = low == "on"
            else:
                rule_kw[key.lower()] = low == "on"
        elif key == "CubeLimit":
            if not re.fullmatch(r"[1-9]\d{0,5}", value):
                raise _error(f"tag CubeLimit: expected a number, got {value!r}")
            rule_kw["max_cube"] = int(value)
            if int(value) == 1:
                rule_kw = {k: v for k, v in rule_kw.items() if k != "max_cube"}
                rule_kw["cube"] = False
        elif key == "Rules":
            rule_kw.update(_parse_rules_tag(value, "tag Rules"))
    info = {k: v for k, v in tags.items() if k not in _MAT_RULE_TAGS}

    games: list[tuple[list[_Event], tuple[int, int] | None]] = []
    names: tuple[str, str] | None = None
    expect_no = 1
    cur: list[_Event] | None = None
    need_score = False
    while n < len(lines):
        raw = lines[n].rstrip("\r")
        n += 1
        s = raw.strip()
        if not s:
            continue
        m = re.fullmatch(r"Game (\d+)", s)
        if m:
            if int(m.group(1)) != len(games) + 1:
                raise _error(f"'Game {m.group(1)}', expected 'Game {len(games) + 1}'", line=n)
            cur = []
            games.append((cur, None))
            need_score = True
            expect_no = 1
            continue
        if cur is None:
            raise _error(f"expected 'Game 1', got {s!r}", line=n)
        if need_score:
            m = re.fullmatch(r"(.+?)\s*:\s*(\d+)\s+(.+?)\s*:\s*(\d+)", s)
            if not m:
                raise _error(f"expected the score line 'name : score   name : score', got {s!r}",
                             line=n)
            pair = (m.group(1), m.group(3))
            if names is None:
                names = pair
            elif pair != names:
                raise _error(f"players {pair[0]!r} and {pair[1]!r}, but game 1 has "
                             f"{names[0]!r} and {names[1]!r}", len(games), line=n)
            games[-1] = (cur, (int(m.group(2)), int(m.group(4))))
            need_score = False
            continue
        m = re.match(r"\s*(\d+)\)", raw)
        if m:
            no = int(m.group(1))
            if no != expect_no:
                raise _error(f"move number {no}), expected {expect_no})", len(games), line=n)
            expect_no += 1
            cells = _mat_cells(raw, m.end(), n)
        else:
            cells = _mat_cells(raw, 0, n)
            if not cells or any(c.kind != "win" for c in cells):
                raise _error(f"cannot read {s!r}", len(games), line=n)
        cur.extend(cells)
    if not games:
        raise _error("no games in the record")
    if need_score:
        raise _error("the last game has no score line", len(games))
    # A "Wins" cell is a result, never a move: one per game, at the end.
    for k, (events, _) in enumerate(games, start=1):
        for j, ev in enumerate(events):
            if ev.kind == "win" and j != len(events) - 1:
                raise _error("something follows 'Wins' in this game", k, line=events[j + 1].line)
    match = _replay(length, rule_kw, crawford, rules, games)
    return MatchRecord(match, names or ("White", "Black"), info)


# ---------------------------------------------------------------------------------------
# SGF
# ---------------------------------------------------------------------------------------

#: SGF root properties that map onto .mat tags (the same names in MatchRecord.tags).
_SGF_TAGS = {"EV": "Event", "RO": "Round", "PC": "Site", "DT": "EventDate",
             "AN": "Transcriber", "GC": "Comment"}
_SGF_SKIP_RULES = ("jacoby",)


def _sgf_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("]", "\\]")


def _sgf_point(index: int, player: int) -> str:
    if index == 24:
        return "y"
    if index == -1:
        return "z"
    return chr(ord("a") + (index if player == WHITE else 23 - index))


def write_sgf(record: Any, players: tuple[str, str] | None = None,
              tags: dict[str, str] | None = None) -> str:
    """A match (or one game, or a :class:`MatchRecord`) as SGF, one game tree per game, as
    gnubg saves matches. Non-default rules other than Jacoby go in the private property
    ``NR[scoring=encyclopedia,...]``. A declined resignation is left out."""
    from nardy import __version__

    obj, names, rtags = _as_match(record)
    names = tuple(players) if players is not None else names  # type: ignore[assignment]
    if tags is not None:
        rtags = dict(tags)
    length, games, rules, crawford = _games_of(obj)
    out: list[str] = []
    extra = _rules_tag(games[0].variant, rules, _SGF_SKIP_RULES)
    for k, (g, score) in enumerate(zip(games, _game_scores(length, games))):
        events, auto, moves = _game_events(g, sgf=True)
        head = [f"(;FF[4]GM[6]CA[UTF-8]AP[nardy:{__version__}]",
                f"MI[length:{length}][game:{k}][ws:{score[0]}][bs:{score[1]}]",
                f"PW[{_sgf_escape(names[0])}]PB[{_sgf_escape(names[1])}]"]
        if k == 0:
            for prop, tag in _SGF_TAGS.items():
                if tag in rtags:
                    value = rtags[tag]
                    if prop == "DT":
                        value = value.replace(".", "-")
                    head.append(f"{prop}[{_sgf_escape(value)}]")
        if length and crawford:
            head.append("RU[Crawford:CrawfordGame]" if g.crawford else "RU[Crawford]")
        elif rules.jacoby:
            head.append("RU[Jacoby]")
        if extra:
            head.append(f"NR[{_sgf_escape(extra)}]")
        if auto:
            head.append(f"CV[{rules.stake(auto)}]")
        win = events[-1] if events and events[-1].kind == "win" else None
        if win is not None:
            head.append(f"RE[{'W' if win.player == WHITE else 'B'}+{win.value}"
                        f"{'R' if win.resigned else ''}]")
        out.append("".join(head))
        for ev, mv in zip(events, moves):
            c = "W" if ev.player == WHITE else "B"
            if ev.kind == "move":
                body = _dice_text(ev.dice)
                if mv is not None:
                    body += "".join(_sgf_point(s.from_, ev.player) + _sgf_point(s.to, ev.player)
                                    for s in mv.steps)
                out.append(f"\n;{c}[{body}]")
            elif ev.kind == "roll":
                out.append(f"\n;PL[{c}]DI[{_dice_text(ev.dice)}]")
            elif ev.kind in ("double", "take", "drop"):
                out.append(f"\n;{c}[{ev.kind}]")
        out.append(")\n")
    return "".join(out)


class _SgfParser:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1

    def fail(self, why: str) -> InvalidRecordError:
        line = self.s.count("\n", 0, self.i) + 1
        return _error(f"SGF: {why}", line=line)

    def collection(self) -> list[list[dict[str, list[str]]]]:
        trees = []
        self.ws()
        while self.i < len(self.s):
            if self.s[self.i] != "(":
                raise self.fail(f"expected '(', got {self.s[self.i]!r}")
            trees.append(self.tree())
            self.ws()
        if not trees:
            raise self.fail("no game tree")
        return trees

    def tree(self) -> list[dict[str, list[str]]]:
        assert self.s[self.i] == "("
        self.i += 1
        nodes: list[dict[str, list[str]]] = []
        self.ws()
        while self.i < len(self.s) and self.s[self.i] == ";":
            self.i += 1
            nodes.append(self.node())
            self.ws()
        if not nodes:
            raise self.fail("a game tree needs at least one node")
        children = []
        while self.i < len(self.s) and self.s[self.i] == "(":
            children.append(self.tree())
            self.ws()
        if len(children) > 1:
            raise self.fail("variations are not supported (one line of play per game)")
        if children:
            nodes.extend(children[0])
        if self.i >= len(self.s):
            raise self.fail("unterminated game tree (missing ')')")
        if self.s[self.i] != ")":
            raise self.fail(f"unexpected {self.s[self.i]!r} (expected a property, ';', '(' or ')')")
        self.i += 1
        return nodes

    def node(self) -> dict[str, list[str]]:
        props: dict[str, list[str]] = {}
        while True:
            self.ws()
            m = re.compile(r"[A-Z][A-Za-z]*").match(self.s, self.i)
            if not m:
                return props
            ident = "".join(ch for ch in m.group(0) if ch.isupper())
            self.i = m.end()
            self.ws()
            values = []
            while self.i < len(self.s) and self.s[self.i] == "[":
                values.append(self.value())
                self.ws()
            if not values:
                raise self.fail(f"property {ident} has no value")
            if ident in props:
                raise self.fail(f"property {ident} given twice in a node")
            props[ident] = values

    def value(self) -> str:
        self.i += 1
        out = []
        while self.i < len(self.s):
            ch = self.s[self.i]
            if ch == "\\":
                self.i += 1
                if self.i < len(self.s):
                    nxt = self.s[self.i]
                    if nxt != "\n":  # a soft line break disappears
                        out.append(nxt)
                    self.i += 1
                continue
            if ch == "]":
                self.i += 1
                return "".join(out)
            out.append(ch)
            self.i += 1
        raise self.fail("unterminated property value (missing ']')")


def _sgf_move_event(player: int, value: str, node_no: int, game: int) -> _Event:
    v = value.strip()
    if v in ("double", "take", "drop"):
        return _Event(v, player)
    m = re.fullmatch(r"([1-6])([1-6])((?:[a-z][a-z]){0,4})", v)
    if not m:
        raise _error(f"SGF node {node_no}: cannot read the move {value!r} "
                     "(expected dice and point pairs, e.g. 31hefe, or double/take/drop)", game)
    steps = []
    pairs = m.group(3)
    for j in range(0, len(pairs), 2):
        a, b = pairs[j], pairs[j + 1]
        if a == "z" or b == "y":
            raise _error(f"SGF node {node_no}: {value!r}: {a}{b} is not a step "
                         "(y = bar is only a start, z = off only an end)", game)

        def name(ch: str) -> str:
            if ch == "y":
                return "bar"
            if ch == "z":
                return "off"
            k = ord(ch) - ord("a")
            return str(k + 1 if player == WHITE else 24 - k)

        steps.append(f"{name(a)}/{name(b)}")
    return _Event("move", player, (int(m.group(1)), int(m.group(2))), " ".join(steps))


def read_sgf(text: str, rules: Any = None) -> MatchRecord:
    """Reads SGF backgammon (GM[6]) game trees, one per game of a match, and replays them.
    ``rules`` as for :func:`read_mat`. Raises :class:`~nardy.errors.InvalidRecordError`."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"SGF: expected text, not {type(text).__name__}")
    trees = _SgfParser(text).collection()
    games: list[tuple[list[_Event], tuple[int, int] | None]] = []
    length = None
    names = None
    tags: dict[str, str] = {}
    rule_kw: dict[str, Any] = {}
    crawford = False
    auto: list[int] = []
    cgames: list[bool] = []
    for k, nodes in enumerate(trees, start=1):
        root = nodes[0]

        def one(prop: str, root: dict[str, list[str]] = root, k: int = k) -> str | None:
            vals = root.get(prop)
            if vals is None:
                return None
            if len(vals) != 1:
                raise _error(f"SGF root: {prop} takes one value", k)
            return vals[0]

        if one("GM") != "6":
            raise _error(f"SGF root: GM[{one('GM')}] is not backgammon (GM[6])", k)
        mi: dict[str, str] = {}
        for item in root.get("MI", []):
            key, colon, value = item.partition(":")
            if not colon:
                raise _error(f"SGF root: MI[{item}] is not tag:value", k)
            mi[key.strip().lower()] = value.strip()
        try:
            glen = int(mi.get("length", "0"))
            score = (int(mi["ws"]), int(mi["bs"])) if "ws" in mi and "bs" in mi else None
        except ValueError:
            raise _error(f"SGF root: MI values must be numbers, got {root.get('MI')}", k) from None
        if length is None:
            length = glen
        elif glen != length:
            raise _error(f"SGF root: match length {glen}, game 1 says {length}", k)
        pair = (one("PW") or "White", one("PB") or "Black")
        if names is None:
            names = pair
        elif pair != names:
            raise _error(f"SGF root: players {pair}, game 1 has {names}", k)
        ru: str = one("RU") or ""
        if k == 1:
            crawford = ru.split(":")[0].strip().lower() == "crawford"
            if ru.strip().lower() == "jacoby":
                rule_kw["jacoby"] = True
            nr = one("NR")
            if nr:
                rule_kw.update(_parse_rules_tag(nr, "SGF NR"))
            for prop, tag in _SGF_TAGS.items():
                tag_value = one(prop)
                if tag_value is not None:
                    tags[tag] = tag_value.replace("-", ".") if prop == "DT" else tag_value
        cgames.append(ru.strip().lower().endswith(":crawfordgame"))
        cv = one("CV")
        n_auto = 0
        if cv is not None:
            if not re.fullmatch(r"[1-9]\d*", cv):
                raise _error(f"SGF root: CV[{cv}] is not a cube value", k)
            n_auto = int(cv).bit_length() - 1
            if int(cv) != 1 << n_auto:
                raise _error(f"SGF root: CV[{cv}] is not a power of two", k)
        auto.append(n_auto)
        events: list[_Event] = []
        for j, node in enumerate(nodes[1:], start=2):
            for bad in ("AE", "AB", "AW", "CV", "CP"):
                if bad in node:
                    raise _error(f"SGF node {j}: set-up property {bad} (an edited position) "
                                 "cannot be replayed", k)
            movers = [p for p in ("W", "B") if p in node]
            if len(movers) > 1:
                raise _error(f"SGF node {j}: both W and B in one node", k)
            if movers:
                c = movers[0]
                if len(node[c]) != 1:
                    raise _error(f"SGF node {j}: {c} takes one value", k)
                events.append(_sgf_move_event(WHITE if c == "W" else BLACK, node[c][0], j, k))
            elif "DI" in node:
                pl = node.get("PL", [""])[0]
                di = node["DI"][0]
                if pl not in ("W", "B") or not re.fullmatch(r"[1-6][1-6]", di):
                    raise _error(f"SGF node {j}: PL[{pl}]DI[{di}] is not a roll", k)
                events.append(_Event("roll", WHITE if pl == "W" else BLACK,
                                     (int(di[0]), int(di[1]))))
        re_ = one("RE")
        if re_ is not None and re_.strip():
            m = re.fullmatch(r"([WB])\+(\d+)(R?)", re_.strip())
            if not m:
                raise _error(f"SGF root: RE[{re_}] is not W+n or B+n (R: resigned)", k)
            events.append(_Event("win", WHITE if m.group(1) == "W" else BLACK,
                                 value=int(m.group(2)), resigned=bool(m.group(3))))
        games.append((events, score))
    assert length is not None
    if any(auto) and rules is None:
        rule_kw.setdefault("auto_doubles", max(auto))
    match = _make_match(length, rule_kw, crawford, rules)
    for k, ((events, score), n_auto) in enumerate(zip(games, auto), start=1):
        if k > 1:
            try:
                match.next_game()
            except Error as e:
                raise _error(f"cannot start this game: {e}", k) from None
        g = match.game
        if match.crawford_rule and cgames[k - 1] != g.crawford:
            raise _error("RU says this is " + ("" if cgames[k - 1] else "not ")
                         + "the Crawford game, the score says otherwise", k)
        try:
            for t in range(n_auto):
                g.roll((t % 6 + 1, t % 6 + 1))  # tied opening throws: automatic doubles
        except Error as e:
            raise _error(f"CV: automatic doubles: {e}", k) from None
        if n_auto and g.cube_level != n_auto:
            raise _error(f"CV[{1 << n_auto}]: these rules allow {g.cube_level} automatic "
                         "doubles", k)
        _number(events)
        _replay_game(match, k, events, score, k == len(games))
    return MatchRecord(match, names or ("White", "Black"), tags)
