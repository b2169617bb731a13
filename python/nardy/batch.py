"""Batch calls for engines and bots: numpy in, numpy out, the work in C++ with the GIL released.

No per-position Python object is created on the way: N positions go in as one array, every
resulting position comes back as one array with CSR offsets, and feature matrices for neural
nets are filled in C++. Every function here may be called from many Python threads at once
(each call uses its own C++ scratch memory).

Memory: outputs of 4 MiB and more are allocated in 2 MiB-aligned blocks (transparent huge
pages on Linux). When numpy frees such an output, up to two blocks (256 MiB in all) are kept
and reused by the next calls, because fresh pages cost the kernel a zeroing pass on first
touch (about a quarter of the time of ``afterstates`` on the shared benchmark set); worker
threads also keep their move buffers between calls (at most eight, 256 MiB in all).
Everything else is freed when its array is.

Array layouts
-------------
``boards`` (N, 2, 26) int8, C-contiguous
    Row ``i`` is one position as two side arrays: ``boards[i, 0]`` the player on roll (the
    mover), ``boards[i, 1]`` the opponent, each in that side's OWN coordinates
    (docs/coordinates.md): index 0..23 = checkers ``index + 1`` pips from bearing off, 24 = the
    bar (Shlem: reserves), 25 = borne off (Shlem: hit out of the game). Shlem writes a checker
    held prisoner as -1 on its index; Acey-deucey writes ``-n`` in slot 25 while ``n`` checkers
    are still to enter, and the encodings count those as on the bar. Rows carry no colours:
    :func:`from_array` takes them.
``dice`` (N, 2) int, values 1..6
    One roll per row (a single pair is broadcast to every row).
``results`` (M, 2, 26) int8 and ``offsets`` (N + 1,) int64
    The afterstates of row ``i`` are ``results[offsets[i]:offsets[i + 1]]``, one per distinct
    resulting position, in the order of ``Position.legal_moves``. They are *not* swapped:
    side 0 is still the player who just moved, side 1 the player to roll next (swap the two
    sides, ``results[:, ::-1]``, for the next player's view). An empty range means the roll
    has no legal move (the turn passes).
``steps`` (M, 4, 3) int8
    Per afterstate the steps of one move leading there: ``(from, to, hit)`` in the mover's
    coordinates (from 24 = entering, to -1 = bearing off); unused steps have ``from == -1``.
``features`` (M, F) float32
    One encoded row per position; the encodings are documented in :data:`ENCODINGS` and in
    src/nardy/features.hpp.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Union

import numpy as np

from nardy import _core, _validate
from nardy.errors import Error, InvalidDiceError, InvalidIdError, InvalidPositionError
from nardy.position import Position
from nardy.variants import BLACK, WHITE, Variant, as_variant

#: Encodings: name -> (width, description). See src/nardy/features.hpp for the exact units.
ENCODINGS: dict[str, tuple[int, str]] = {
    "tdgammon": (198, "TD-Gammon (Tesauro): per side 24 points x 4 units (n>=1, n>=2, n>=3, "
                      "(n-3)/2), bar/2, off/15; then 2 side-to-move units"),
    "gnubg": (200, "gnubg's raw base inputs: side not on roll then side on roll, 25 x 4 units "
                   "each (points n==1, n==2, n>=3, (n-3)/2; bar as a thermometer)"),
    "long": (198, "long nardy: per side 24 points x 4 units (n>=1, n>=2, n>=3, (n-3)/4), "
                  "off/15, pips/360; then 2 side-to-move units"),
    "shlem": (202, "Shlem: per side 24 points x 4 units (free f>=1, f>=2, (f-2)/4, prisoner), "
                   "reserves/3, hit out/15, longest blockade/12, closed facing points/12; "
                   "then 2 side-to-move units"),
    "plakoto": (244, "Plakoto: per side 24 points x 4 units of free checkers (f>=1, f>=2, f>=3, "
                     "(f-3)/2; a pinned checker is not free), 24 pinned-checker units, off/15; "
                     "then 2 side-to-move units"),
}

_ALIASES = {"td-gammon": "tdgammon", "td_gammon": "tdgammon", "td": "tdgammon",
            "gnubg200": "gnubg", "raw": "gnubg", "long-nardy": "long", "long_nardy": "long",
            "longnardy": "long", "nardy": "long"}

PositionsLike = Union[np.ndarray, Sequence[Position], Position]


def encoding_width(kind: str) -> int:
    """Number of floats a row of the encoding ``kind`` takes."""
    return ENCODINGS[_kind(kind)][0]


def default_encoding(variant: Variant | type[Variant] | str | None) -> str:
    """The variant's own encoding (``Variant.default_encoding``): ``tdgammon`` for
    backgammon, ``long`` for long nardy, ``shlem`` for Shlem, ``plakoto`` for Plakoto."""
    return as_variant(variant).default_encoding


def _kind(kind: str) -> str:
    if not isinstance(kind, str):
        raise Error(f"encoding must be a name, not {type(kind).__name__}")
    k = kind.strip().lower()
    k = _ALIASES.get(k, k)
    if k not in ENCODINGS:
        raise Error(f"unknown encoding {kind!r}; known: {', '.join(ENCODINGS)}")
    return k


# -- boards that remember what they are ------------------------------------------------------
class Boards(np.ndarray):
    """An (N, 2, 26) int8 array of rows that remembers its variant and which side of each row
    rolls next (``on_roll``: 0 for positions, 1 for afterstates as :func:`afterstates` returns
    them). :func:`to_array` and :func:`afterstates` return Boards; :func:`encode`,
    :func:`from_array` and the batch calls read the two facts from them, and refuse a variant
    that contradicts them. Indexing rows keeps them; any index that reaches
    into the sides (``b[:, ::-1]``, ``b[..., 0]``) forgets ``on_roll`` (None: then give it),
    and :meth:`swapped` flips the sides and ``on_roll`` together."""

    variant: Variant | None
    on_roll: int | None

    def __array_finalize__(self, obj: Any) -> None:
        self.variant = getattr(obj, "variant", None)
        self.on_roll = getattr(obj, "on_roll", None)

    def __getitem__(self, key: Any) -> Any:
        out = super().__getitem__(key)
        if isinstance(out, Boards) and not _rows_only(key):
            out.on_roll = None
        return out

    def swapped(self) -> Boards:
        """The rows from the other side's view (side 1 first), ``on_roll`` flipped."""
        out = np.ascontiguousarray(np.asarray(self)[:, ::-1]).view(Boards)
        out.variant = self.variant
        out.on_roll = None if self.on_roll is None else 1 - self.on_roll
        return out


def _rows_only(key: Any) -> bool:
    """The index selects rows and keeps both sides whole."""
    if isinstance(key, tuple):
        if any(k is Ellipsis or k is None for k in key):
            return False
        return all(isinstance(k, slice) and k == slice(None) for k in key[1:])
    return key is not Ellipsis and key is not None


def _boards(arr: np.ndarray, variant: Variant, on_roll: int) -> Boards:
    out = arr.view(Boards)
    out.variant = variant
    out.on_roll = on_roll
    return out


def _carried_variant(boards: Any, variant: Any, what: str = "rows") -> Variant:
    """The variant of the call: the one the rows carry, the one given, or backgammon; a
    contradiction between the two is an error that names both."""
    carried = getattr(boards, "variant", None) if isinstance(boards, Boards) else None
    if variant is None:
        return carried if carried is not None else as_variant(None)
    v = as_variant(variant)
    if carried is not None and carried != v:
        raise InvalidPositionError(f"these {what} are {carried.name} positions ({carried!r}), "
                                   f"not {v.name} ({v!r})")
    return v


# -- conversions ---------------------------------------------------------------------------
def as_boards(boards: Any, what: str = "positions") -> np.ndarray:
    """``boards`` as a C-contiguous (N, 2, 26) int8 array (a single (2, 26) row becomes N = 1).
    Integer arrays of any dtype are converted after a range check; anything else raises
    :class:`~nardy.InvalidPositionError`."""
    if isinstance(boards, np.ndarray) and boards.dtype == np.int8 and boards.ndim == 3 \
            and boards.shape[1:] == (2, 26) and boards.flags.c_contiguous:
        return boards
    try:
        arr = np.asarray(boards)
    except (TypeError, ValueError) as exc:
        raise InvalidPositionError(f"{what}: not an array of side arrays ({exc})") from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.integer) or arr.dtype == bool):
        if arr.size == 0 and arr.ndim == 1:
            arr = arr.reshape(0, 2, 26).astype(np.int8)
        else:
            raise InvalidPositionError(
                f"{what} must hold integers (int8 preferred), got dtype {arr.dtype}")
    if arr.ndim == 2 and arr.shape == (2, 26):
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[1:] != (2, 26):
        raise InvalidPositionError(
            f"{what} must have shape (N, 2, 26) (mover and opponent side arrays of 26), "
            f"got {arr.shape}")
    if arr.dtype != np.int8:
        if arr.size and (arr.min() < -1 or arr.max() > 15):
            raise InvalidPositionError(f"{what} hold counts outside -1..15")
        arr = arr.astype(np.int8)
    return np.ascontiguousarray(arr)


def _as_dice(dice: Any, n: int) -> np.ndarray:
    try:
        arr = np.asarray(dice)
    except (TypeError, ValueError):
        raise InvalidDiceError(f"dice must be (N, 2) integers 1..6, got {dice!r}") from None
    if arr.dtype == object or not np.issubdtype(arr.dtype, np.integer):
        if arr.size == 0 and n == 0:
            return np.zeros((0, 2), dtype=np.int8)
        raise InvalidDiceError(f"dice must be integers from 1 to 6, got dtype {arr.dtype}")
    if arr.shape == (2,):
        arr = np.broadcast_to(arr, (n, 2))
    if arr.ndim != 2 or arr.shape != (n, 2):
        raise InvalidDiceError(
            f"dice must have shape (N, 2) = ({n}, 2), one roll per position, or be one pair; "
            f"got {arr.shape}")
    if arr.size and (arr.min() < 1 or arr.max() > 6):
        bad = int(np.flatnonzero(((arr < 1) | (arr > 6)).any(axis=1))[0])
        raise InvalidDiceError(f"dice {bad} = {tuple(int(x) for x in arr[bad])}: dice must be "
                               f"integers from 1 to 6")
    return np.ascontiguousarray(arr, dtype=np.int8)


def _resolve(positions: PositionsLike, variant: Any) -> tuple[np.ndarray, Variant]:
    """(boards, variant) from an array (with ``variant``) or Position objects."""
    if isinstance(positions, Position):
        positions = [positions]
    if isinstance(positions, (list, tuple)) and positions and isinstance(positions[0], Position):
        v = positions[0].variant
        if variant is not None and as_variant(variant) != v:
            raise Error(f"positions are {v!r}, not {as_variant(variant)!r}")
        return to_array(positions), v
    v = _carried_variant(positions, variant, "positions")
    if isinstance(positions, Boards) and positions.on_roll == 1:
        raise Error("these rows are afterstates (side 1 rolls next): swap them first "
                    "(boards.swapped()) to use them as positions")
    return as_boards(positions), v


def to_array(positions: Iterable[Position]) -> np.ndarray:
    """(N, 2, 26) int8 rows ``[mover side, opponent side]`` of nardy Positions (their colours
    are dropped: keep ``[p.turn for p in positions]`` if you need them)."""
    keys = []
    variant = None
    for p in positions:
        if not isinstance(p, Position):
            raise InvalidPositionError(f"expected nardy.Position, got {type(p).__name__}")
        if variant is None:
            variant = p.variant
        elif p.variant != variant:
            raise InvalidPositionError(
                f"positions of different variants in one array: {variant!r} and {p.variant!r}")
        keys.append(p.key)
    arr = _core.batch_rows(keys, None if variant is None else variant.core_variant)
    return _boards(arr, variant if variant is not None else as_variant(None), 0)


def from_array(boards: Any, variant: Variant | type[Variant] | str | None = None,
               turn: int | Sequence[int] | np.ndarray = WHITE, *,
               swap: bool | None = None) -> list[Position]:
    """nardy Positions of (N, 2, 26) rows (validated; raises InvalidPositionError).

    ``turn``: the colour of the player on roll (one for all rows or one per row). ``swap``:
    the rows are afterstates as :func:`afterstates` returns them (side 1 to roll next), so
    side 1 becomes the player on roll (default: what :class:`Boards` say, else False).
    """
    v = _carried_variant(boards, variant)
    carried = boards.on_roll if isinstance(boards, Boards) else None
    if swap is None:
        swap = carried == 1
    else:
        swap = _validate.boolean(swap, "swap")
    if carried is not None and bool(swap) != (carried == 1):
        raise Error(f"these rows have side {carried} to roll next; swap={swap} contradicts it")
    arr = as_boards(boards, "boards")
    keys = _core.batch_keys(v.engine, arr, bool(swap))
    if isinstance(turn, np.ndarray) and turn.ndim == 0:
        turn = turn[()]  # a numpy scalar
    if isinstance(turn, np.ndarray) and turn.ndim != 1:
        raise InvalidPositionError(f"turn must be one colour or a 1-d array, got {turn.ndim}-d")
    if isinstance(turn, (list, tuple, np.ndarray)):
        turns = [_validate.color(t, "turn", error=InvalidPositionError) for t in
                 (turn.tolist() if isinstance(turn, np.ndarray) else turn)]
        if len(turns) != len(keys):
            raise InvalidPositionError(
                f"turn must be one colour or one per row ({len(keys)}), got {len(turns)}")
    else:
        turns = [_validate.color(turn, "turn", error=InvalidPositionError)] * len(keys)
    raw = Position._raw
    return [raw(v, k, t) for k, t in zip(keys, turns)]


# -- afterstates ---------------------------------------------------------------------------
def afterstates(positions: PositionsLike, dice: Any,
                variant: Variant | type[Variant] | str | None = None, *,
                steps: bool = False, threads: int = 1) -> tuple[np.ndarray, ...]:
    """Every distinct resulting position of N (position, roll) pairs.

    ``positions``: (N, 2, 26) integer array (see the module docstring) of ``variant``
    (default backgammon), or a list of nardy Positions (their variant is used). ``dice``: (N, 2)
    or one pair for all. Returns ``(results, offsets)``: results (M, 2, 26) int8 (unswapped:
    side 0 just moved) and offsets (N + 1,) int64, or ``(results, offsets, steps)`` with
    ``steps=True`` (steps (M, 4, 3) int8). The results are :class:`Boards` that remember the
    variant and that side 1 rolls next, so :func:`encode` encodes them the right way round.
    The arrays own C++ memory handed over without a copy. ``threads`` > 1 splits the rows over
    C++ threads (0: all cores).
    """
    boards, v = _resolve(positions, variant)
    d = _as_dice(dice, len(boards))
    out = _core.batch_afterstates(v.engine, boards, d, bool(steps), _threads(threads))
    return (_boards(out[0], v, 1), *out[1:])


def afterstate_keys(positions: PositionsLike, dice: Any,
                    variant: Variant | type[Variant] | str | None = None, *,
                    threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The results of :func:`afterstates` alone, in the same order, as 32-byte position keys.

    Returns ``(keys, offsets)``: keys (M, 32) uint8, row k the key of afterstate k as the core
    holds it (unswapped: side 0 just moved), offsets (N + 1,) int64. Writing the position as
    it is, with no board rows and no steps, keeps the call close to the core's own listing
    rate. :func:`keys_to_boards` unpacks keys into rows; :func:`afterstate_steps` recovers the
    steps of the rows whose steps are wanted.
    """
    boards, v = _resolve(positions, variant)
    d = _as_dice(dice, len(boards))
    keys, offsets = _core.batch_afterstate_keys(v.engine, boards, d, _threads(threads))
    return keys, offsets


def keys_to_boards(keys: Any, variant: Variant | type[Variant] | str | None = None) -> Boards:
    """(M, 2, 26) int8 afterstate rows (side 1 to roll next) of (M, 32) uint8 keys from
    :func:`afterstate_keys`; a key that is not a position of the variant raises
    InvalidPositionError."""
    v = as_variant(variant)
    arr = keys if isinstance(keys, np.ndarray) else np.asarray(keys)
    if arr.dtype != np.uint8:
        raise InvalidPositionError(f"keys must be a uint8 array, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != 32:
        raise InvalidPositionError(f"keys must have shape (M, 32), got {arr.shape}")
    raw = [bytes(k) for k in np.ascontiguousarray(arr)]
    rows = _core.batch_rows(raw, v.core_variant)
    if _core.batch_keys(v.engine, rows, False) != raw:  # (validates every row)
        raise InvalidPositionError("keys hold bits outside the position's slots")
    return _boards(rows, v, 1)


def afterstate_steps(positions: PositionsLike, dice: Any,
                     variant: Variant | type[Variant] | str | None = None, *,
                     threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The steps of the afterstates of the rows given, ``(steps, offsets)``: steps (M, 4, 3)
    int8 as :func:`afterstates` gives them, in the order of :func:`afterstate_keys`. Pass only
    the rows whose steps are wanted: they are listed again."""
    out = afterstates(positions, dice, variant, steps=True, threads=threads)
    return out[2], out[1]


def afterstate_features(positions: PositionsLike, dice: Any, kind: str | None = None,
                        variant: Variant | type[Variant] | str | None = None, *,
                        results: bool = False, threads: int = 1) -> tuple[np.ndarray, ...]:
    """The bot loop "evaluate every child" in one call: afterstates encoded straight into a
    (M, F) float32 matrix, without the int8 round trip. Each row is encoded with side 1 (the
    player to roll next) on roll. Returns ``(features, offsets)``, or
    ``(results, features, offsets)`` with ``results=True``. ``kind`` defaults to the variant's
    encoding (:func:`default_encoding`)."""
    boards, v = _resolve(positions, variant)
    d = _as_dice(dice, len(boards))
    k = _kind(kind) if kind is not None else default_encoding(v)
    return _core.batch_afterstate_features(v.engine, boards, d, k, bool(results),
                                           _threads(threads))


def encode(boards: PositionsLike, kind: str | None = None, on_roll: int | Any = None, *,
           out: np.ndarray | None = None) -> np.ndarray:
    """Encodes (N, 2, 26) rows into a (N, F) float32 matrix for a neural net.

    ``kind``: the encoding (default: the variant's own, :func:`default_encoding`; backgammon's
    for a plain array). ``on_roll``: which side of each row rolls next: 0 for positions (the
    mover, side 0), 1 for afterstates as :func:`afterstates` returns them, or a (N,) array of
    0/1. :class:`Boards` (what :func:`to_array` and :func:`afterstates` return) say it
    themselves, so it need not be given (when given, it is taken as given); a plain array
    means positions (0) unless told. ``out``: an optional preallocated C-contiguous (N, F) float32 array to fill
    (returned).
    """
    if isinstance(boards, Position) or (isinstance(boards, (list, tuple)) and boards
                                        and isinstance(boards[0], Position)):
        boards = to_array([boards] if isinstance(boards, Position) else boards)
    carried = boards.on_roll if isinstance(boards, Boards) else 0
    variant = boards.variant if isinstance(boards, Boards) else None
    arr = as_boards(boards, "boards")
    k = _kind(kind) if kind is not None else default_encoding(variant)
    if on_roll is None:
        if carried is None:
            raise Error("these rows do not say which side rolls next (an index reached into "
                        "the sides): give on_roll=0 (positions) or 1 (afterstates)")
        on_roll = carried
    if isinstance(on_roll, (int, np.integer)) and not isinstance(on_roll, bool):
        roll: Any = int(on_roll)
        if roll not in (0, 1):
            raise Error(f"on_roll must be 0 or 1 (or one per row), got {on_roll!r}")
    else:
        r = np.asarray(on_roll)
        if r.shape != (len(arr),) or not np.issubdtype(r.dtype, np.integer) and r.dtype != bool:
            raise Error(f"on_roll must be 0, 1 or a ({len(arr)},) array of 0/1, got shape "
                        f"{r.shape} dtype {r.dtype}")
        if r.size and not np.isin(r, (0, 1)).all():
            raise Error("on_roll values must be 0 or 1")
        roll = np.ascontiguousarray(r, dtype=np.uint8)
    if variant is not None and variant.reserve_place is not None:
        # checkers still to enter (-n in slot 25) are encoded as on the bar
        waiting = np.minimum(arr[:, :, 25], 0)
        if waiting.any():
            arr = arr.copy()
            arr[:, :, 24] -= waiting
            arr[:, :, 25] -= waiting
    # The rows' variant (when they carry one) checks them: its engine knows whether a held
    # checker (-1) is one of its rows; the encodings without a unit for it count it as one
    # checker of its owner.
    return _core.batch_encode(arr, k, roll, out, None if variant is None else variant.engine)


# -- gnubg Position IDs and XGIDs -----------------------------------------------------------
def _gnubg_variant(v: Variant, what: str) -> Variant:
    if not v.gnubg_ids:
        raise InvalidIdError(f"{what} describes a backgammon board, not a {v.name} position")
    return v


def _id_array(ids: Any, what: str) -> np.ndarray:
    """A 1-d numpy string array of ``ids`` (a str or bytes array is taken as it is)."""
    if isinstance(ids, (str, bytes)):
        raise InvalidIdError(f"{what} must be a sequence of IDs, not one {type(ids).__name__}")
    if isinstance(ids, np.ndarray):
        arr = ids
    else:
        try:
            arr = np.asarray(ids if isinstance(ids, (list, tuple)) else list(ids))
        except (TypeError, ValueError) as exc:
            raise InvalidIdError(f"{what} must be a sequence of str ({exc})") from None
    if arr.size == 0 and arr.dtype.kind not in "US":
        arr = np.zeros(0, dtype="<U14").reshape(arr.shape[:1] if arr.ndim else (0,))
    if arr.ndim != 1 or arr.dtype.kind not in "US":
        raise InvalidIdError(f"{what} must be a 1-d sequence of str, got an array of shape "
                             f"{arr.shape} and dtype {arr.dtype}")
    return arr


def to_position_ids(boards: PositionsLike,
                    variant: Variant | type[Variant] | str | None = None) -> np.ndarray:
    """The gnubg Position IDs of (N, 2, 26) rows (side 0 the player on roll), or of a list of
    Positions, as a (N,) ``'<U14'`` array (elements compare equal to ``str``). Rows are
    validated (:class:`~nardy.InvalidPositionError`). The work is C++ with the GIL released.
    """
    arr, v = _resolve(boards, variant)
    _gnubg_variant(v, "a gnubg Position ID")
    return _core.batch_position_ids(v.engine, arr)  # type: ignore[no-any-return]


def from_position_ids(ids: Any, variant: Variant | type[Variant] | str | None = None) -> Boards:
    """(N, 2, 26) int8 :class:`Boards` (side 0 the player on roll) of N gnubg Position IDs (a
    sequence of str, or a numpy ``U``/``S`` array). A malformed ID raises
    :class:`~nardy.InvalidIdError` naming its index. C++ with the GIL released."""
    v = _gnubg_variant(as_variant(variant), "a gnubg Position ID")
    arr = _core.batch_from_position_ids(v.engine, _id_array(ids, "ids"))
    return _boards(arr, v, 0)


def _xgid_turns(turn: Any, n: int) -> np.ndarray:
    """XGID turns (1: the bottom player, white, is on roll; -1: black) of colours."""
    if isinstance(turn, np.ndarray) and turn.ndim == 0:
        turn = turn[()]
    if isinstance(turn, (list, tuple, np.ndarray)):
        colors = np.asarray(turn)
        if colors.shape != (n,) or colors.dtype.kind not in "iu":
            raise InvalidIdError(f"turn must be one colour or ({n},) colours, got shape "
                                 f"{colors.shape} and dtype {colors.dtype}")
        if n and not np.isin(colors, (WHITE, BLACK)).all():
            raise InvalidIdError("turn values must be 0 (white) or 1 (black)")
        return np.where(colors == WHITE, 1, -1).astype(np.int8)
    c = _validate.color(turn, "turn", error=InvalidIdError)
    return np.full(n, 1 if c == WHITE else -1, dtype=np.int8)


def to_xgids(boards: PositionsLike, variant: Variant | type[Variant] | str | None = None,
             turn: int | Sequence[int] | np.ndarray = WHITE) -> np.ndarray:
    """XGIDs of (N, 2, 26) rows (side 0 the player on roll, of colour ``turn``: one colour or
    one per row; white is XGID's bottom player), as :meth:`Position.to_xgid` writes them (cube
    centred at 1, money play, no dice). A (N,) numpy unicode array. C++, GIL released."""
    arr, v = _resolve(boards, variant)
    _gnubg_variant(v, "an XGID")
    return _core.batch_xgids(v.engine, arr, _xgid_turns(turn, len(arr)))  # type: ignore[no-any-return]


#: the columns of :func:`from_xgids`'s ``fields``
XGID_FIELDS = ("cube", "cube_position", "turn", "dice", "action", "score_bottom", "score_top",
               "rules", "match_length", "max_cube")


def from_xgids(ids: Any, variant: Variant | type[Variant] | str | None = None, *,
               fields: bool = False) -> tuple[Any, ...]:
    """The positions of N XGIDs: ``(boards, turn)``, :class:`Boards` from the view of the
    player on roll and their colours as an (N,) int8 array (white = XGID's bottom player).
    With ``fields=True`` also a dict of arrays with the other fields (:data:`XGID_FIELDS`:
    cube and max_cube as values, cube_position and turn as written (1 bottom, -1 top), dice
    (N, 2) as written, action 0 none / 1 D / 2 B / 3 R, scores, rules, match_length).
    A malformed XGID raises :class:`~nardy.InvalidIdError` naming its index."""
    v = _gnubg_variant(as_variant(variant), "an XGID")
    arr, raw = _core.batch_from_xgids(v.engine, _id_array(ids, "xgids"))
    turn = np.where(raw[:, 2] == 1, WHITE, BLACK).astype(np.int8)
    boards = _boards(arr, v, 0)
    if not fields:
        return boards, turn
    cols = {
        "cube": np.left_shift(1, raw[:, 0]), "cube_position": raw[:, 1], "turn": raw[:, 2],
        "dice": raw[:, 3:5], "action": raw[:, 5], "score_bottom": raw[:, 6],
        "score_top": raw[:, 7], "rules": raw[:, 8], "match_length": raw[:, 9],
        "max_cube": np.left_shift(1, raw[:, 10]),
    }
    return boards, turn, cols


def _threads(threads: int) -> int:
    return _validate.integer(threads, "threads (0: all cores)", 0,  # type: ignore[no-any-return]
                             _validate.MAX_THREADS)


__all__ = ["ENCODINGS", "XGID_FIELDS", "Boards", "afterstate_features", "afterstate_keys",
           "afterstate_steps", "afterstates", "as_boards", "default_encoding", "encode",
           "encoding_width", "from_array", "from_position_ids", "from_xgids", "keys_to_boards",
           "to_array", "to_position_ids", "to_xgids"]
