"""The nardy text form: one line for a position or a game state, for every variant.

Like FEN for chess. Specified in ``docs/formats.md``; in short::

    backgammon W:24x2,13x5,8x3,6x5 B:24x2,13x5,8x3,6x5 w
    long-nardy[head_rule=classic] W:24x14,19 B:12x15 b dice=63
    backgammon W:bar,13x5,... B:... w dice=31 cube=2b match=7:2-4

Fields are separated by one space: the variant (with its rule options that differ from the
defaults, in brackets), white's checkers, black's checkers, the colour on roll, then optional
``key=value`` fields and flags in a fixed order. :func:`to_text` writes the canonical form;
:func:`from_text` reads it strictly (every malformed input raises
:class:`~nardy.errors.InvalidIdError` naming the field and what is wrong) and returns a
:class:`TextState`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from nardy import _validate
from nardy.errors import Error, InvalidIdError
from nardy.perft import LATE_TURN
from nardy.position import Position
from nardy.variants import BLACK, VARIANTS, WHITE, Variant

__all__ = ["TextState", "from_text", "to_text"]

_COLOR = {"w": WHITE, "b": BLACK}
_COLOR_LETTER = {WHITE: "w", BLACK: "b"}
_OFFERS = ("double", "beaver", "raccoon")
_FIELD_ORDER = ("opening", "dice", "carried", "cube", "offer", "passes", "turn", "starter", "lastroll",
                "over", "match", "crawford")
_FLAGS = ("opening", "lastroll", "crawford")
_NAME_RE = re.compile(r"^([a-z][a-z0-9-]*)(?:\[([^\[\]]*)\])?$")


def _bad(msg: str) -> InvalidIdError:
    return InvalidIdError(f"nardy text: {msg}")


# ---------------------------------------------------------------------------------------
# The state a text describes
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextState:
    """Everything a nardy text line carries.

    ``position`` (variant, checkers, colour on roll) is always there; the rest is the state of
    a game or match around it, each field ``None``/``False`` when absent:

    ``dice``        the roll to be played now (the player on roll has rolled)
    ``carried``     ``(die, left)``: dice the opponent's stopped cascade left the player on
                    roll, to be played now, before his own roll (Gul bara with
                    ``stopped_cascade="to-opponent"``); written as the dice, ``carried=33``
    ``cube``        the stake on the cube, when a cube is in play (None: cubeless rules or
                    the Crawford game); ``cube_owner`` the colour owning it (None: centred)
    ``offer``       a pending decision: ``"double"``, ``"beaver"``, ``"raccoon"`` or
                    ``"resign<level>"`` (the player on roll resigns at that level)
    ``passes``      Shlem: consecutive passed turns just before this one (the end rule)
    ``turn_number`` the turn number of the player on roll, where the variant's moves depend
                    on it (Gul bara's cascade; :attr:`Variant.turn_numbers_matter`)
    ``opening``     the game waits for its opening throw
    ``starter``     the colour that moved first (written where the long-nardy draw or the
                    turn count needs it)
    ``last_roll``   the long-nardy last roll of the draw rule is being played
    ``over``        the game is over: the winning colour, or ``"draw"``
    ``match_length``/``score``  the match (length 0 = money play) and (white, black) points
    ``crawford``    this is the Crawford game of the match
    """

    position: Position
    dice: tuple[int, int] | None = None
    carried: tuple[int, int] | None = None
    cube: int | None = None
    cube_owner: int | None = None
    offer: str | None = None
    passes: int | None = None
    turn_number: int | None = None
    opening: bool = False
    starter: int | None = None
    last_roll: bool = False
    over: int | str | None = None
    match_length: int | None = None
    score: tuple[float, float] | None = None
    crawford: bool = False

    def __post_init__(self) -> None:
        _validate_state(self)

    def to_text(self) -> str:
        return _format_state(self)

    def __str__(self) -> str:
        return _format_state(self)

    def to_game(self, rules: Any = None, seed: int | str | bytes | None = None,
                **rule_options: Any) -> Any:
        """A :class:`~nardy.game.Game` in this state, under ``rules`` (its history holds only
        what was needed to reach the state: the roll, a double or a resignation offer).

        Not rebuilt (InvalidIdError): a pending beaver or raccoon, and a game over by a drop
        or a resignation (the text keeps the final position, not how the game ended)."""
        return _state_to_game(self, rules, seed, rule_options)


# ---------------------------------------------------------------------------------------
# Variant and checkers
# ---------------------------------------------------------------------------------------


def _opt_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _variant_text(v: Variant) -> str:
    cls = type(v)
    opts = [(k, val) for k, val in sorted(v.rules.items()) if val != cls.options[k][0]]
    if not opts:
        return cls.name
    return cls.name + "[" + ",".join(f"{k}={_opt_text(val)}" for k, val in opts) + "]"


def _parse_variant(token: str) -> Variant:
    m = _NAME_RE.match(token)
    if not m:
        raise _bad(f"field 1 (variant): cannot read {token!r}; expected a name such as "
                   "'backgammon' or 'long-nardy[head_rule=classic]'")
    name, opts = m.group(1), m.group(2)
    classes = {cls.name: cls for cls in VARIANTS}
    if name not in classes:
        raise _bad(f"field 1 (variant): unknown variant {name!r}; known: "
                   + ", ".join(classes))
    cls = classes[name]
    rules: dict[str, Any] = {}
    if opts is not None:
        if not opts:
            raise _bad(f"field 1 (variant): empty option list in {token!r}")
        for part in opts.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key or not value:
                raise _bad(f"field 1 (variant): option {part!r} is not key=value")
            if key not in cls.options:
                raise _bad(f"field 1 (variant): {name} has no rule option {key!r}; known: "
                           + ", ".join(sorted(cls.options)))
            if key in rules:
                raise _bad(f"field 1 (variant): option {key!r} given twice")
            _, allowed = cls.options[key]
            choices = {_opt_text(a): a for a in allowed}
            if value not in choices:
                raise _bad(f"field 1 (variant): {key}={value!r} is not one of "
                           + ", ".join(choices))
            rules[key] = choices[value]
    try:
        return cls(**rules)
    except Error as e:  # pragma: no cover - options were checked above
        raise _bad(f"field 1 (variant): {e}") from None


def _specials(v: Variant) -> tuple[str | None, str]:
    """Names of side index 24 and 25 for the variant."""
    return v.side_places


def _side_text(v: Variant, side: tuple[int, ...], color: int) -> str:
    s24, s25 = _specials(v)
    items: list[str] = []

    def add(name: str, n: int) -> None:
        items.append(name if n == 1 else f"{name}x{n}")

    if side[24]:
        add(s24 or "bar", side[24])
    for i in range(23, -1, -1):
        n = side[i]
        if n == -1:
            items.append(v.point_name(i, color) + "p")
        elif n:
            add(v.point_name(i, color), n)
    if side[25] < 0 and v.reserve_place:
        add(v.reserve_place, -side[25])
    elif side[25]:
        add(s25, side[25])
    return ",".join(items) if items else "-"


def _parse_side(v: Variant, token: str, color: int, field: int) -> list[int]:
    who = "white" if color == WHITE else "black"
    prefix = "W:" if color == WHITE else "B:"
    where = f"field {field} ({who}'s checkers)"
    if not token.startswith(prefix):
        raise _bad(f"{where}: must start with {prefix!r}, got {token!r}")
    body = token[len(prefix):]
    if not body:
        raise _bad(f"{where}: no checkers listed (write '-' for none)")
    side = [0] * 26
    if body == "-":
        return side
    s24, s25 = _specials(v)
    names = {v.point_name(i, color): i for i in range(24)}
    if s24:
        names[s24] = 24
    names[s25] = 25
    if v.reserve_place:
        names[v.reserve_place] = 26  # stored as -n in slot 25
    prisoners = v.prisoners
    seen: set[int] = set()
    for item in body.split(","):
        if not item:
            raise _bad(f"{where}: empty item in {body!r} (stray comma)")
        place, x, count = item.partition("x")
        prisoner = False
        if place not in names and prisoners and place.endswith("p") and place[:-1] in names \
                and names[place[:-1]] < 24:
            place, prisoner = place[:-1], True
        if place not in names:
            known = "point names " + ", ".join(sorted(n for n, i in names.items() if i < 24)) \
                + ", " + ", ".join(n for n, i in names.items() if i >= 24)
            raise _bad(f"{where}: {item!r}: {place!r} is not a place of {v.name}; expected {known}")
        if x:
            if not (count.isascii() and count.isdigit()) or count.startswith("0"):
                raise _bad(f"{where}: {item!r}: count {count!r} is not a number "
                           f"2..{v.checkers}")
            n = int(count)
            if n == 1:
                raise _bad(f"{where}: {item!r}: write a single checker without 'x1'")
            if not 2 <= n <= v.checkers:
                raise _bad(f"{where}: {item!r}: count {n} is not 2..{v.checkers}")
            if prisoner:
                raise _bad(f"{where}: {item!r}: a prisoner point holds exactly one prisoner")
        else:
            n = 1
        idx = names[place]
        if idx in seen:
            raise _bad(f"{where}: {place!r} listed twice")
        seen.add(idx)
        if idx == 26:
            if 25 in seen:
                raise _bad(f"{where}: checkers still to enter and borne off together")
            side[25] = -n
            seen.add(25)
            continue
        side[idx] = -1 if prisoner else n
    total = sum(abs(n) for n in side)
    if total != v.checkers:
        raise _bad(f"{where}: {total} checkers listed; every side has {v.checkers} (list the "
                   f"{s25!r} ones too)")
    return side


def _position_text(p: Position) -> str:
    v = p.variant
    return " ".join([
        _variant_text(v),
        "W:" + _side_text(v, p.side(WHITE), WHITE),
        "B:" + _side_text(v, p.side(BLACK), BLACK),
        _COLOR_LETTER[p.turn],
    ])


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------


def _num(x: float) -> str:
    if float(x).is_integer():
        return str(int(x))
    return repr(float(x))


def _format_state(s: TextState) -> str:
    parts = [_position_text(s.position)]
    if s.opening:
        parts.append("opening")
    if s.dice is not None:
        parts.append(f"dice={s.dice[0]}{s.dice[1]}")
    if s.carried is not None:
        parts.append(f"carried={str(s.carried[0]) * s.carried[1]}")
    if s.cube is not None:
        parts.append(f"cube={s.cube}" + ("" if s.cube_owner is None else _COLOR_LETTER[s.cube_owner]))
    if s.offer is not None:
        parts.append(f"offer={s.offer}")
    if s.passes is not None:
        parts.append(f"passes={s.passes}")
    if s.turn_number is not None:
        parts.append(f"turn={s.turn_number}")
    if s.starter is not None:
        parts.append(f"starter={_COLOR_LETTER[s.starter]}")
    if s.last_roll:
        parts.append("lastroll")
    if s.over is not None:
        parts.append("over=" + (s.over if s.over == "draw" else _COLOR_LETTER[s.over]))  # type: ignore[index]
    if s.match_length is not None:
        assert s.score is not None
        parts.append(f"match={s.match_length}:{_num(s.score[0])}-{_num(s.score[1])}")
    if s.crawford:
        parts.append("crawford")
    return " ".join(parts)


def _validate_state(s: TextState) -> None:
    """Consistency of the fields (raises InvalidIdError); shared by the parser and by
    TextState's constructor."""
    if not isinstance(s.position, Position):
        raise _bad(f"position must be a Position, not {type(s.position).__name__}")
    # Flags and colours are kept as plain bools and ints (np.bool_(True) and np.int64(1) are
    # read as True and 1; 1 is not a flag, True is not a colour).
    set_ = object.__setattr__
    for name in ("opening", "last_roll", "crawford"):
        set_(s, name, _validate.boolean(getattr(s, name), name, error=InvalidIdError))
    for name in ("starter", "cube_owner"):
        set_(s, name, _validate.color(getattr(s, name), name, error=InvalidIdError, none=True))
    if s.over is not None and not (isinstance(s.over, str) and s.over == "draw"):
        if isinstance(s.over, str) or not _validate.is_int(s.over):
            raise _bad(f"over must be WHITE, BLACK or 'draw', got {_validate.show(s.over)}")
        set_(s, "over", _validate.color(s.over, "over", error=InvalidIdError))
    if s.offer is not None and not isinstance(s.offer, str):
        raise _bad(f"offer must be text (double, beaver, raccoon, resign1..resign9), got "
                   f"{_validate.show(s.offer)}")
    if s.dice is not None:
        d = s.dice
        if (not isinstance(d, tuple) or len(d) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in d)):
            raise _bad(f"dice must be two numbers 1..6, got {d!r}")
    if s.carried is not None:
        c = s.carried
        if (not isinstance(c, tuple) or len(c) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in c)
                or not 1 <= c[0] <= 6 or not 1 <= c[1] <= 4):
            raise _bad(f"carried must be (die 1..6, dice left 1..4), got {c!r}")
        if not s.position.variant.carries_dice:
            raise _bad(f"carried= is state of variants that pass a stopped cascade's dice to "
                       f"the opponent (Gul bara with stopped_cascade='to-opponent'); "
                       f"{s.position.variant!r} does not")
        for name in ("dice", "offer", "over"):
            if getattr(s, name) is not None:
                raise _bad(f"carried: the carried dice are played before the roll, no {name} "
                           f"with them")
        if s.opening:
            raise _bad("carried: no carried dice at the opening")
    if s.cube is not None and (not isinstance(s.cube, int) or isinstance(s.cube, bool)
                               or s.cube < 1):
        raise _bad(f"cube value must be a number >= 1, got {s.cube!r}")
    if s.cube_owner is not None:
        if s.cube is None:
            raise _bad("a cube owner without a cube")
        if s.cube_owner not in (WHITE, BLACK):
            raise _bad(f"cube owner must be WHITE or BLACK, got {s.cube_owner!r}")
    if s.offer is not None:
        ok = s.offer in _OFFERS or (
            isinstance(s.offer, str) and re.fullmatch(r"resign[1-9]", s.offer) is not None)
        if not ok:
            raise _bad(f"offer must be double, beaver, raccoon or resign1..resign9, got {s.offer!r}")
        if s.offer in _OFFERS:
            if s.cube is None:
                raise _bad(f"offer={s.offer} needs a cube in play")
            if s.dice is not None:
                raise _bad(f"offer={s.offer} comes before the roll; no dice with it")
    if s.passes is not None:
        if not s.position.variant.counts_passes:
            raise _bad(f"passes= is state of variants whose end rules count passed turns "
                       f"(Shlem); {s.position.variant.name} has no pass rule")
        if not isinstance(s.passes, int) or isinstance(s.passes, bool) or not 0 <= s.passes <= 99:
            raise _bad(f"passes must be a number 0..99, got {s.passes!r}")
    if s.turn_number is not None:
        if not s.position.variant.turn_numbers_matter:
            raise _bad(f"turn= is state of variants whose moves depend on the turn number "
                       f"(Gul bara's cascade); {s.position.variant!r}'s do not")
        if (not isinstance(s.turn_number, int) or isinstance(s.turn_number, bool)
                or not 1 <= s.turn_number < LATE_TURN):
            raise _bad(f"turn must be a number 1..{LATE_TURN - 1}, got {s.turn_number!r}")
    if s.opening:
        if s.turn_number is not None:
            raise _bad("opening: the game has not started, no turn= before the opening throw")
        if s.position.turn != WHITE or s.position != Position.start(s.position.variant):
            raise _bad("opening: the position must be the starting position with 'w'")
        for name in ("dice", "offer", "starter", "over"):
            if getattr(s, name) is not None:
                raise _bad(f"opening: no {name} before the opening throw")
        if s.last_roll:
            raise _bad("opening: no last roll before the opening throw")
    if s.starter is not None and s.starter not in (WHITE, BLACK):
        raise _bad(f"starter must be WHITE or BLACK, got {s.starter!r}")
    if s.last_roll and s.offer in _OFFERS:
        raise _bad("no cube action on the last roll")
    if s.over is not None:
        if s.over not in (WHITE, BLACK, "draw"):
            raise _bad(f"over must be WHITE, BLACK or 'draw', got {s.over!r}")
        if s.dice is not None or s.offer is not None or s.last_roll:
            raise _bad("over: a finished game has no dice, offer or last roll")
    if (s.match_length is None) != (s.score is None):
        raise _bad("match length and score go together")
    if s.match_length is not None:
        if not isinstance(s.match_length, int) or isinstance(s.match_length, bool) \
                or not 0 <= s.match_length <= 9999:
            raise _bad(f"match length must be 0..9999, got {s.match_length!r}")
        sc = s.score
        if (not isinstance(sc, tuple) or len(sc) != 2 or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0
                and float(2 * x).is_integer() for x in sc)):
            raise _bad(f"score must be two numbers >= 0 (halves allowed), got {sc!r}")
    if s.crawford:
        if not s.match_length:
            raise _bad("crawford: only in a match of fixed length (match=N:..., N > 0)")
        if s.cube is not None or s.offer in _OFFERS:
            raise _bad("crawford: the Crawford game has no cube")


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------


def _parse_color(value: str, what: str) -> int:
    if value not in _COLOR:
        raise _bad(f"{what}: expected 'w' or 'b', got {value!r}")
    return _COLOR[value]


def _parse_score(value: str) -> float:
    m = re.fullmatch(r"(0|[1-9]\d{0,4})(\.5)?", value)
    if not m:
        raise _bad(f"match=: score {value!r} is not a number (halves as .5)")
    return int(m.group(1)) + (0.5 if m.group(2) else 0)


def from_text(text: str) -> TextState:
    """Reads a nardy text line (see ``docs/formats.md``). Raises
    :class:`~nardy.errors.InvalidIdError` for anything malformed or impossible."""
    if not isinstance(text, str):
        raise _bad(f"expected a string, not {type(text).__name__}")
    _validate.text(text, "a nardy text line", _validate.MAX_ID_CHARS, error=InvalidIdError)
    if text != text.strip() or "  " in text or "\t" in text or "\n" in text:
        raise _bad("fields are separated by single spaces, without leading or trailing "
                   "white space")
    tokens = text.split(" ")
    if len(tokens) < 4:
        raise _bad(f"expected at least 4 fields (variant, W:..., B:..., turn), got {len(tokens)}")
    variant = _parse_variant(tokens[0])
    white = _parse_side(variant, tokens[1], WHITE, 2)
    black = _parse_side(variant, tokens[2], BLACK, 3)
    turn = _parse_color(tokens[3], "field 4 (colour on roll)")
    try:
        position = Position.from_colors(variant, white, black, turn)
    except Error as e:
        raise _bad(f"impossible position: {e}") from None

    fields: dict[str, str | None] = {}
    for k, tok in enumerate(tokens[4:], start=5):
        key, eq, value = tok.partition("=")
        if key not in _FIELD_ORDER:
            raise _bad(f"field {k}: unknown field {key!r}; known: " + ", ".join(_FIELD_ORDER))
        if key in fields:
            raise _bad(f"field {k}: {key} given twice")
        if key in _FLAGS and eq:
            raise _bad(f"field {k}: {key} is a flag, without '='")
        if key not in _FLAGS and (not eq or not value):
            raise _bad(f"field {k}: {key} needs a value ({key}=...)")
        fields[key] = value if eq else None

    kw: dict[str, Any] = {}
    if "dice" in fields:
        v = fields["dice"]
        if not re.fullmatch(r"[1-6][1-6]", v or ""):
            raise _bad(f"dice={v}: expected two digits 1..6, e.g. dice=31")
        kw["dice"] = (int(v[0]), int(v[1]))  # type: ignore[index]
    if "carried" in fields:
        v = fields["carried"] or ""
        if not re.fullmatch(r"([1-6])\1{0,3}", v):
            raise _bad(f"carried={v}: expected the dice left, one to four of the same, "
                       f"e.g. carried=33")
        kw["carried"] = (int(v[0]), len(v))
    if "cube" in fields:
        v = fields["cube"] or ""
        m = re.fullmatch(r"([1-9]\d{0,5})([wb]?)", v)
        if not m:
            raise _bad(f"cube={v}: expected the stake and an optional owner, e.g. cube=1, cube=2w")
        kw["cube"] = int(m.group(1))
        if m.group(2):
            kw["cube_owner"] = _COLOR[m.group(2)]
    if "offer" in fields:
        kw["offer"] = fields["offer"]
    if "passes" in fields:
        v = fields["passes"] or ""
        if not re.fullmatch(r"0|[1-9]\d?", v):
            raise _bad(f"passes={v}: expected a number 0..99")
        kw["passes"] = int(v)
    if "turn" in fields:
        v = fields["turn"] or ""
        if not re.fullmatch(r"[1-9]\d{0,6}", v):
            raise _bad(f"turn={v}: expected a turn number 1, 2, ...")
        kw["turn_number"] = int(v)
    if "starter" in fields:
        kw["starter"] = _parse_color(fields["starter"] or "", "starter=")
    if "over" in fields:
        v = fields["over"] or ""
        kw["over"] = "draw" if v == "draw" else _parse_color(v, "over= (w, b or draw)")
    if "match" in fields:
        v = fields["match"] or ""
        m = re.fullmatch(r"(0|[1-9]\d{0,3}):([^-]+)-(.+)", v)
        if not m:
            raise _bad(f"match={v}: expected length:white-black, e.g. match=7:2-4")
        kw["match_length"] = int(m.group(1))
        kw["score"] = (_parse_score(m.group(2)), _parse_score(m.group(3)))
    kw["opening"] = "opening" in fields
    kw["last_roll"] = "lastroll" in fields
    kw["crawford"] = "crawford" in fields
    return TextState(position, **kw)


# ---------------------------------------------------------------------------------------
# Objects -> state
# ---------------------------------------------------------------------------------------


def _game_state(game: Any, **extra: Any) -> TextState:
    from nardy.game import Phase

    phase = game.phase
    kw: dict[str, Any] = {}
    if phase is Phase.OPENING:
        kw["opening"] = True
    if getattr(game, "carried", None) is not None:
        kw["carried"] = game.carried
    elif game.dice is not None and phase is not Phase.OVER:
        kw["dice"] = tuple(game.dice)
    if game.cube_in_play:
        kw["cube"] = game.cube_value
        kw["cube_owner"] = game.cube_owner
    offer = {Phase.DOUBLED: "double", Phase.BEAVERED: "beaver",
             Phase.RACCOONED: "raccoon"}.get(phase)
    if phase is Phase.RESIGNED:
        by, level = game.pending_resignation
        if by != game.turn:  # offer=resignN is the player on roll's; refuse, not misstate
            raise _bad("the text form has no resignation offered by the player not on roll")
        offer = f"resign{level}"
    if offer:
        kw["offer"] = offer
    passes = getattr(game, "passes", None)
    if game.variant.counts_passes and isinstance(passes, int):
        kw["passes"] = passes
    counts_turns = (game.variant.turn_numbers_matter and phase is not Phase.OPENING
                    and game.turn_number < LATE_TURN)
    if counts_turns:
        kw["turn_number"] = game.turn_number
    # the starter says whose turns come first: the opponent of a second roller on roll is a
    # turn ahead of him
    if ((game.rules.last_roll_draw or counts_turns) and game.starter is not None
            and phase is not Phase.OPENING):
        kw["starter"] = game.starter
    if game.is_last_roll and phase is not Phase.OVER:
        kw["last_roll"] = True
    if phase is Phase.OVER:
        w = game.winner()
        kw["over"] = "draw" if w is None else w
    kw.update(extra)
    return TextState(game.position, **kw)


def to_text(obj: Any, *, dice: tuple[int, int] | None = None,
            passes: int | None = None) -> str:
    """The canonical nardy text of a :class:`Position` (with ``dice`` to be played and, for
    Shlem, ``passes``), a :class:`~nardy.game.Game`, a :class:`~nardy.match.Match` (its current
    game plus the score) or a :class:`TextState`."""
    from nardy.game import Game
    from nardy.match import Match

    if isinstance(obj, Position):
        pair = None if dice is None else (int(dice[0]), int(dice[1]))
        return _format_state(TextState(obj, dice=pair, passes=passes))
    if dice is not None or passes is not None:
        raise InvalidIdError("nardy text: dice= and passes= are for positions; games and "
                             "matches carry their own")
    if isinstance(obj, TextState):
        return _format_state(obj)
    if isinstance(obj, Game):
        return _format_state(_game_state(obj))
    if isinstance(obj, Match):
        score = obj.score
        return _format_state(_game_state(
            obj.game, match_length=obj.length, score=(score[0], score[1]),
            crawford=obj.is_crawford))
    raise InvalidIdError(f"nardy text: cannot write a {type(obj).__name__}")


# ---------------------------------------------------------------------------------------
# State -> game
# ---------------------------------------------------------------------------------------


def _state_to_game(s: TextState, rules: Any, seed: Any, rule_options: dict[str, Any]) -> Any:
    from nardy.game import Game, GameRules, Phase

    if s.offer in ("beaver", "raccoon"):
        raise _bad(f"cannot rebuild a game with a pending {s.offer}")
    setup: dict[str, Any] = {}
    if s.cube is not None:
        try:
            game_rules = GameRules.make(rules, s.position.variant, **rule_options)
        except Error as e:
            raise _bad(f"cannot make a game of this state: {e}") from None
        level = game_rules.level_of(s.cube)
        if level is None:
            raise _bad(f"cube={s.cube} is not a stake of these rules ({game_rules.stakes})")
        if level:
            setup = {"cube_level": level, "cube_owner": s.cube_owner}
    if s.last_roll:
        setup["last_roll"] = True
    try:
        if s.opening:
            g = Game(s.position.variant, rules, seed, crawford=s.crawford, **setup,
                     **rule_options)
        else:
            g = Game(s.position.variant, rules, seed, position=s.position, starter=s.starter,
                     crawford=s.crawford, passes=s.passes or 0, turn_number=s.turn_number,
                     carried=s.carried,
                     **setup, **rule_options)
    except Error as e:
        raise _bad(f"cannot make a game of this state: {e}") from None
    if g.cube_in_play != (s.cube is not None):
        raise _bad("the text has " + ("a cube" if s.cube is not None else "no cube")
                   + " but these rules " + ("do not use one" if s.cube is not None
                                            else "put one in play"))
    if s.over is not None:
        if g.phase is not Phase.OVER or g.winner() != (None if s.over == "draw" else s.over):
            raise _bad("over=: only a game won by bearing off can be rebuilt from its text "
                       "(how a drop or resignation ended it is not in the text)")
        return g
    if g.phase is Phase.OVER:
        winner = g.winner()
        assert winner is not None  # a finished game has a winner here (draws end elsewhere)
        raise _bad("the position is a finished game: add over=" + _COLOR_LETTER[winner])
    try:
        if s.dice is not None:
            g.roll(s.dice)
        if s.offer == "double":
            g.double()
        elif s.offer is not None:
            g.resign(int(s.offer[len("resign"):]))
    except Error as e:
        raise _bad(f"cannot reach this state: {e}") from None
    return g
