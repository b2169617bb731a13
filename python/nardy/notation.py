"""Move notation (``13/8 24/23``, ``bar/22*``, ``6/off``, ``8/5(2)``).

Depends on the variants only (point names), never on nardy.position: positions and moves are
read through their methods, so the position module can import this one at load time.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from nardy import _validate
from nardy.errors import InvalidNotationError
from nardy.variants import WHITE, Variant

if TYPE_CHECKING:
    from nardy.position import Move, Position

# A turn of several rolls (Gul bara's cascade) has up to MAX_STEPS steps, so a chain may be
# repeated more than four times: "24/23(8)".
MAX_STEPS = 24
_TOKEN = re.compile(r"^(?P<chain>[^()]+?)(?:\((?P<n>[1-9][0-9]?)\))?$")


# A move that names dice (Acey-deucey's double after a 1-2) plays the roll's own two dice
# first; its notation writes them, the named double as "(5-5)", then the double's steps.
ROLL_STEPS = 2
_NAMED = re.compile(r"^\(([1-6])-([1-6])\)$")


def _chains(steps: Any) -> list[list[tuple[int, bool]]]:
    """Steps joined into one chain per checker: [(point, hit_on_arrival), ...]."""
    chains: list[list[tuple[int, bool]]] = []
    for step in steps:
        for chain in reversed(chains):
            if chain[-1][0] == step.from_ and step.from_ != -1:
                chain.append((step.to, step.hit))
                break
        else:
            chains.append([(step.from_, False), (step.to, step.hit)])
    return chains


def format_move(move: Move, variant: Variant, color: int = WHITE) -> str:
    if not move.steps:
        return "pass"
    named = move.named
    if not named:
        return _format_steps(move.steps, variant, color)
    head, tail = move.steps[:ROLL_STEPS], move.steps[ROLL_STEPS:]
    parts = [_format_steps(head, variant, color), f"({named}-{named})"]
    if tail:
        parts.append(_format_steps(tail, variant, color))
    return " ".join(parts)


def split_named(text: str) -> tuple[str, int]:
    """``text`` without its named double, and the die it names (0: none written). The named
    double is one token ``(d-d)``, written after the roll's own steps."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"notation must be a string, not {type(text).__name__}")
    _validate.text(text, "move notation", _validate.MAX_NOTATION_CHARS,
                   error=InvalidNotationError)
    tokens = text.replace(",", " ").split()
    named = [k for k, t in enumerate(tokens) if t.startswith("(")]
    if not named:
        return text, 0
    if len(named) > 1:
        raise InvalidNotationError(f"{text!r} names more than one double")
    k = named[0]
    m = _NAMED.match(tokens[k])
    if not m or m.group(1) != m.group(2):
        raise InvalidNotationError(f"cannot read {tokens[k]!r}: a named double is written "
                                   f"(1-1) .. (6-6)")
    if k == 0:
        raise InvalidNotationError(f"{text!r}: the named double follows the steps of the roll")
    return " ".join(tokens[:k] + tokens[k + 1:]), int(m.group(1))


def _format_steps(steps: Any, variant: Variant, color: int) -> str:
    texts: list[tuple[int, str]] = []
    for chain in _chains(steps):
        try:
            parts = [variant.point_name(chain[0][0], color)]
            for k, (point, hit) in enumerate(chain[1:], start=1):
                last = k == len(chain) - 1
                if hit or last:
                    parts.append(variant.point_name(point, color) + ("*" if hit else ""))
        except ValueError as e:  # a step this variant has no name for (Shlem has no "off")
            raise InvalidNotationError(f"{variant.name} cannot write {tuple(steps)}: {e}") from None
        texts.append((chain[0][0], "/".join(parts)))
    texts.sort(key=lambda t: -t[0])
    out: list[str] = []
    counts: dict[str, int] = {}
    for _, t in texts:
        if t not in counts:
            out.append(t)
        counts[t] = counts.get(t, 0) + 1
    return " ".join(t if counts[t] == 1 else f"{t}({counts[t]})" for t in out)


def parse_chains(text: str, variant: Variant, color: int) -> list[list[tuple[int, bool]]]:
    """The chains of ``text``, one list of ``(point index, hit)`` per checker (``[]`` for
    ``pass``); the variant names the points and finds the move they denote."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"notation must be a string, not {type(text).__name__}")
    _validate.text(text, "move notation", _validate.MAX_NOTATION_CHARS,
                   error=InvalidNotationError)
    chains: list[list[tuple[int, bool]]] = []
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise InvalidNotationError("empty move notation (write 'pass' for no move)")
    if [t.lower() for t in tokens] == ["pass"]:
        return []
    for token in tokens:
        m = _TOKEN.match(token)
        if not m or "/" not in m.group("chain"):
            raise InvalidNotationError(f"cannot read {token!r}: expected from/to, e.g. 13/8")
        points: list[tuple[int, bool]] = []
        for part in m.group("chain").split("/"):
            hit = part.endswith("*")
            name = part.rstrip("*")
            try:
                points.append((variant.point_index(name, color), hit))
            except ValueError as e:
                raise InvalidNotationError(f"{token!r}: {e}") from None
        if any(p == -1 for p, _ in points[:-1]) or points[0][0] == -1:
            raise InvalidNotationError(f"{token!r}: 'off' can only end a chain")
        if len(points) < 2:
            raise InvalidNotationError(f"{token!r}: a chain needs a start and an end")
        count = int(m.group("n") or 1)
        most = getattr(variant, "max_turn_steps", MAX_STEPS)
        if count > most:
            raise InvalidNotationError(f"{token!r}: a turn of {getattr(variant, 'name', 'any')} "
                                       f"moves at most {most} checkers")
        chains.extend([points] * count)
        if len(chains) > most:
            raise InvalidNotationError(f"{text!r} has more than {most} chains")
    return chains


def parse_move_steps(text: str, variant: Variant, color: int) -> list[tuple[int, int, bool]]:
    """Each segment of each chain is one step (no named double: see :func:`parse_named_steps`)."""
    steps = []
    for chain in parse_chains(text, variant, color):
        for (a, _), (b, hit) in zip(chain, chain[1:]):
            steps.append((a, b, hit))
    if len(steps) > MAX_STEPS:
        raise InvalidNotationError(f"{text!r} has more than {MAX_STEPS} steps")
    return steps


def parse_named_steps(text: str, variant: Variant,
                      color: int) -> tuple[list[tuple[int, int, bool]], int]:
    """:func:`parse_move_steps` of a move that may name a double: (steps, named die)."""
    plain, named = split_named(text)
    if named and not getattr(variant, "names_dice", True):
        raise InvalidNotationError(f"{text!r}: {variant.name} has no named doubles")
    return parse_move_steps(plain, variant, color), named
