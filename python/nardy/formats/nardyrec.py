"""The nardy record: games and matches of every variant (long nardy, Shlem, backgammon) as text.

Long nardy and Shlem have no established record format, so nardy defines one in the spirit
of ``.mat``: header tags, ``N point match``, and per game its score line, numbered turns with
the dice and the move in the variant's own notation, cube and resignation lines, and the
result with its kind and points::

    ; [Variant "long-nardy"]
    ; [White "Alice"]
    ; [Black "Bob"]

     3 point match

     Game 1
     Score 0-0
      opening 5-2
      1) black 52: 12/5 24/17
      2) white 33: 24/18(2) 24/18(2)
      ...
     Result black wins mars 2 points (bear-off)

:func:`write_record` writes a :class:`~nardy.match.Match`, a :class:`~nardy.game.Game` or a
:class:`~nardy.formats.records.MatchRecord`; :func:`read_record` replays the text through the
same validating replay as ``.mat`` and SGF (every move legal for its dice, every cube action
and resignation allowed, every result the one the play gives) and raises
:class:`~nardy.errors.InvalidRecordError` naming game, turn and player. Every action of a
game's history is written, so a record reads back into the same history. The layout:
``docs/formats.md``. :func:`convert_record` moves a record between this format, ``.mat`` and SGF.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from nardy import _validate
from nardy.errors import Error, InvalidRecordError
from nardy.formats._replay import (
    BLACK,
    WHITE,
    MatchRecord,
    _as_match,
    _error,
    _Event,
    _open_game,
    _record_lines,
    _replay,
    _rule_text,
    _rule_value,
    _start_of,
)

__all__ = ["FORMATS", "convert_record", "convert_text", "read_record", "write_record"]

_COLORS = {"white": WHITE, "black": BLACK}
_NAME = {WHITE: "white", BLACK: "black"}
#: Header tags that carry the game, not information about it.
_RULE_TAGS = ("Variant", "Rules", "Crawford", "PostCrawford", "White", "Black")


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _points(x: float) -> str:
    return f"{_num(x)} point" if x == 1 else f"{_num(x)} points"


def _check_tag(key: str, value: str) -> None:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", key) or "\n" in value or '"' in value:
        raise InvalidRecordError(f"tag {key!r}: {value!r} cannot be written in a nardy record")


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------


def write_record(record: Any, players: tuple[str, str] | None = None,
                 tags: dict[str, str] | None = None) -> str:
    """A Match, a Game (written as a money session of one game) or a MatchRecord, of any
    variant, as a nardy record. ``players``: (white's name, black's name); ``tags``: other
    header tags. Games started from a set-up position cannot be written (InvalidRecordError)."""
    from nardy.formats.text import _variant_text
    from nardy.game import Game, GameRules

    obj, names, rtags = _as_match(record)
    names = tuple(players) if players is not None else names  # type: ignore[assignment]
    if tags is not None:
        rtags = dict(tags)
    if isinstance(obj, Game):
        if obj.crawford:
            raise InvalidRecordError("a lone Crawford game cannot be written: write its match")
        games, length, rules, crawford = [obj], 0, obj.rules, False
    else:
        games, length, rules, crawford = list(obj.games), obj.length, obj.rules, obj.crawford_rule
    start, post = _start_of(obj)
    variant = games[0].variant
    if any(g.variant != variant for g in games):
        raise InvalidRecordError("a nardy record holds one variant; this match rotates "
                                 + ", ".join(dict.fromkeys(g.variant.name for g in games)))
    for g in games:
        if g.setup["position"] is not None:
            raise InvalidRecordError("a game started from a set-up position cannot be written "
                                     "as a record of moves")
    out = [f'; [Variant "{_variant_text(variant)}"]\n']
    base = GameRules().resolve(variant)
    extra = [f"{f.name}={_rule_text(getattr(rules, f.name))}" for f in fields(GameRules)
             if getattr(rules, f.name) != getattr(base, f.name)]
    if extra:
        out.append(f'; [Rules "{",".join(sorted(extra))}"]\n')
    if length and not crawford:
        out.append('; [Crawford "Off"]\n')
    if post:
        out.append('; [PostCrawford "On"]\n')
    for key, name in zip(("White", "Black"), names):
        _check_tag(key, name)
        out.append(f'; [{key} "{name}"]\n')
    for key, value in rtags.items():
        if key in _RULE_TAGS:
            continue
        _check_tag(key, value)
        out.append(f'; [{key} "{value}"]\n')
    out.append(f"\n {length} point match\n")
    w, b = start
    for k, g in enumerate(games, start=1):
        out.append(f"\n Game {k}\n Score {_num(w)}-{_num(b)}{' crawford' if g.crawford else ''}\n")
        out.append(_game_body(g))
        r = g.result()
        if r is not None:
            w += r.points_for(WHITE)
            b += r.points_for(BLACK)
    return "".join(out)


def _game_body(g: Any) -> str:
    from nardy.notation import format_move

    v = g.variant
    out: list[str] = []
    turn = 0
    rolled = None
    resumed = False   # a roll whose dice line is written: its move follows a declined resignation
    for a in g.history:
        k = a.kind
        if k == "opening":
            out.append(f"  opening {a.dice[0]}-{a.dice[1]}\n")
            continue
        if k == "roll":
            rolled = a
            continue
        if rolled is not None and k not in ("move", "pass"):
            turn += 1   # a roll, then a resignation: the dice alone
            out.append(f"{turn:3d}) {_NAME[rolled.player]} {rolled.dice[0]}{rolled.dice[1]}:\n")
            resumed = True
        rolled = None
        who = _NAME[a.player]
        if k in ("move", "pass"):
            text = "pass" if k == "pass" else format_move(a.move, v, a.player)
            if resumed:
                out.append(f"     {who} plays {text}\n")
            else:
                turn += 1
                out.append(f"{turn:3d}) {who} {a.dice[0]}{a.dice[1]}: {text}\n")
            resumed = False
        elif k == "resign":
            out.append(f"     {who} resigns {g.scoring.kinds[a.level - 1][0]}\n")
        elif k == "double":
            out.append(f"     {who} doubles\n")
        elif k in ("take", "drop", "beaver", "raccoon", "accept", "decline", "claim"):
            out.append(f"     {who} {k}s\n")
        else:  # pragma: no cover - every kind of Action is listed above
            raise InvalidRecordError(f"cannot write the action {k!r}")
    if rolled is not None:
        turn += 1
        out.append(f"{turn:3d}) {_NAME[rolled.player]} {rolled.dice[0]}{rolled.dice[1]}:\n")
    r = g.result()
    if r is not None:
        if r.winner is None:
            out.append(f" Result draw {_points(r.points)} each ({r.reason})\n")
        else:
            out.append(f" Result {_NAME[r.winner]} wins {r.kind} {_points(r.points)} "
                       f"({r.reason})\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------

_TURN_RE = re.compile(r"(\d+)\)\s+(white|black)\s+([1-6])([1-6]):(?:\s+(.*))?")
_ACT_RE = re.compile(r"(white|black)\s+(doubles|takes|drops|beavers|raccoons|accepts|declines"
                     r"|claims|resigns\s+(\S+)|plays\s+(.+))")
_RESULT_RE = re.compile(r"Result\s+(?:(white|black)\s+wins\s+(\S+)|draw)\s+(\d+(?:\.\d+)?)"
                        r"\s+points?(?:\s+each)?\s+\(([\w-]+)\)")


def read_record(text: str, rules: Any = None) -> MatchRecord:
    """Reads a nardy record and replays it (see the module doc). ``rules``: the
    :class:`~nardy.game.GameRules` (or dict) to play under instead of the header's. Raises
    :class:`~nardy.errors.InvalidRecordError`."""
    from nardy.formats.text import _parse_variant
    from nardy.game import GameRules

    if not isinstance(text, str):
        raise InvalidRecordError(f"nardy record: expected text, not {type(text).__name__}")
    _validate.text(text, "a nardy record", _validate.MAX_RECORD_CHARS, error=InvalidRecordError)
    lines = text.removeprefix("\ufeff").splitlines()
    tags: dict[str, str] = {}
    rows = _record_lines(lines)
    length = None
    for n, s, _ in rows:
        m = re.fullmatch(r';\s*\[([A-Za-z][A-Za-z0-9]*)\s+"([^"]*)"\]', s)
        if m:
            if m.group(1) in tags:
                raise _error(f"tag {m.group(1)!r} given twice", line=n)
            tags[m.group(1)] = m.group(2)
            continue
        m = re.fullmatch(r"(\d{1,4}) point match", s)
        if not m:
            raise _error(f"expected a '; [Tag \"value\"]' or 'N point match' line, got {s!r}",
                         line=n)
        length = int(m.group(1))
        break
    if length is None:
        raise _error("no 'N point match' line: not a nardy record")
    if "Variant" not in tags:
        raise _error("no Variant tag: a nardy record names its variant")
    try:
        variant = _parse_variant(tags["Variant"])
    except Error as e:
        raise _error(f"tag Variant: {e}") from None
    known = {f.name for f in fields(GameRules)}
    rule_kw: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in tags.get("Rules", "").split(","))):
        key, eq, value = part.partition("=")
        if not eq or key not in known or key in rule_kw:
            raise _error(f"tag Rules: {part!r} is not a game rule k=v given once; known: "
                         + ", ".join(sorted(known)))
        rule_kw[key] = _rule_value(value)
    flags = {}
    for key in ("Crawford", "PostCrawford"):
        value = tags.get(key, "On" if key == "Crawford" else "Off")
        if value not in ("On", "Off"):
            raise _error(f'tag {key}: expected "On" or "Off", got {value!r}')
        flags[key] = value == "On"

    games: list[tuple[list[_Event], tuple[float, float] | None]] = []
    cflags: list[bool] = []
    cur: list[_Event] | None = None
    need_score = False
    expect = 1
    for n, s, _ in rows:
        opened = _open_game(s, games, n)
        if opened is not None:
            cur, need_score, expect = opened, True, 1
            continue
        if cur is None:
            raise _error(f"expected 'Game 1', got {s!r}", line=n)
        k = len(games)
        if need_score:
            m = re.fullmatch(r"Score (\d+(?:\.5)?)-(\d+(?:\.5)?)( crawford)?", s)
            if not m:
                raise _error(f"expected 'Score W-B' (and ' crawford'), got {s!r}", k, line=n)
            games[-1] = (cur, (_score(m.group(1)), _score(m.group(2))))
            cflags.append(m.group(3) is not None)
            need_score = False
            continue
        if cur and cur[-1].kind == "result":
            raise _error(f"{s!r} after the result", k, line=n)
        m = re.fullmatch(r"opening ([1-6])-([1-6])", s)
        if m:
            cur.append(_Event("opening", WHITE, (int(m.group(1)), int(m.group(2))),
                              move_no=expect - 1, line=n))
            continue
        m = _TURN_RE.fullmatch(s)
        if m:
            if int(m.group(1)) != expect:
                raise _error(f"turn {m.group(1)}), expected {expect})", k, line=n)
            expect += 1
            dice = (int(m.group(3)), int(m.group(4)))
            body = (m.group(5) or "").strip()
            player = _COLORS[m.group(2)]
            if body == "pass":
                cur.append(_Event("move", player, dice, "", blank="dance", move_no=expect - 1,
                                  line=n))
            elif body:
                cur.append(_Event("move", player, dice, body, move_no=expect - 1, line=n,
                                  exact=True))
            else:
                cur.append(_Event("roll", player, dice, blank="unknown", move_no=expect - 1,
                                  line=n))
            continue
        m = _ACT_RE.fullmatch(s)
        if m:
            player = _COLORS[m.group(1)]
            word = m.group(2).split()[0]
            kind = {"doubles": "double", "takes": "take", "drops": "drop",
                    "beavers": "beaver", "raccoons": "raccoon", "accepts": "accept",
                    "declines": "decline", "claims": "claim", "resigns": "resign",
                    "plays": "play"}[word]
            cur.append(_Event(kind, player, text=m.group(3) or m.group(4), move_no=expect - 1,
                              line=n, exact=True))
            continue
        m = _RESULT_RE.fullmatch(s)
        if m:
            winner = None if m.group(1) is None else _COLORS[m.group(1)]
            cur.append(_Event("result", WHITE if winner is None else winner, text=m.group(2),
                              value=float(m.group(3)), reason=m.group(4), winner=winner,
                              move_no=max(expect - 1, 1), line=n))
            continue
        raise _error(f"cannot read {s!r}", k, line=n)
    if not games:
        raise _error("no games in the record")
    if need_score:
        raise _error("the last game has no score line", len(games))
    match = _replay(length, rule_kw, flags["Crawford"], rules, games, flags["PostCrawford"],
                    variant_cls=type(variant), variant=variant, numbered=True)
    for k, (g, flag) in enumerate(zip(match.games, cflags), start=1):
        if flag != g.crawford:
            raise _error("the score line says this is " + ("" if flag else "not ")
                         + "the Crawford game, the match says otherwise", k)
    info = {key: v for key, v in tags.items() if key not in _RULE_TAGS}
    return MatchRecord(match, (tags.get("White", "White"), tags.get("Black", "Black")), info)


def _score(text: str) -> float:
    x = float(text)
    return int(x) if x.is_integer() else x


# ---------------------------------------------------------------------------------------
# Conversion between formats
# ---------------------------------------------------------------------------------------

#: File extensions and their readers and writers.
FORMATS = {".mat": ("read_mat", "write_mat"), ".sgf": ("read_sgf", "write_sgf"),
           ".nardy": ("read_record", "write_record")}


def _codec(fmt: str, which: int) -> Any:
    import nardy.formats as F

    key = fmt if fmt.startswith(".") else "." + fmt
    if key.lower() not in FORMATS:
        raise InvalidRecordError(f"unknown record format {fmt!r}; known: "
                                 + ", ".join(sorted(FORMATS)))
    return getattr(F, FORMATS[key.lower()][which])


def convert_text(text: str, source_format: str, target_format: str) -> str:
    """A record's text in another format: ``source_format`` and ``target_format`` are
    ``mat``, ``sgf`` or ``nardy`` (or an extension, ``.mat``). Replayed in between, so a bad
    record raises InvalidRecordError, as does a match the target cannot hold."""
    return _codec(target_format, 1)(_codec(source_format, 0)(text))


def convert_record(source: str | Path, target: str | Path, *, source_format: str | None = None,
            target_format: str | None = None) -> MatchRecord:
    """Reads the record file ``source`` and writes it to ``target``, each format chosen by
    the file's extension (``.mat``, ``.sgf``, ``.nardy``) unless given. The record is
    replayed in between, so a bad source raises InvalidRecordError and writes nothing; a
    match the target cannot express (a long-nardy match as ``.mat``) raises it too. Returns
    the record read."""
    src, dst = Path(source), Path(target)
    reader = _codec(source_format or src.suffix, 0)
    writer = _codec(target_format or dst.suffix, 1)
    try:
        text = src.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidRecordError(f"{src}: cannot read: {e}") from None
    rec = reader(text)
    out = writer(rec)
    dst.write_text(out, encoding="utf-8")
    return rec
