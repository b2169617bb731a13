"""SGF backgammon (``GM[6]``) match records: :func:`write_sgf` and :func:`read_sgf`.

One game tree per game as gnubg saves a match: ``W[31hefe]`` moves with points ``a``..``x``,
``y`` bar, ``z`` off, ``double`` / ``take`` / ``drop``, match information in ``MI``, result in
``RE``. Details: ``docs/formats.md``.
"""

from __future__ import annotations

import re
from typing import Any

from nardy import _validate
from nardy.errors import Error, InvalidRecordError
from nardy.formats._replay import (
    BLACK, MatchRecord, WHITE, _as_match, _dice_text, _error, _Event, _game_events,
    _game_scores, _games_of, _gnubg_variant, _make_match, _number, _parse_rules_tag, _replay_game,
    _rules_tag, _start_of,
)

from nardy.variants import Backgammon

__all__ = ["read_sgf", "write_sgf"]

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
    start, post_crawford = _start_of(obj)
    out: list[str] = []
    extra = _rules_tag(games[0].variant, rules, _SGF_SKIP_RULES)
    if games[0].variant.name != "backgammon":   # nardy's NR names another gnubg variant
        extra = ",".join(filter(None, (f"variant={games[0].variant.name}", extra)))
    for k, (g, score) in enumerate(zip(games, _game_scores(length, games, start))):
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
    _validate.text(text, "an SGF record", _validate.MAX_RECORD_CHARS, error=InvalidRecordError)
    trees = _SgfParser(text.removeprefix("\ufeff")).collection()
    games: list[tuple[list[_Event], tuple[int, int] | None]] = []
    length = None
    names = None
    tags: dict[str, str] = {}
    rule_kw: dict[str, Any] = {}
    crawford = False
    variant_cls: Any = Backgammon
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
        pw, pb = one("PW"), one("PB")
        pair = ("White" if pw is None else pw, "Black" if pb is None else pb)
        if names is None:
            names = pair
        elif pair != names:
            raise _error(f"SGF root: players {pair}, game 1 has {names}", k)
        ru: str = one("RU") or ""
        if k == 1:
            crawford = ru.split(":")[0].strip().lower() == "crawford"
            if ru.strip().lower() == "jacoby":
                rule_kw["jacoby"] = True
            nr = one("NR") or ""
            parts = [p for p in nr.split(",") if p.strip()]
            named = [p for p in parts if p.strip().startswith("variant=")]
            if len(named) > 1:
                raise _error("SGF NR: variant= given twice", k)
            if named:
                variant_cls = _gnubg_variant(named[0].split("=", 1)[1], "SGF NR variant")
            rule_kw.update(_parse_rules_tag(",".join(p for p in parts if p not in named),
                                            "SGF NR", variant_cls))
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
    start = games[0][1]
    post = bool(crawford and length and start is not None and max(start) == length - 1
                and not cgames[0])
    match = _make_match(length, rule_kw, crawford, rules, start, post, variant_cls)
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

