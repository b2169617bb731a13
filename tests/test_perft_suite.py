"""Runs every perft line of every ``tests/perft/*.perft`` file (python-chess style suites).

File format, one block per position (blank lines and ``#`` comments are ignored)::

    id <name>                      starts a block
    variant <name or alias>        any nardy variant (backgammon, long-nardy, ...)
    rules <key>=<value> ...        optional rule options of the variant
    position start                 the variant's starting position, white on roll
    position <gnubg Position ID>   backgammon only (the player on roll is the mover)
    position XGID=...              backgammon only
    position sides <26 ints> / <26 ints>   mover and opponent side arrays (docs/coordinates.md)
    perft <depth> <nodes>          21 distinct rolls per ply
    perft36 <depth> <nodes>        36 ordered rolls per ply

Lines whose node count exceeds ``NARDY_PERFT_MAX_NODES`` (default 400,000,000: every line of the
suites, backgammon perft36 3, long nardy perft 5 and the Shlem depth-3 lines included, about
30 s in all; the backgammon lines' last ply is counted, not listed) are skipped.
A mismatch reports the per-roll divide (and, for small backgammon cases, the reference's).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import nardy

PERFT_DIR = Path(__file__).parent / "perft"
MAX_NODES = int(os.environ.get("NARDY_PERFT_MAX_NODES", "400000000").replace("_", "").replace(",", ""))


@dataclass
class Block:
    file: str
    line: int
    name: str
    variant: str | None = None
    rules: dict = field(default_factory=dict)
    position: str | None = None
    perfts: list = field(default_factory=list)  # (depth, nodes, rolls, line number)


class PerftFileError(ValueError):
    pass


def _value(text: str):
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def parse_perft_file(path: Path) -> list[Block]:
    blocks: list[Block] = []
    cur: Block | None = None
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()  # IDs are base64: no '#' in them
        if not line:
            continue
        key, _, rest = line.partition(" ")
        rest = rest.strip()
        where = f"{path.name}:{lineno}"
        if key == "id":
            if not rest:
                raise PerftFileError(f"{where}: id needs a name")
            cur = Block(path.name, lineno, rest)
            blocks.append(cur)
            continue
        if cur is None:
            raise PerftFileError(f"{where}: {key!r} before the first 'id' line")
        if key == "variant":
            cur.variant = rest
        elif key == "rules":
            for item in rest.split():
                k, eq, v = item.partition("=")
                if not eq:
                    raise PerftFileError(f"{where}: rules take key=value, got {item!r}")
                cur.rules[k] = _value(v)
        elif key == "position":
            cur.position = rest
        elif key in ("perft", "perft36"):
            parts = rest.replace("_", "").replace(",", "").split()
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise PerftFileError(f"{where}: expected '{key} <depth> <nodes>'")
            cur.perfts.append((int(parts[0]), int(parts[1]), 36 if key == "perft36" else 21, lineno))
        else:
            raise PerftFileError(f"{where}: unknown keyword {key!r}")
    for b in blocks:
        if b.variant is None or b.position is None or not b.perfts:
            raise PerftFileError(f"{b.file}:{b.line}: block {b.name!r} needs variant, position "
                                 f"and at least one perft line")
    return blocks


def build_position(block: Block) -> nardy.Position:
    variant = nardy.find_variant(block.variant)(**block.rules)
    text = block.position.strip()
    if text.lower() == "start":
        return nardy.Position(variant)
    if text.lower().startswith("sides"):
        body = text[5:].replace(",", " ")
        if "/" not in body:
            raise PerftFileError(f"{block.name}: 'position sides' needs mover / opponent")
        mover, opponent = ([int(x) for x in half.split()] for half in body.split("/", 1))
        return nardy.Position.from_sides(variant, mover, opponent)
    if not isinstance(variant, nardy.Backgammon):
        raise PerftFileError(f"{block.name}: position IDs exist only for backgammon; use "
                             f"'start' or 'sides' for {variant.name}")
    from nardy import formats

    if text.upper().startswith("XGID="):
        rec = formats.decode_xgid(text)
        mover, opponent = rec.mover, rec.opponent
    else:
        mover, opponent = formats.decode_position_id(text)
    return nardy.Position.from_sides(variant, mover, opponent)


def _collect():
    cases, errors = [], []
    for path in sorted(PERFT_DIR.glob("*.perft")):
        try:
            blocks = parse_perft_file(path)
        except PerftFileError as e:
            errors.append(str(e))
            continue
        for b in blocks:
            for depth, nodes, rolls, lineno in b.perfts:
                tag = "perft36" if rolls == 36 else "perft"
                cases.append(pytest.param(b, depth, nodes, rolls,
                                          id=f"{path.stem}:{b.name}:{tag}-{depth}"))
    return cases, errors


CASES, PARSE_ERRORS = _collect()


def test_perft_files_parse():
    assert list(PERFT_DIR.glob("*.perft")), f"no perft files in {PERFT_DIR}"
    assert not PARSE_ERRORS, "\n".join(PARSE_ERRORS)
    assert CASES


def _reference_divide(pos: nardy.Position, depth: int, rolls: int):
    """Per-roll counts from the pure-Python backgammon reference (small cases only)."""
    try:
        from tests.reference import backgammon_ref as R
    except ImportError:
        from reference import backgammon_ref as R  # type: ignore[no-redef]

    def count(m, o, d):
        if d == 0:
            return 1
        if m[25] == 15 or o[25] == 15:
            return 0
        total = 0
        for roll in R.ALL_ROLLS:
            w = 2 if rolls == 36 and roll[0] != roll[1] else 1
            total += w * sum(count(b, a, d - 1) for a, b in R.legal_results(m, o, roll))
        return total

    m, o = pos.sides()
    out = {}
    for roll in R.ALL_ROLLS:
        w = 2 if rolls == 36 and roll[0] != roll[1] else 1
        out[roll[::-1]] = w * sum(count(b, a, depth - 1) for a, b in R.legal_results(m, o, roll))
    return out


@pytest.mark.parametrize("block,depth,nodes,rolls", CASES)
def test_perft(block, depth, nodes, rolls):
    if nodes > MAX_NODES:
        pytest.skip(f"{nodes} nodes > NARDY_PERFT_MAX_NODES={MAX_NODES}")
    pos = build_position(block)
    got = nardy.perft(pos, depth, rolls)
    if got == nodes:
        return
    lines = [f"{block.file}:{block.name} ({block.position}) perft{'36' if rolls == 36 else ''} "
             f"{depth}: expected {nodes}, got {got}", repr(pos), "divide (core):"]
    ref = None
    if isinstance(pos.variant, nardy.Backgammon) and depth <= 2 and nodes <= 1_000_000:
        ref = _reference_divide(pos, depth, rolls)
    for (d1, d2), n in nardy.divide(pos, depth, rolls):
        extra = ""
        if ref is not None:
            r = ref.get((max(d1, d2), min(d1, d2)))
            extra = f"   reference {r}" + ("   <-- differs" if r != n else "")
        lines.append(f"  {d1}-{d2}: {n}{extra}")
    pytest.fail("\n".join(lines), pytrace=False)
