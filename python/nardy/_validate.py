"""Argument checks shared by every public entry point.

Each check returns the value in its canonical Python form (a plain ``int``, ``bool``, a tuple
of dice...) or raises a :class:`nardy.Error` subclass whose message names the argument and
what it allows. The rules are the same everywhere:

* an integer is an ``int`` or a numpy integer scalar; ``bool`` is not an integer, nor is a
  ``float`` (even ``4.0``), nor a numpy array (even of one element);
* a flag is a ``bool`` or a numpy ``bool_``; ``0`` and ``1`` are not flags;
* values that go on to C++ are range-checked here, so that nothing reaches the bindings that
  they would have to refuse with a bare ``TypeError`` or ``OverflowError``.

Messages never print huge values in full: a big integer shows its size, long text its length.
"""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from nardy.errors import (
    Error,
    InputTooLargeError,
    InvalidArgumentError,
    InvalidColorError,
    InvalidDiceError,
    InvalidRuleError,
    InvalidSeedError,
)

#: The largest value of a C ``int``: the bound of every count handed to the core as one.
C_INT_MAX = 2**31 - 1
#: The most C++ threads one call starts (``threads=0`` means all cores).
MAX_THREADS = 1024
#: Input size limits of the parsers: longer input fails at once with InputTooLargeError.
#: Move notation (a move is a few dozen characters):
MAX_NOTATION_CHARS = 1_000
#: One-line forms: the nardy text line, XGID, FIBS board:
MAX_ID_CHARS = 10_000
#: Records (.mat, SGF, the nardy record); a long match is a few hundred kilobytes:
MAX_RECORD_CHARS = 16 * 2**20
#: The largest value of a C ``uint64_t`` (rollout seeds are 64-bit).
U64_MAX = 2**64 - 1

_repr = reprlib.Repr()
_repr.maxstring = 60
_repr.maxother = 60
_repr.maxlong = 40


def show(value: Any) -> str:
    """A short, always computable description of ``value`` for an error message."""
    if isinstance(value, numbers.Integral) and not is_bool(value):
        v = int(value)
        if v.bit_length() <= 64:
            return str(v)
        return f"{'-' if v < 0 else ''}an integer of {v.bit_length()} bits"
    if isinstance(value, np.ndarray):
        return f"a numpy array of shape {value.shape} and dtype {value.dtype}"
    if isinstance(value, (str, bytes)) and len(value) > 60:
        return f"{value[:40]!r}... ({len(value):,} {'characters' if isinstance(value, str) else 'bytes'})"
    try:
        text = _repr.repr(value)
    except Exception:  # a hostile __repr__, or an int too long for str()
        text = f"<{type(value).__name__} object>"
    if not isinstance(value, (str, int, type(None))):
        text += f" ({type(value).__name__})"
    return text


def is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def is_int(value: Any) -> bool:
    """True for ``int`` and numpy integer scalars; False for bool, float and arrays."""
    return isinstance(value, numbers.Integral) and not is_bool(value)


def _range_text(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"an integer from {lo} to {hi}"
    if lo is not None:
        return f"an integer >= {lo}"
    if hi is not None:
        return f"an integer <= {hi}"
    return "an integer"


def integer(value: Any, name: str, lo: int | None = None, hi: int | None = None, *,
            error: type[Error] = InvalidArgumentError, none: bool = False) -> Any:
    """``value`` as a plain ``int`` in ``[lo, hi]`` (either bound may be None); with
    ``none=True`` None passes through."""
    if value is None and none:
        return None
    if type(value) is int:  # the common case first
        v = value
    elif is_int(value):
        v = int(value)
    else:
        allowed = _range_text(lo, hi) + (" or None" if none else "")
        raise error(f"{name} must be {allowed}, got {show(value)}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        cls = InputTooLargeError if hi is not None and v > hi and error is InvalidArgumentError \
            else error
        raise cls(f"{name} must be {_range_text(lo, hi)}, got {show(v)}")
    return v


def boolean(value: Any, name: str, *, error: type[Error] = InvalidArgumentError) -> bool:
    """``value`` as a plain ``bool``: only ``True``/``False`` (or numpy's) are flags."""
    if value is True or value is False:
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    raise error(f"{name} must be True or False, got {show(value)}")


def real(value: Any, name: str, lo: float | None = None, hi: float | None = None, *,
         error: type[Error] = InvalidArgumentError) -> float:
    """A finite number (int or float, not bool) in ``[lo, hi]``, as a ``float``."""
    if is_bool(value) or not isinstance(value, numbers.Real) or isinstance(value, np.ndarray):
        raise error(f"{name} must be a number, got {show(value)}")
    try:
        v = float(value)
    except OverflowError:
        v = math.inf
    if not math.isfinite(v) or (lo is not None and v < lo) or (hi is not None and v > hi):
        bounds = ("" if lo is None else f" >= {lo}") + \
                 ("" if hi is None else f"{' and' if lo is not None else ''} <= {hi}")
        raise error(f"{name} must be a finite number{bounds}, got {show(value)}")
    return v


def color(value: Any, name: str = "color", *, error: type[Error] = InvalidColorError,
          none: bool = False) -> Any:
    """0 (``nardy.WHITE``) or 1 (``nardy.BLACK``) as a plain ``int``; None with ``none=True``."""
    if value is None and none:
        return None
    if is_int(value) and int(value) in (0, 1):
        return int(value)
    extra = " or None" if none else ""
    raise error(f"{name} must be 0 (nardy.WHITE) or 1 (nardy.BLACK){extra}, got {show(value)}")


def dice(value: Any, name: str = "dice", *, error: type[Error] = InvalidDiceError) -> tuple[int, int]:
    """A roll: a pair (tuple, list, or 1-d integer array) of two integers from 1 to 6,
    returned as a tuple of ``int``. The object passed in is only read."""
    if type(value) is tuple and len(value) == 2:
        a, b = value
        if type(a) is int and type(b) is int and 0 < a < 7 and 0 < b < 7:
            return value
    pair: Sequence[Any] | None = None
    if isinstance(value, np.ndarray):
        if value.ndim == 1 and value.shape[0] == 2 and value.dtype.kind in "iu":
            pair = value.tolist()
    elif isinstance(value, (tuple, list)) or (
            isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))):
        try:
            if len(value) == 2:
                pair = (value[0], value[1])
        except Exception:
            pair = None
    if pair is not None and all(is_int(d) and 1 <= d <= 6 for d in pair):
        return int(pair[0]), int(pair[1])
    raise error(f"{name} must be a pair of integers from 1 to 6, got {show(value)}")


def _matches(value: Any, allowed: Any) -> bool:
    if isinstance(allowed, bool):
        return is_bool(value) and bool(value) == allowed
    if isinstance(allowed, int):
        return is_int(value) and int(value) == allowed
    if isinstance(allowed, str):
        return isinstance(value, str) and value == allowed
    if isinstance(value, np.ndarray):
        return False
    try:
        return type(value) is type(allowed) and bool(value == allowed)
    except Exception:
        return False


def choice(value: Any, name: str, allowed: Sequence[Any] | range, *,
           error: type[Error] = InvalidRuleError) -> Any:
    """One of ``allowed``, returned as the allowed element itself (so ``np.int64(4)`` becomes
    ``4``); type-strict: ``True`` is not ``1``, ``4.0`` is not ``4``. A ``range`` of step 1 is
    checked as an integer range."""
    if isinstance(allowed, range) and allowed.step == 1:
        if not is_int(value) or not allowed.start <= int(value) < allowed.stop:
            raise error(f"{name} must be {_range_text(allowed.start, allowed.stop - 1)}, "
                        f"got {show(value)}")
        return int(value)
    for a in allowed:
        if _matches(value, a):
            return a
    ints = [a for a in allowed if isinstance(a, int) and not isinstance(a, bool)]
    if ints and len(ints) == len(allowed) and ints == list(range(ints[0], ints[0] + len(ints))):
        what = _range_text(ints[0], ints[-1])
    else:
        what = "one of " + ", ".join(repr(a) for a in allowed)
    raise error(f"{name} must be {what}, got {show(value)}")


def seed(value: Any, name: str = "seed", *, lo: int = 0, hi: int | None = U64_MAX,
         text: bool = False, none: bool = False,
         error: type[Error] = InvalidSeedError) -> Any:
    """A random seed: an integer in ``[lo, hi]``; with ``text=True`` also a ``str`` or
    ``bytes`` of at most 1,000 characters; with ``none=True`` None (a fresh seed)."""
    if value is None and none:
        return None
    if is_int(value):
        v = int(value)
        if v >= lo and (hi is None or v <= hi):
            return v
    elif text and isinstance(value, (str, bytes)) and len(value) <= 1000:
        return value
    kinds = [_range_text(lo, hi)]
    if text:
        kinds.append("text of at most 1,000 characters")
    if none:
        kinds.append("None")
    raise error(f"{name} must be {' or '.join(kinds)}, got {show(value)}")


def text(value: Any, name: str, limit: int, *,
         error: type[Error] = InvalidArgumentError) -> str:
    """A ``str`` of at most ``limit`` characters (over it: :class:`InputTooLargeError`, a
    subclass of :class:`InvalidArgumentError`)."""
    if not isinstance(value, str):
        raise error(f"{name} must be text (str), got {show(value)}")
    if len(value) > limit:
        raise InputTooLargeError(
            f"{name} is {len(value):,} characters long; the limit is {limit:,}")
    if not value.isascii():
        # the core takes UTF-8: a lone surrogate would fail there with UnicodeEncodeError
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise error(f"{name} holds {value[e.start]!r} at {e.start}, which is not a "
                        f"Unicode character (a lone surrogate)") from None
    return value


def int_sequence(value: Any, name: str, lengths: Sequence[int], lo: int, hi: int, *,
                 error: type[Error] = InvalidArgumentError) -> tuple[int, ...]:
    """A tuple of plain ints from a list, tuple or integer array whose length is one of
    ``lengths``, each in ``[lo, hi]``. The object passed in is only read."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or value.dtype.kind not in "iu":
            raise error(f"{name} must be a 1-d integer array, got {show(value)}")
        raw: Sequence[Any] = value.tolist()
    elif isinstance(value, (tuple, list)):
        raw = value
    else:
        raise error(f"{name} must be a list or tuple of integers, got {show(value)}")
    if len(raw) not in lengths:
        want = " or ".join(str(n) for n in lengths)
        raise error(f"{name} must hold {want} integers, got {len(raw)}")
    out = []
    for i, x in enumerate(raw):
        if not is_int(x) or not lo <= x <= hi:
            raise error(f"{name}[{i}] must be {_range_text(lo, hi)}, got {show(x)}")
        out.append(int(x))
    return tuple(out)


__all__ = [
    "C_INT_MAX", "MAX_ID_CHARS", "MAX_NOTATION_CHARS", "MAX_RECORD_CHARS", "MAX_THREADS",
    "U64_MAX", "boolean", "choice", "color", "dice", "int_sequence", "integer",
    "is_bool", "is_int", "real", "seed", "show", "text",
]
