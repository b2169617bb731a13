"""JSON forms (plain dicts) of nardy objects: ``to_json(obj) -> dict`` and ``from_json(d)``.

Every top-level dict carries ``"format": "nardy/1"`` and a ``"type"``: ``position``,
``move``, ``legal_moves``, ``variant``, ``game_rules``, ``game`` or ``match``. The dicts hold
only JSON types (str, int, float, bool, None, list, dict), so ``json.dumps`` takes them as
they are. Reading is strict: a missing or unknown key, a wrong type or an impossible value
raises :class:`~nardy.errors.InvalidRecordError` whose message starts with the path of the
offending value (``$.history[3].move``). Games and matches are rebuilt by replaying their
history through the game API, so an illegal move in a JSON game is refused like any other.
The layout is specified in ``docs/formats.md``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from nardy._validate import show as _show
from nardy.errors import Error, InvalidRecordError
from nardy.notation import MAX_STEPS
from nardy.position import BAR, OFF, LegalMoves, Move, Position
from nardy.variants import BLACK, VARIANTS, WHITE, Variant

__all__ = ["FORMAT", "from_json", "to_json"]

#: The version tag of every top-level dict.
FORMAT = "nardy/1"

_COLORS = {"white": WHITE, "black": BLACK}
_COLOR_NAMES = {WHITE: "white", BLACK: "black"}


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------


def _variant_json(v: Variant) -> dict[str, Any]:
    return {"name": type(v).name, "rules": dict(sorted(v.rules.items()))}


def _board_json(p: Position) -> dict[str, Any]:
    return {"turn": _COLOR_NAMES[p.turn], "white": list(p.side(WHITE)),
            "black": list(p.side(BLACK))}


def _move_json(m: Move) -> list[list[Any]]:
    return [[s.from_, s.to, s.hit] for s in m.steps]


def _rules_json(r: Any) -> dict[str, Any]:
    return {f.name: getattr(r, f.name) for f in fields(r)}


def _seed_json(seed: Any) -> Any:
    if isinstance(seed, bytes):
        return {"bytes": seed.hex()}
    return seed


def _action_json(a: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": a.kind}
    if a.player is not None:
        d["player"] = _COLOR_NAMES[a.player]
    if a.dice is not None:
        d["dice"] = list(a.dice)
    if a.move is not None:
        d["move"] = _move_json(a.move)
        if a.move.named:
            d["named"] = a.move.named
    if a.level is not None:
        d["level"] = a.level
    return d


def _result_json(r: Any) -> dict[str, Any] | None:
    if r is None:
        return None
    return {"winner": None if r.winner is None else _COLOR_NAMES[r.winner], "reason": r.reason,
            "kind": r.kind, "value": r.value, "counted": r.counted, "cube": r.cube,
            "points": r.points}


def _game_body(g: Any) -> dict[str, Any]:
    return {
        "history": [_action_json(a) for a in g.history],
        "position": _board_json(g.position),
        "phase": str(g.phase),
        "result": _result_json(g.result()),
    }


def to_json(obj: Any) -> dict[str, Any]:
    """The JSON dict of a :class:`Position`, :class:`Move`, :class:`LegalMoves`,
    :class:`Variant`, :class:`~nardy.game.GameRules`, :class:`~nardy.game.Game` or
    :class:`~nardy.match.Match`."""
    from nardy.game import Game, GameRules
    from nardy.match import Match

    head = {"format": FORMAT}
    if isinstance(obj, Position):
        return {**head, "type": "position", "variant": _variant_json(obj.variant),
                **_board_json(obj)}
    if isinstance(obj, Move):
        named = {"named": obj.named} if obj.named else {}
        return {**head, "type": "move", "steps": _move_json(obj), **named}
    if isinstance(obj, LegalMoves):
        p = obj.position
        return {**head, "type": "legal_moves", "variant": _variant_json(p.variant),
                **_board_json(p), "dice": list(obj.dice)}
    if isinstance(obj, Variant):
        return {**head, "type": "variant", **_variant_json(obj)}
    if isinstance(obj, GameRules):
        return {**head, "type": "game_rules", "rules": _rules_json(obj)}
    if isinstance(obj, Game):
        setup = obj.setup
        start, starter = setup["position"], setup["starter"]
        # the rest of the set-up only when it is not the default, so plain games read as before
        extra: dict[str, Any] = {}
        if setup["passes"]:
            extra["start_passes"] = setup["passes"]
        if setup["cube_level"]:
            extra["start_cube_level"] = setup["cube_level"]
            extra["start_cube_owner"] = _COLOR_NAMES[setup["cube_owner"]]
        if setup["last_roll"]:
            extra["start_last_roll"] = True
        if setup.get("turn_number") is not None:
            extra["start_turn_number"] = setup["turn_number"]
        if setup.get("carried") is not None:
            extra["start_carried"] = list(setup["carried"])
        return {**head, "type": "game", "variant": _variant_json(obj.variant),
                "rules": _rules_json(obj.rules), "seed": _seed_json(obj.seed),
                "crawford": obj.crawford,
                "start": None if start is None else _board_json(start),
                "starter": None if starter is None else _COLOR_NAMES[starter],
                **extra, **_game_body(obj)}
    if isinstance(obj, Match):
        if len(obj.variant_rotation) > 1 or obj.winner_starts:
            raise InvalidRecordError("nardy JSON: a match of rotating variants or with the "
                                     "winner starting has no JSON form (pickle keeps it)")
        return {**head, "type": "match", "variant": _variant_json(obj.variant),
                "rules": _rules_json(obj.rules), "length": obj.length,
                "crawford": obj.crawford_rule, "seed": _seed_json(obj.seed),
                "score": list(obj.score),
                **({"start_score": list(obj.start_score)} if any(obj.start_score) else {}),
                **({"post_crawford": True} if obj.starts_post_crawford else {}),
                "games": [{"crawford": g.crawford, **_game_body(g)} for g in obj.games]}
    raise InvalidRecordError(f"nardy JSON: cannot write a {type(obj).__name__}")


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------


class _Reader:
    """Typed access to a dict with the JSON path in every error."""

    def __init__(self, d: Any, path: str) -> None:
        if not isinstance(d, dict):
            raise _err(path, f"expected an object (dict), got {_tname(d)}")
        bad = [k for k in d if not isinstance(k, str)]
        if bad:
            raise _err(path, f"keys must be strings, got {_show(bad[0])}")
        self.d = d
        self.path = path
        self.used: set[str] = set()

    def get(self, key: str, *types: type, optional: bool = False, default: Any = None) -> Any:
        self.used.add(key)
        if key not in self.d:
            if optional:
                return default
            raise _err(self.path, f"missing key {key!r}")
        value = self.d[key]
        if types and not _istype(value, types):
            raise _err(f"{self.path}.{key}", "expected " + " or ".join(_tn(t) for t in types)
                       + f", got {_tname(value)}")
        return value

    def done(self) -> None:
        extra = sorted(set(self.d) - self.used)
        if extra:
            raise _err(self.path, f"unknown key(s) {extra}")


def _tn(t: type) -> str:
    return {int: "an integer", str: "a string", bool: "true/false", list: "a list",
            dict: "an object", float: "a number", type(None): "null"}.get(t, t.__name__)


def _tname(v: Any) -> str:
    if v is None:
        return "null"
    return {bool: "true/false", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(v), type(v).__name__)


def _istype(value: Any, types: tuple[type, ...]) -> bool:
    for t in types:
        if t is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if t is float and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True
        if t is bool and isinstance(value, bool):
            return True
        if t is type(None) and value is None:
            return True
        if t not in (int, float, bool, type(None)) and isinstance(value, t):
            return True
    return False


def _err(path: str, msg: str) -> InvalidRecordError:
    return InvalidRecordError(f"nardy JSON {path}: {msg}")


def _read_variant(d: Any, path: str) -> Variant:
    r = _Reader(d, path)
    name = r.get("name", str)
    rules = r.get("rules", dict)
    r.done()
    classes = {cls.name: cls for cls in VARIANTS}
    if name not in classes:
        raise _err(f"{path}.name", f"unknown variant {_show(name)}; known: " + ", ".join(classes))
    try:
        return classes[name](**rules)
    except Error as e:
        raise _err(f"{path}.rules", str(e)) from None
    except TypeError as e:  # non-string keys cannot reach here; defensive
        raise _err(f"{path}.rules", str(e)) from None


def _read_color(value: Any, path: str) -> int:
    if value not in _COLORS or not isinstance(value, str):
        raise _err(path, f"expected 'white' or 'black', got {_show(value)}")
    return _COLORS[value]


def _read_side(value: Any, path: str) -> list[int]:
    if not isinstance(value, list) or len(value) != 26 or not all(_istype(x, (int,)) for x in value):
        raise _err(path, "expected a list of 26 integers (24 points, bar, off)")
    return value


def _read_board(r: _Reader, variant: Variant) -> Position:
    turn = _read_color(r.get("turn", str), f"{r.path}.turn")
    white = _read_side(r.get("white", list), f"{r.path}.white")
    black = _read_side(r.get("black", list), f"{r.path}.black")
    try:
        return Position.from_colors(variant, white, black, turn)
    except Error as e:
        raise _err(r.path, f"impossible position: {e}") from None


def _read_dice(value: Any, path: str) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(_istype(x, (int,)) and 1 <= x <= 6 for x in value)):
        raise _err(path, f"dice must be a list of two integers 1..6, got {_show(value)}")
    return value[0], value[1]


def _read_move(value: Any, path: str, named: Any = None) -> Move:
    if not isinstance(value, list) or len(value) > MAX_STEPS:
        # a turn of several rolls (Gul bara's cascade) has more than four
        raise _err(path, f"a move is a list of at most {MAX_STEPS} steps [from, to, hit]")
    steps = []
    for k, s in enumerate(value):
        if (not isinstance(s, list) or len(s) != 3 or not _istype(s[0], (int,))
                or not _istype(s[1], (int,)) or not isinstance(s[2], bool)
                or not 0 <= s[0] <= BAR or not OFF <= s[1] <= 23):
            raise _err(f"{path}[{k}]", f"a step is [from 0..24, to -1..23, hit true/false], "
                       f"got {_show(s)}")
        steps.append((s[0], s[1], s[2]))
    if named is None:
        return Move(steps)
    if not _istype(named, (int,)) or not 1 <= named <= 6:
        raise _err(path.rsplit(".", 1)[0] + ".named",
                   f"the named die is 1..6 (absent: none), got {_show(named)}")
    return Move(steps, named)


def _read_rules(d: Any, path: str) -> Any:
    from nardy.game import GameRules

    if not isinstance(d, dict):
        raise _err(path, f"expected an object, got {_tname(d)}")
    known = {f.name for f in fields(GameRules)}
    extra = sorted(set(d) - known)
    if extra:
        raise _err(path, f"unknown game rule(s) {extra}")
    try:
        return GameRules(**d)
    except Error as e:  # pragma: no cover - GameRules validates in resolve()
        raise _err(path, str(e)) from None


def _read_seed(value: Any, path: str) -> Any:
    if isinstance(value, dict):
        r = _Reader(value, path)
        h = r.get("bytes", str)
        r.done()
        try:
            return bytes.fromhex(h)
        except ValueError:
            raise _err(f"{path}.bytes", f"not hexadecimal: {_show(h)}") from None
    if _istype(value, (int, str)):
        return value
    raise _err(path, f"a seed is an integer, a string or {{'bytes': hex}}, got {_tname(value)}")


_KINDS = ("opening", "roll", "move", "pass", "double", "take", "drop", "beaver", "raccoon",
          "resign", "accept", "decline", "claim")


def _read_action(d: Any, path: str) -> Any:
    from nardy.game import Action

    r = _Reader(d, path)
    kind = r.get("kind", str)
    if kind not in _KINDS:
        raise _err(f"{path}.kind", f"unknown action {_show(kind)}; known: " + ", ".join(_KINDS))
    player = r.get("player", str, optional=True)
    player = None if player is None else _read_color(player, f"{path}.player")
    if (kind == "opening") != (player is None):
        raise _err(path, "an opening throw has no player; every other action has one")
    dice = r.get("dice", list, optional=True)
    dice = None if dice is None else _read_dice(dice, f"{path}.dice")
    if (kind in ("opening", "roll", "move", "pass")) != (dice is not None):
        raise _err(path, f"{kind}: dice are " + ("required" if dice is None else "not allowed"))
    move = r.get("move", list, optional=True)
    if (kind == "move") != (move is not None):
        raise _err(path, f"{kind}: 'move' is " + ("required" if move is None else "not allowed"))
    named = r.get("named", int, optional=True)
    if move is None and named is not None:
        raise _err(path, f"{kind}: 'named' is not allowed")
    move = None if move is None else _read_move(move, f"{path}.move", named)
    level = r.get("level", int, optional=True)
    if (kind == "resign") != (level is not None):
        raise _err(path, f"{kind}: 'level' is " + ("required" if level is None else "not allowed"))
    r.done()
    return Action(kind, player, dice, move, level)


def _check_steps(game: Any, action: Any, path: str) -> None:
    """Every step of a recorded move is one die (the game checks only where the move leads)."""
    if action.kind != "move" or not game.variant.linear_steps:
        return
    d1, d2 = action.dice
    steps = action.move.steps
    if not game.variant.steps_follow_dice(steps, (d1, d2), game._moves_turn):
        raise _err(f"{path}.move", f"the steps {[[s.from_, s.to] for s in steps]} are not "
                   f"one die each of {d1}-{d2}")


def _replay(game: Any, history: Any, path: str) -> None:
    if not isinstance(history, list):
        raise _err(path, f"expected a list of actions, got {_tname(history)}")
    for k, a in enumerate(history):
        action = _read_action(a, f"{path}[{k}]")
        _check_steps(game, action, f"{path}[{k}]")
        try:
            game.apply(action)
        except Error as e:
            raise _err(f"{path}[{k}]", f"cannot replay {_show(action)}: {e}") from None


def _check_body(game: Any, r: _Reader, variant: Variant) -> None:
    """The informative keys (position, phase, result) must agree with the replay."""
    pos_d = r.get("position", dict)
    pr = _Reader(pos_d, f"{r.path}.position")
    pos = _read_board(pr, variant)
    pr.done()
    if pos != game.position:
        raise _err(f"{r.path}.position", "differs from the position the history leads to")
    phase = r.get("phase", str)
    if phase != str(game.phase):
        raise _err(f"{r.path}.phase", f"{_show(phase)}, but the history leads to {str(game.phase)!r}")
    result = r.get("result", dict, type(None))
    if result != _result_json(game.result()):
        raise _err(f"{r.path}.result", f"{_show(result)}, but the history gives "
                   f"{_result_json(game.result())!r}")


def from_json(d: Any) -> Any:
    """Rebuilds the object of a dict written by :func:`to_json` (strictly validated)."""
    from nardy.game import Game
    from nardy.match import Match

    r = _Reader(d, "$")
    fmt = r.get("format", str)
    if fmt != FORMAT:
        raise _err("$.format", f"unsupported format {_show(fmt)}; this nardy reads {FORMAT!r}")
    kind = r.get("type", str)
    if kind == "position":
        v = _read_variant(r.get("variant", dict), "$.variant")
        out: Any = _read_board(r, v)
    elif kind == "move":
        out = _read_move(r.get("steps", list), "$.steps", r.get("named", int, optional=True))
    elif kind == "legal_moves":
        v = _read_variant(r.get("variant", dict), "$.variant")
        pos = _read_board(r, v)
        out = pos.legal_moves(_read_dice(r.get("dice", list), "$.dice"))
    elif kind == "variant":
        name = r.get("name", str)
        rules = r.get("rules", dict)
        out = _read_variant({"name": name, "rules": rules}, "$")
    elif kind == "game_rules":
        out = _read_rules(r.get("rules", dict), "$.rules")
    elif kind == "game":
        v = _read_variant(r.get("variant", dict), "$.variant")
        rules = _read_rules(r.get("rules", dict), "$.rules")
        seed = _read_seed(r.get("seed"), "$.seed")
        crawford = r.get("crawford", bool)
        start_d = r.get("start", dict, type(None))
        start = None
        if start_d is not None:
            sr = _Reader(start_d, "$.start")
            start = _read_board(sr, v)
            sr.done()
        starter = r.get("starter", str, type(None))
        starter = None if starter is None else _read_color(starter, "$.starter")
        setup = {"passes": r.get("start_passes", int, optional=True, default=0),
                 "cube_level": r.get("start_cube_level", int, optional=True, default=0),
                 "last_roll": r.get("start_last_roll", bool, optional=True, default=False)}
        owner = r.get("start_cube_owner", str, optional=True)
        if owner is not None:
            setup["cube_owner"] = _read_color(owner, "$.start_cube_owner")
        turn_number = r.get("start_turn_number", int, optional=True)
        if turn_number is not None:
            setup["turn_number"] = turn_number
        carried = r.get("start_carried", list, optional=True)
        if carried is not None:
            setup["carried"] = carried
        try:
            out = Game(v, rules, seed, position=start, starter=starter, crawford=crawford,
                       **setup)
        except Error as e:
            raise _err("$", f"cannot start the game: {e}") from None
        _replay(out, r.get("history", list), "$.history")
        _check_body(out, r, v)
    elif kind == "match":
        v = _read_variant(r.get("variant", dict), "$.variant")
        rules = _read_rules(r.get("rules", dict), "$.rules")
        length = r.get("length", int)
        crawford = r.get("crawford", bool)
        seed = _read_seed(r.get("seed"), "$.seed")
        start = r.get("start_score", list, optional=True, default=[0, 0])
        post = r.get("post_crawford", bool, optional=True, default=False)
        try:
            out = Match(length, v, rules, seed, crawford=crawford, score=tuple(start),
                        post_crawford=post)
        except Error as e:
            raise _err("$", f"cannot start the match: {e}") from None
        games = r.get("games", list)
        if not games:
            raise _err("$.games", "a match has at least one game")
        for k, gd in enumerate(games):
            path = f"$.games[{k}]"
            gr = _Reader(gd, path)
            if k:
                try:
                    out.next_game()
                except Error as e:
                    raise _err(path, f"cannot start this game: {e}") from None
            if gr.get("crawford", bool) != out.game.crawford:
                raise _err(f"{path}.crawford", "the match makes this game "
                           + ("the" if out.game.crawford else "not the") + " Crawford game")
            _replay(out.game, gr.get("history", list), f"{path}.history")
            _check_body(out.game, gr, v)
            gr.done()
        score = r.get("score", list)
        if score != list(out.score):
            raise _err("$.score", f"{_show(score)}, but the games give {list(out.score)!r}")
    else:
        raise _err("$.type", f"unknown type {_show(kind)}; known: position, move, legal_moves, "
                   "variant, game_rules, game, match")
    r.done()
    return out
