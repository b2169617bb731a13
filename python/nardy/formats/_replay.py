"""The validating replay shared by nardy's game records (.mat, SGF and the nardy record).

A record is read into events (a roll and move, a cube action, a result), which are replayed
through :class:`~nardy.match.Match` and :class:`~nardy.game.Game`: every move is checked
against the legal moves of its roll, every cube action against the cube rules, every result
against the game. The first thing that does not fit raises
:class:`~nardy.errors.InvalidRecordError` naming game, move and player. Writing goes the other
way: a game's history to events, which each format lays out.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from nardy.errors import Error, InvalidRecordError
from nardy.variants import BLACK, WHITE, Backgammon

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
    value: float | None = None  # Doubles => value, Wins value points
    resigned: bool | None = None  # win: True by resignation (SGF "R"), None unknown
    capped: bool = False      # win: "Wins N points and the match", N may be capped
    blank: str | None = None  # dice only: "dance" (Cannot Move), "unknown" (????)
    exact: bool = False       # the move is written as the variant formats it (nardy record)
    reason: str | None = None  # result (nardy record): how the game ended
    winner: int | None = None  # result: the winner, None for a draw
    col: int | None = None    # column of the cell in the .mat text
    move_no: int = 0          # numbered line of the .mat layout
    line: int | None = None   # line of the .mat text


def _error(why: str, game: int | None = None, ev: _Event | None = None,
           line: int | None = None) -> InvalidRecordError:
    where = []
    if game is not None:
        where.append(f"game {game}")
    if ev is not None:
        where.append(f"move {ev.move_no} ({_NAMES.get(ev.player, 'nobody')})")
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


def _record_lines(lines: Sequence[str]) -> Iterator[tuple[int, str, str]]:
    """The non-blank lines of a record as (line number from 1, stripped text, line as read).
    One iterator serves a reader's header loop and then its game loop, which go on from where
    the header ended."""
    for n, raw in enumerate(lines, start=1):
        s = raw.strip()
        if s:
            yield n, s, raw


def _open_game(s: str, games: list[Any], line: int) -> list[_Event] | None:
    """On a ``Game N`` line: checks that N follows the games read so far, appends the new game
    (its score still to be read) to ``games`` and returns its event list; on any other line,
    None."""
    m = re.fullmatch(r"Game (\d+)", s)
    if not m:
        return None
    if int(m.group(1)) != len(games) + 1:
        raise _error(f"'Game {m.group(1)}', expected 'Game {len(games) + 1}'", line=line)
    events: list[_Event] = []
    games.append((events, None))
    return events


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

    base = GameRules().resolve(variant)
    parts = [f"{f.name}={_rule_text(getattr(rules, f.name))}" for f in fields(GameRules)
             if f.name not in skip and getattr(rules, f.name) != getattr(base, f.name)]
    parts += [f"{k}={_rule_text(v)}" for k, v in variant.rules.items()
              if v != type(variant).options[k][0]]
    return ",".join(sorted(parts))


def _gnubg_variant(name: str, what: str) -> Any:
    """The variant a .mat Variation tag (or SGF's NR variant=) names: backgammon
    (``Standard``, ``Backgammon``) or another variant gnubg plays, by its name."""
    from nardy.variants import VARIANTS

    low = name.strip().lower()
    if low in ("backgammon", "standard"):
        return Backgammon
    known = [cls for cls in VARIANTS if cls.gnubg_ids]
    for cls in known:
        if low == cls.name:
            return cls
    raise _error(f"{what} {name!r}: only backgammon and " + ", ".join(
        cls.name for cls in known if cls is not Backgammon) + " have these records")


def _parse_rules_tag(text: str, what: str, variant_cls: Any = Backgammon) -> dict[str, Any]:
    from nardy.game import GameRules

    known = {f.name for f in fields(GameRules)} | set(variant_cls.options)
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


def _make_match(length: int, rules: dict[str, Any], crawford: bool, given: Any,
                score: tuple[int, int] | None = None, post_crawford: bool = False,
                variant_cls: Any = Backgammon, variant: Any = None) -> Any:
    from nardy.game import GameRules
    from nardy.match import Match

    vopts = {k: v for k, v in rules.items() if k in variant_cls.options}
    grules = {k: v for k, v in rules.items() if k not in variant_cls.options}
    try:
        if variant is None:
            variant = variant_cls(**vopts)
        if given is not None:
            base = given if isinstance(given, GameRules) else GameRules(**given)
        else:
            base = GameRules(**grules)
        return Match(length, variant, base, 0, crawford=crawford, score=score or (0, 0),
                     post_crawford=post_crawford)
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

        if g.is_game_over() and ev.kind not in ("win", "result"):
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
                elif (g.phase is Phase.MOVE and not _after_opening(events, j)
                      and g.carried is None):
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
                               f"{_NAMES.get(g.to_act, 'nobody')} ({g.phase})")
                if ev.kind == "roll" or not ev.text:
                    _dice_only(g, ev, nxt, fail)
                    continue
                if g.carried is not None:  # the dice a stopped cascade left: written as a turn
                    g.play(ev.text)
                    continue
                if ev.exact:
                    g.play(_formatted(g, ev, fail))
                    continue
                move = _as_written(g, ev.text)
                if move is None:
                    try:
                        move = g.position.parse_move(ev.text, g.dice)
                    except Error as e:
                        raise fail(f"{ev.dice[0]}{ev.dice[1]}: {ev.text}: {e}") from None
                g.play(move)
            elif ev.kind == "opening":
                if g.phase is not Phase.OPENING:
                    raise fail(f"an opening throw, but the game is in phase {g.phase}")
                g.roll(ev.dice)
            elif ev.kind in ("beaver", "raccoon", "accept", "decline", "claim"):
                if g.to_act != ev.player:
                    raise fail(f"{ev.kind}: the game waits for "
                               f"{_NAMES.get(g.to_act, 'nobody')} ({g.phase})")
                getattr(g, ev.kind)()
            elif ev.kind == "play":   # the move of a roll written before (nardy record)
                if g.phase is not Phase.MOVE or g.turn != ev.player:
                    raise fail(f"{_NAMES[ev.player]} plays, but the game waits for "
                               f"{_NAMES.get(g.to_act, 'nobody')} ({g.phase})")
                if ev.text == "pass":
                    if g.move_count():
                        raise fail(f"a pass, but {g.move_count()} legal moves exist")
                    g.pass_turn()
                else:
                    ev.dice = g.dice
                    g.play(_formatted(g, ev, fail))
            elif ev.kind == "resign":
                g.resign(ev.text, ev.player)
            elif ev.kind == "result":
                _check_result(g, ev, fail)
            elif ev.kind == "double":
                if g.phase is Phase.DOUBLED and ev.player == g.to_act:
                    g.beaver()   # SGF: a double by the doubled player is a beaver
                elif g.phase is Phase.BEAVERED and ev.player == g.to_act:
                    g.raccoon()
                else:
                    if g.phase is not Phase.ROLL or g.turn != ev.player:
                        raise fail(f"cannot double now: the game waits for "
                                   f"{_NAMES.get(g.to_act, 'nobody')} ({g.phase})")
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
                _replay_win(match, g, ev, fail)
            else:  # pragma: no cover
                raise fail(f"unknown event {ev.kind}")
        except InvalidRecordError:
            raise
        except Error as e:
            raise fail(str(e)) from None
    if not g.is_game_over() and not is_last:
        raise _error("the game is not finished, but another game follows", k)


def _mat_roll_then_resign(ev: _Event, nxt: _Event) -> bool:
    """gnubg's .mat layout tells a roll followed by a resignation from a dance followed by
    one: the "Wins" stays on the dice's line, except after a dance in the left column
    followed by black's win, which is on that line too but in black's column (34)."""
    if ev.line is None or nxt.line != ev.line or nxt.col is None:
        return False
    return not (ev.player == WHITE and nxt.col >= 34)


def _after_opening(events: list[_Event], j: int) -> bool:
    """Event ``j`` plays the opening throw: only a declined resignation comes between."""
    k = j - 1
    while k >= 0 and events[k].kind in ("resign", "decline"):
        k -= 1
    return k >= 0 and events[k].kind == "opening"


def _dice_only(g: Any, ev: _Event, nxt: _Event | None, fail: Any) -> None:
    """A roll written without a move: a dance, a roll after which a player resigned (the
    next event is the win), or a forced move left out (FIBS plays it for the player)."""
    assert ev.dice is not None
    n = g.move_count()
    dice = f"{ev.dice[0]}{ev.dice[1]}"
    if nxt is not None and nxt.kind == "resign" and ev.blank == "unknown":
        return                               # rolled, then resigned (nardy record)
    if nxt is not None and nxt.kind == "win" and not n and (
            ev.kind == "roll" or _mat_roll_then_resign(ev, nxt)):
        return    # a roll, then a resignation: no pass
    if not n:
        g.pass_turn()
        return
    if ev.blank == "dance":
        raise fail(f"{dice}: 'Cannot Move', but {n} legal moves exist")
    if nxt is not None and nxt.kind == "win":
        if n == 1 and ev.blank is None:
            trial = copy.copy(g)
            trial.play(trial.legal_moves()[0])
            r = trial.result()
            if r is not None and r.winner == nxt.player and nxt.value in (None, r.points):
                g.play(g.legal_moves()[0])   # the forced move that won the game
        return                               # otherwise: rolled, then resigned
    if ev.blank == "unknown":
        raise fail(f"{dice}: '????' (a roll followed by a resignation), but the game goes on")
    if n == 1:
        g.play(g.legal_moves()[0])
        return
    raise fail(f"no move written for {dice}, but {n} legal moves exist")


def _formatted(g: Any, ev: _Event, fail: Any) -> Any:
    """The legal move that ``ev.text`` denotes in the variant's notation: as parsed, or
    else the legal move that the variant writes so."""
    from nardy.notation import format_move

    v, who = g.variant, g.turn
    try:
        return g.position.parse_move(ev.text, g.dice, turn_number=g.turn_number)
    except Error:
        pass
    for move in g.legal_moves():
        if format_move(move, v, who) == ev.text:
            return move
    dice = "".join(map(str, ev.dice or g.dice))
    raise fail(f"{dice}: {ev.text!r} is not a legal move written in {v.name}'s notation")


def _check_result(g: Any, ev: _Event, fail: Any) -> None:
    r = g.result()
    if r is None:
        raise fail("a result, but the game is not over")
    said = "a draw" if ev.winner is None else f"{_NAMES[ev.winner]} wins {ev.text}"
    if (r.winner != ev.winner or (ev.winner is not None and r.kind != ev.text)
            or r.points != ev.value or r.reason != ev.reason):
        got = "a draw" if r.winner is None else f"{_NAMES[r.winner]} wins {r.kind}"
        raise fail(f"the record says {said}, {ev.value} point(s) ({ev.reason}); the game "
                   f"gives {got}, {r.points} point(s) ({r.reason})")


def _as_written(g: Any, text: str) -> Any:
    """The legal move with its steps as the record writes them, when every segment of the
    record's notation is one die (``24/22 22/16``, ``13/9/6``, ``8/4(2)``): a record read and
    written again then keeps its steps. None when the text is not so written, or is not a
    legal move so read (the notation parser then decides)."""
    from nardy.notation import parse_move_steps
    from nardy.position import Move

    pos = g.position
    v = pos.variant
    try:
        steps = [(f, t) for f, t, _ in parse_move_steps(text, v, pos.turn)]
    except Error:
        return None
    if not _dice_fit(steps, g.dice):
        return None
    them = list(pos.sides()[1])
    out = []
    for f, t in steps:  # hits in the written order (a blot is hit by the first to land)
        hit = False
        if t >= 0 and them[v.to_mover(t)] == 1:
            them[v.to_mover(t)] = 0
            hit = True
        out.append((f, t, hit))
    written = Move(out)
    return written if g.legal_moves().index_of(written) >= 0 else None


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


def _replay_win(match: Any, g: Any, ev: _Event, fail: Any) -> None:
    from nardy.game import Phase

    # "Wins N points and the match": N may be capped at the match length or at the points
    # the winner needed, so it is checked against the cap.
    caps = []
    if ev.capped and match.length:
        before = match.score[ev.player]
        if g.is_game_over():
            before -= g.result().points_for(ev.player)
        caps = [match.length, match.length - before]

    def fits(points: float) -> bool:
        return ev.value is None or points == ev.value or any(
            min(points, c) == ev.value for c in caps)

    if ev.capped and not match.length:
        raise fail("'and the match' in money play")
    if g.is_game_over():
        r = g.result()
        if ev.resigned and r.reason != "resign":
            raise fail(f"the record says {_NAMES[ev.player]} won by resignation, but the game "
                       f"ended by {r.reason}")
        if r.winner != ev.player:
            raise fail(f"the record says {_NAMES[ev.player]} wins, but "
                       f"{_NAMES[r.winner] if r.winner is not None else 'nobody'} won")
        if not fits(r.points):
            raise fail(f"the record says {ev.value} point(s), the game is worth {r.points}")
        _check_match_won(match, ev, r.points, fail)
        return
    if ev.resigned is False:
        raise fail(f"the record says {_NAMES[ev.player]} won, but the game is not over")
    loser = 1 - ev.player
    if g.phase not in (Phase.ROLL, Phase.MOVE):
        raise fail(f"the record ends with a win for {_NAMES[ev.player]}, which only a "
                   f"resignation by {_NAMES[loser]} can give, and the game waits for "
                   f"{_NAMES.get(g.to_act, 'nobody')} ({g.phase})")
    for level in range(1, len(g.scoring.kinds) + 1):
        trial = copy.copy(g)
        trial.resign(level, loser)
        trial.accept()
        if fits(trial.result().points):
            g.resign(level, loser)
            g.accept()
            _check_match_won(match, ev, g.result().points, fail)
            return
    raise fail(f"no resignation gives {ev.value} point(s) with the cube at {g.cube_value}")


def _check_match_won(match: Any, ev: _Event, points: float, fail: Any) -> None:
    if ev.capped and match.score[ev.player] < match.length:
        raise fail(f"'Wins {ev.value} points and the match', but {_NAMES[ev.player]} has "
                   f"{match.score[ev.player]} of {match.length}")


def _replay(length: int, rules: dict[str, Any], crawford: bool, given: Any,
            games: list[tuple[list[_Event], Any]],
            post_crawford: bool | None = None, variant_cls: Any = Backgammon,
            variant: Any = None, numbered: bool = False) -> Any:
    """The match the games give. It starts at the first game's score; when a player is one
    point away there and the record does not say (``post_crawford`` None) whether the
    Crawford game was already played, the first game is taken as the Crawford game unless
    its play shows otherwise (a double)."""
    start = games[0][1] if games else None
    tries = [bool(post_crawford)]
    if (post_crawford is None and crawford and length and start is not None
            and max(start) == length - 1):
        tries = [False, True]
    first: InvalidRecordError | None = None
    for post in tries:
        try:
            return _replay_from(length, rules, crawford, given, games, start, post,
                                variant_cls, variant, numbered)
        except InvalidRecordError as e:
            first = first or e
    assert first is not None
    raise first


def _replay_from(length: int, rules: dict[str, Any], crawford: bool, given: Any,
                 games: list[tuple[list[_Event], Any]],
                 start: tuple[int, int] | None, post_crawford: bool, variant_cls: Any,
                 variant: Any = None, numbered: bool = False) -> Any:
    match = _make_match(length, rules, crawford, given, start, post_crawford, variant_cls,
                        variant)
    for k, (events, score) in enumerate(games, start=1):
        if k > 1:
            try:
                match.next_game()
            except Error as e:
                raise _error(f"cannot start this game: {e}", k) from None
        if not numbered:   # the events carry the record's own numbers
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
    if not games[0].variant.gnubg_ids:   # the variants gnubg plays, on its 24 points
        raise InvalidRecordError(f"only backgammon and gnubg's other variants have .mat and "
                                 f"SGF records, not {games[0].variant.name} (write a nardy "
                                 "record)")
    if any(g.variant != games[0].variant for g in games):
        raise InvalidRecordError("a .mat or SGF record holds one variant; this match rotates "
                                 + ", ".join(dict.fromkeys(g.variant.name for g in games)))
    for g in games:
        if g.setup["position"] is not None:
            raise InvalidRecordError("a game started from a set-up position cannot be written "
                                     "as a record of moves")
    return length, games, rules, crawford


def _start_of(obj: Any) -> tuple[tuple[float, float], bool]:
    """(starting score, whether the Crawford game was before it) of a Match or a Game."""
    from nardy.game import Game

    if isinstance(obj, Game):
        return (0, 0), False
    return obj.start_score, obj.starts_post_crawford


def _step_text(step: Any) -> str:
    f = "25" if step.from_ == 24 else str(step.from_ + 1)
    t = "0" if step.to == -1 else str(step.to + 1)
    return f"{f}/{t}" + ("*" if step.hit else "")


def _game_events(g: Any, sgf: bool) -> tuple[list[_Event], int, Any]:
    """Events of a game's history; also the automatic doubles and the move objects."""
    from nardy.game import FRESH

    events: list[_Event] = []
    moves: list[Any] = []
    auto = g.automatic_doubles
    pending = None
    level = 0
    for a in g.history:
        kind = a.kind
        if kind == "opening":
            # the roll-off's dice are the starter's first roll: written as dice alone when
            # a resignation, not a move, follows them
            d1, d2 = a.dice
            rolloff = g.rules.opening_roll != FRESH and d1 != d2
            pending = a._replace(player=WHITE if d1 > d2 else BLACK) if rolloff else None
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


def _game_scores(length: int, games: list[Any],
                 start: tuple[float, float] = (0, 0)) -> list[tuple[int, int]]:
    scores = []
    w, b = start
    for g in games:
        if not (float(w).is_integer() and float(b).is_integer()):
            raise InvalidRecordError("half points (draws) cannot be written in these formats")
        scores.append((int(w), int(b)))
        r = g.result()
        if r is not None:
            w += r.points_for(WHITE)
            b += r.points_for(BLACK)
    return scores


def _dice_text(dice: Any) -> str:
    """The higher die first, as gnubg and Jellyfish write rolls."""
    return f"{max(dice)}{min(dice)}"
