"""Pure-Python Position ID and XGID codecs, written from the formats (the descriptions in
nardy/formats/gnubg_id.py and xgid.py): the reference the C++ codecs are tested against, and
the slow path the codec benchmarks compare with. Sides are 26-entry arrays in their own
coordinates (24 bar, 25 off); a ValueError stands for any refusal."""

from __future__ import annotations

import base64
import binascii

CHECKERS = 15


def encode_position_id(mover, opponent) -> str:
    key = 0
    pos = 0
    for side in (opponent, mover):  # gnubg: the player not on roll first
        for i in range(25):
            n = side[i]
            key |= ((1 << n) - 1) << pos
            pos += n + 1
    data = key.to_bytes(10, "little")
    return base64.b64encode(data).decode("ascii").rstrip("=")


def decode_position_id(s: str, checkers: int = CHECKERS):
    if not isinstance(s, str) or len(s) != 14 or not s.isascii():
        raise ValueError("a Position ID is 14 ASCII characters")
    try:
        data = base64.b64decode(s + "==", validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not base64") from None
    if base64.b64encode(data).decode("ascii").rstrip("=") != s:
        raise ValueError("bits past the 80-bit key")
    bits = format(int.from_bytes(data, "little"), "080b")[::-1]
    runs = bits.split("0")
    if len(runs) <= 50:
        raise ValueError("the key ends before both sides are complete")
    if any(runs[50:]):
        raise ValueError("nonzero bits after the last side")
    sides = []
    for k in range(2):
        counts = [len(r) for r in runs[25 * k:25 * k + 25]]
        if sum(counts) > checkers:
            raise ValueError("too many checkers")
        sides.append(tuple(counts) + (checkers - sum(counts),))
    opponent, mover = sides
    for i in range(24):
        if mover[i] and opponent[23 - i]:
            raise ValueError("a point held by both sides")
    return mover, opponent


def xgid_position(mover, opponent, turn: int) -> str:
    """The 26-character position field, turn 1 = the mover is the bottom player (upper case)."""
    x, o = (mover, opponent) if turn == 1 else (opponent, mover)
    chars = ["-"] * 26
    if o[24]:
        chars[0] = chr(ord("a") + o[24] - 1)
    if x[24]:
        chars[25] = chr(ord("A") + x[24] - 1)
    for i in range(24):
        if x[i]:
            chars[i + 1] = chr(ord("A") + x[i] - 1)
        elif o[23 - i]:
            chars[i + 1] = chr(ord("a") + o[23 - i] - 1)
    return "".join(chars)


def encode_xgid(mover, opponent, turn: int = 1) -> str:
    """The XGID with the default fields: cube centred at 1, money play, no dice."""
    return f"XGID={xgid_position(mover, opponent, turn)}:0:0:{turn}:00:0:0:0:0:10"


def decode_xgid_position(s: str, checkers: int = CHECKERS):
    """(mover, opponent, turn) of an XGID; only the position and turn fields are read."""
    body = s[5:] if s.startswith("XGID=") else s
    fields = body.split(":")
    if len(fields) != 10 or len(fields[0]) != 26:
        raise ValueError("not an XGID")
    x = [0] * 25
    o = [0] * 25
    for k, c in enumerate(fields[0]):
        if c == "-":
            continue
        if "A" <= c <= "P" and k != 0:
            x[24 if k == 25 else k - 1] = ord(c) - ord("A") + 1
        elif "a" <= c <= "p" and k != 25:
            o[24 if k == 0 else 24 - k] = ord(c) - ord("a") + 1
        else:
            raise ValueError(f"bad position character {c!r}")
    if sum(x) > checkers or sum(o) > checkers:
        raise ValueError("too many checkers")
    turn = int(fields[3])
    if turn not in (1, -1):
        raise ValueError("bad turn")
    xs = tuple(x) + (checkers - sum(x),)
    os_ = tuple(o) + (checkers - sum(o),)
    return (xs, os_, turn) if turn == 1 else (os_, xs, turn)
