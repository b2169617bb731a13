"""Jellyfish/gnubg ``.mat`` match records: :func:`write_mat` and :func:`read_mat`.

The ``.mat`` export of Jellyfish and GNU Backgammon (``N point match``, ``Game 1``, the score
line, numbered moves ``31: 8/5 6/5`` in two columns, ``Doubles => 2``, ``Takes``, ``Drops``,
``Wins 2 points``), written in gnubg's exact layout, read in the dialects of other programs.
Details: ``docs/formats.md``.
"""

from __future__ import annotations

import re
from typing import Any

from nardy import _validate
from nardy.errors import InvalidRecordError
from nardy.formats._replay import (
    BLACK, MatchRecord, WHITE, _as_match, _dice_text, _error, _Event, _game_events, _game_scores,
    _games_of, _gnubg_variant, _move_text, _open_game, _parse_rules_tag, _record_lines, _replay,
    _rules_tag, _start_of,
)

__all__ = ["read_mat", "write_mat"]

#: Tags of the .mat header that carry rules, not information.
_MAT_RULE_TAGS = ("Variation", "Crawford", "PostCrawford", "Jacoby", "Beaver", "CubeLimit",
                  "Rules")
_MAT_SKIP_RULES = ("jacoby", "beaver", "max_cube")


def _points(n: float) -> str:
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
        # an empty name is written as nothing before the " : "; a colon would blur the score
        if not isinstance(name, str) or "\n" in name or ":" in name or name != name.strip():
            raise InvalidRecordError(f"player name {name!r} cannot be written in .mat")
    length, games, rules, crawford = _games_of(obj)
    start, post_crawford = _start_of(obj)
    out: list[str] = []
    comment = rtags.pop("Comment", None)
    for key, value in rtags.items():
        if key in _MAT_RULE_TAGS:
            continue
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 ]*", key) or "\n" in value or '"' in value:
            raise InvalidRecordError(f"tag {key!r}: {value!r} cannot be written in .mat")
        out.append(f'; [{key} "{value}"]\n')
    vname = games[0].variant.name
    if vname != "backgammon":
        out.append(f'; [Variation "{vname.capitalize()}"]\n')
    if length and not crawford:
        out.append('; [Crawford "Off"]\n')
    if post_crawford:
        out.append('; [PostCrawford "On"]\n')
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
    for k, (g, score) in enumerate(zip(games, _game_scores(length, games, start)), start=1):
        events, _, _ = _game_events(g, sgf=False)
        out.append(f" Game {k}\n")
        left = f"{names[0]} : {score[0]}"
        out.append(f" {left:<30} {names[1]} : {score[1]}\n")  # a space even after a long name
        out.append(_mat_game_body(events))
    text = "".join(out)
    return text if text.endswith("\n") else text + "\n"


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
    r"|(?P<win>Wins\s+(?P<wv>\d+)\s+points?(?P<wm>\s+and\s+the\s+match)?)"
    r"|(?P<loss>Losses\s+(?P<lv>\d+)\s+points?)")
_STEP_RE = re.compile(r"^(?:bar|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+(?:\([1-4]\))?$",
                      re.IGNORECASE)
#: What other programs write after the dice instead of a move: a dance, or a roll after
#: which the player resigned (the move was never made).
_BLANKS = {"cannot move": "dance", "????": "unknown", "???": "unknown"}


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
            d = m.group("dice")
            blank = _BLANKS.get(" ".join(body.split()).lower())
            if blank is not None:
                cells.append(_Event("move", player, (int(d[0]), int(d[1])), "", blank=blank,
                                    line=lineno))
                continue
            tokens = body.split()
            for tok in tokens:
                if not _STEP_RE.match(tok):
                    raise _error(f"{d} {body}: cannot read {tok!r} as a "
                                 "checker move (from/to)", line=lineno)
            cells.append(_Event("move", player, (int(d[0]), int(d[1])),
                                _move_text([t.lower() for t in tokens]), line=lineno))
        else:
            if body:
                raise _error(f"cannot read {body!r} after {m.group(0)!r}", line=lineno)
            if m.group("double"):
                cells.append(_Event("double", player, value=int(m.group("dv")), line=lineno))
            elif m.group("take"):
                cells.append(_Event("take", player, line=lineno))
            elif m.group("drop"):
                cells.append(_Event("drop", player, line=lineno))
            elif m.group("loss"):
                cells.append(_Event("loss", player, value=int(m.group("lv")), line=lineno))
            else:
                cells.append(_Event("win", player, value=int(m.group("wv")),
                                    capped=m.group("wm") is not None, line=lineno,
                                    col=m.start()))
    return cells


def _drop_losses(events: list[_Event], k: int) -> list[_Event]:
    """BackgammonGalaxy writes ``Losses N points`` in the loser's column before the winner's
    ``Wins N points``: checked against that win, then left out."""
    out = []
    for j, ev in enumerate(events):
        if ev.kind != "loss":
            out.append(ev)
            continue
        nxt = events[j + 1] if j + 1 < len(events) else None
        if nxt is None or nxt.kind != "win" or nxt.player == ev.player:
            raise _error(f"'Losses {ev.value}' must be followed by the other player's 'Wins'",
                         k, line=ev.line)
        if nxt.value != ev.value and not nxt.capped:
            raise _error(f"'Losses {ev.value}', but 'Wins {nxt.value}'", k, line=ev.line)
    return out


def read_mat(text: str, rules: Any = None) -> MatchRecord:
    """Reads ``.mat`` text and replays it (see the module doc). ``rules``: the
    :class:`~nardy.game.GameRules` (or dict) to play under, instead of those the header tags
    give. Raises :class:`~nardy.errors.InvalidRecordError`."""
    if not isinstance(text, str):
        raise InvalidRecordError(f".mat: expected text, not {type(text).__name__}")
    _validate.text(text, "a .mat record", _validate.MAX_RECORD_CHARS, error=InvalidRecordError)
    lines = text.removeprefix("\ufeff").splitlines()
    rows = _record_lines(lines)
    tags: dict[str, str] = {}
    length = None
    for n, s, _ in rows:
        if s.startswith("#"):
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
    post_crawford: bool | None = None
    variant_cls = _gnubg_variant(tags.get("Variation", "Standard"), "variation")
    for key, value in tags.items():
        low = value.strip().lower()
        if key == "Variation":
            continue
        elif key in ("Crawford", "PostCrawford", "Jacoby", "Beaver"):
            if low not in ("on", "off"):
                raise _error(f'tag {key}: expected "On" or "Off", got {value!r}')
            if key == "Crawford":
                crawford = low == "on"
            elif key == "PostCrawford":
                post_crawford = low == "on"
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
            rule_kw.update(_parse_rules_tag(value, "tag Rules", variant_cls))
    info = {k: v for k, v in tags.items() if k not in _MAT_RULE_TAGS}

    games: list[tuple[list[_Event], tuple[int, int] | None]] = []
    names: tuple[str, str] | None = None
    expect_no = 1
    cur: list[_Event] | None = None
    need_score = False
    for n, s, raw in rows:
        opened = _open_game(s, games, n)
        if opened is not None:
            cur, need_score, expect_no = opened, True, 1
            continue
        if cur is None:
            raise _error(f"expected 'Game 1', got {s!r}", line=n)
        if need_score:
            # names may be empty; gnubg glues the second name to the first score when the
            # first "name : score" fills its 31 columns
            m = re.fullmatch(r"(.*?)\s*:\s*(\d+)(?:\s+|(?=\D))(.*?)\s*:\s*(\d+)", s)
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
            if not cells or any(c.kind not in ("win", "loss") for c in cells):
                raise _error(f"cannot read {s!r}", len(games), line=n)
        cur.extend(cells)
    if not games:
        raise _error("no games in the record")
    if need_score:
        raise _error("the last game has no score line", len(games))
    # A "Wins" cell is a result, never a move: one per game, at the end.
    games = [(_drop_losses(events, k), score)
             for k, (events, score) in enumerate(games, start=1)]
    for k, (events, _) in enumerate(games, start=1):
        for j, ev in enumerate(events):
            if ev.kind == "win" and j != len(events) - 1:
                raise _error("something follows 'Wins' in this game", k, line=events[j + 1].line)
    match = _replay(length, rule_kw, crawford, rules, games, post_crawford, variant_cls)
    return MatchRecord(match, names or ("White", "Black"), info)


