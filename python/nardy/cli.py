"""The ``nardy`` command line.

Each subcommand is one ``_add_<name>(subparsers)`` function in :data:`COMMANDS`, which builds
its parser and sets ``func``; a new subcommand is one more such function. Every command
prints plain text for people, or one JSON document with ``--json`` for scripts, and exits 2
with a one-line message for bad input.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from nardy._version import __version__
from nardy.errors import Error, InvalidDiceError
from nardy.position import Position
from nardy.variants import BLACK, VARIANTS, WHITE, Variant, as_variant, find_variant

#: The thread count every command uses unless told otherwise (0: all cores).
DEFAULT_THREADS = 1

POSITION_HELP = ("a position in any format: the nardy text form (any variant, e.g. "
                 "'backgammon W:24x2,13x5,8x3,6x5 B:24x2,13x5,8x3,6x5 w'), a gnubg Position ID "
                 "(optionally ID:MatchID), an XGID, a FIBS board: line, or a variant name for its "
                 "starting position")
FORMATS = ("text", "position-id", "xgid", "fibs", "json")
#: Match record formats: name -> (reader, writer) in nardy.formats. "nardy" is the nardy
#: record, for every variant (.mat and SGF record backgammon only).
RECORD_FORMATS = {"mat": ("read_mat", "write_mat"), "sgf": ("read_sgf", "write_sgf"),
                  "nardy": ("read_record", "write_record")}


class CliError(Error):
    """Bad command-line input (a file that cannot be read, an option that does not fit)."""


# ---------------------------------------------------------------------------------------
# Positions in any format
# ---------------------------------------------------------------------------------------


class ReadPosition:
    """A position read from a string, with the game state its format carried."""

    def __init__(self, position: Position, fmt: str, dice: tuple[int, int] | None = None,
                 cube: tuple[int, int | None] | None = None,
                 notes: tuple[str, ...] = ()) -> None:
        self.position = position
        self.format = fmt
        self.dice = dice
        self.cube = cube
        self.notes = notes  # the game state around the position (match score, offers)


def read_position(text: str) -> ReadPosition:
    """Recognises the format of ``text`` and reads it with :func:`nardy.parse_position`,
    keeping the game state the format carries (dice, cube, match score). Colours of the gnubg
    formats, which have none: the Position ID's player on roll is white; XGID's bottom player
    (X) and FIBS's "player" are white."""
    from nardy.formats import decode_xgid, parse_fibs_board
    from nardy.position import parse_position

    if not isinstance(text, str) or not text.strip():
        raise CliError("empty position")
    s = text.strip()
    if " W:" in s or " B:" in s:
        from nardy.formats.text import from_text

        st = from_text(s)
        cube = None if st.cube is None else (st.cube, st.cube_owner)
        notes = []
        if st.match_length is not None and st.score is not None:
            what = f"match to {st.match_length}" if st.match_length else "money"
            notes.append(f"{what}: white {st.score[0]:g}, black {st.score[1]:g}"
                         + (", Crawford" if st.crawford else ""))
        if st.offer:
            notes.append(f"offer: {st.offer}")
        if st.over is not None:
            notes.append("over: " + (st.over if isinstance(st.over, str) else
                                     ("white" if st.over == WHITE else "black") + " won"))
        return ReadPosition(st.position, "text", st.dice, cube, tuple(notes))
    try:
        variant = find_variant(s)
    except Error:
        variant = None
    if variant is not None:
        return ReadPosition(Position(variant), "variant")
    if not s.upper().startswith("XGID=") and s.count(":") >= 9 and not s.startswith("board:"):
        s = "XGID=" + s  # the prefix is optional in XGID, not in parse_position
    try:
        pos = parse_position(s)
    except Error as e:
        raise CliError(f"cannot read {text!r} as a position: {e}; or a variant name for its "
                       "starting position") from None
    if s.upper().startswith("XGID="):
        r = decode_xgid(s)
        xdice = None if r.dice == (0, 0) else (int(r.dice[0]), int(r.dice[1]))
        owner = None if r.cube_position == 0 else (WHITE if r.cube_position == 1 else BLACK)
        return ReadPosition(pos, "xgid", xdice, (r.cube, owner))
    if s.startswith("board:"):
        b = parse_fibs_board(s)
        d = b.player_dice if b.player_on_roll else b.opponent_dice
        return ReadPosition(pos, "fibs", None if d == (0, 0) else (int(d[0]), int(d[1])))
    return ReadPosition(pos, "position-id")


def write_position(read: ReadPosition, fmt: str) -> Any:
    """``read`` in format ``fmt`` (a string; a dict for json)."""
    pos = read.position
    if fmt == "text":
        return _text(read)
    if fmt == "json":
        from nardy.formats.jsonform import to_json

        return to_json(pos)
    if not pos.variant.gnubg_ids:
        raise CliError(f"{fmt}: only backgammon positions have this format; "
                       f"this is {pos.variant.name} (use text or json)")
    mover, opponent = pos.sides()
    if fmt == "position-id":
        from nardy.formats import encode_position_id

        return encode_position_id(mover, opponent)
    if fmt == "xgid":
        from nardy.formats import XgidRecord, encode_xgid

        cube, owner = read.cube or (1, None)
        turn = 1 if pos.turn == WHITE else -1
        position = 0 if owner is None else (1 if owner == WHITE else -1)
        return encode_xgid(XgidRecord(mover, opponent, cube=cube, cube_position=position,
                                      turn=turn, dice=read.dice or (0, 0)))
    if fmt == "fibs":
        from nardy.formats.fibs import FibsBoard, format_fibs_board

        white, black = pos.side(WHITE), pos.side(BLACK)
        dice = read.dice or (0, 0)
        on_roll = pos.turn == WHITE
        b = FibsBoard.from_sides(white, black, player_on_roll=on_roll,
                                 player_dice=dice if on_roll else (0, 0),
                                 opponent_dice=(0, 0) if on_roll else dice,
                                 cube=(read.cube or (1, None))[0])
        return format_fibs_board(b)
    raise CliError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")


def _text(read: ReadPosition) -> str:
    from nardy.formats.text import TextState

    cube, owner = read.cube if read.cube else (None, None)
    return TextState(read.position, dice=read.dice, cube=cube, cube_owner=owner).to_text()


def _named_variant(name: str) -> Variant:
    """The variant a command names: a name or alias, or the text form's name with rule
    options (``gul-bara[stopped_cascade=to-opponent]``)."""
    if "[" in name:
        from nardy.formats.text import _parse_variant

        return _parse_variant(name)
    return as_variant(name)


def _position_option(variant_name: str, text: str | None) -> Position:
    """The --position of perft, moves and rollout: any format, of the variant named."""
    variant = _named_variant(variant_name)
    if text is None:
        return Position(variant)
    read = read_position(text)
    pos = read.position
    if read.format in ("xgid", "fibs", "position-id") and variant.gnubg_ids:
        # gnubg's formats name no variant: the board is the one the command names
        return Position.from_sides(variant, *pos.sides(), pos.turn)
    if pos.variant.name != variant.name:
        raise CliError(f"--position is a {pos.variant.name} position, not {variant.name}")
    if pos.variant.rules not in (variant.rules, type(pos.variant)().rules):
        # rule options in the position's text that the command would otherwise drop
        raise CliError(f"--position names the rules {pos.variant!r}, the command "
                       f"{variant!r}: give the rule options in the variant argument, e.g. "
                       "'gul-bara[stopped_cascade=to-opponent]'")
    return Position.from_sides(variant, *pos.sides(), pos.turn)  # the variant's rule options


def _dice(text: str) -> tuple[int, int]:
    digits = text.replace("-", "")
    if len(digits) != 2 or not all("1" <= c <= "6" for c in digits):
        raise InvalidDiceError(f"dice must be two digits 1-6 such as 31 or 3-1, got {text!r}")
    return int(digits[0]), int(digits[1])


def _print_json(doc: Any) -> None:
    print(json.dumps(doc, indent=2, ensure_ascii=False))


# ---------------------------------------------------------------------------------------
# Progress bar
# ---------------------------------------------------------------------------------------


class ProgressBar:
    """A one-line bar on ``stream``: percentage, done/total, rate and time left, redrawn by
    ``bar(done, total)``. With ``count`` (e.g. perft's nodes so far, in ``count_unit``) the
    rate is of the count; the time left is always from the share of work done."""

    def __init__(self, label: str, unit: str, count_unit: str | None = None,
                 stream: Any = None, width: int = 24) -> None:
        self.label = label
        self.unit = unit
        self.count_unit = count_unit
        self.stream = sys.stderr if stream is None else stream
        self.width = width
        self.t0 = time.perf_counter()
        self.finished = False

    def __call__(self, done: int, total: int, count: int | None = None) -> None:
        frac = min(1.0, done / total) if total else 1.0
        secs = time.perf_counter() - self.t0
        filled = int(self.width * frac)
        left = secs * (total - done) / done if done else math.inf
        if count is None or self.count_unit is None:
            speed = f"{_rate(done / secs if secs > 0 else math.inf)} {self.unit}/s"
        else:
            speed = (f"{count:,} {self.count_unit}, "
                     f"{_rate(count / secs if secs > 0 else math.inf)} {self.count_unit}/s")
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {100 * frac:5.1f}% "
            f"{done:,}/{total:,} {self.unit}, {speed}, ETA {_duration(left)}  ")
        if done >= total and not self.finished:
            self.finished = True
            self.stream.write("\n")
        self.stream.flush()


def _rate(x: float) -> str:
    if not math.isfinite(x):
        return "-"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _duration(secs: float) -> str:
    if not math.isfinite(secs):
        return "--:--"
    secs = int(round(secs))
    h, rest = divmod(secs, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def _progress(label: str, enabled: bool | None, unit: str,
              count_unit: str | None = None) -> ProgressBar | None:
    if enabled is None:
        enabled = sys.stderr.isatty()
    return ProgressBar(label, unit, count_unit) if enabled else None


def _perft_with_bar(pos: Position, depth: int, rolls: int, threads: int,
                    bar: ProgressBar, chunks: int = 32, table_mb: int = 0) -> int:
    """perft cut into ``chunks`` calls of the core (each on ``threads`` threads, the GIL
    released, one transposition table for all), the bar redrawn after each with the nodes
    counted so far."""
    from nardy import _core
    from nardy.parallel import perft_tasks
    from nardy.perft import table as perft_table

    table = perft_table(table_mb)
    width = threads or _core.hardware_threads()
    keys, weights, remaining = perft_tasks(pos, depth, rolls, max(chunks * width, 64))
    chunks = max(1, min(chunks, len(keys)))
    total = 0
    bar(0, chunks, 0)
    for c in range(chunks):
        lo, hi = len(keys) * c // chunks, len(keys) * (c + 1) // chunks
        total += int(_core.perft_tasks(pos.variant.engine, keys[lo:hi], weights[lo:hi],
                                       remaining, rolls == 36, threads, None, table))
        bar(c + 1, chunks, total)
    return total


# ---------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------


def _cmd_show(args: argparse.Namespace) -> int:
    from nardy._geometry import pip_counts
    from nardy.textboard import board

    read = read_position(args.position)
    pos = read.position
    dice = _dice(args.dice) if args.dice else read.dice
    if args.png:
        try:
            import cairosvg  # type: ignore[import-not-found, import-untyped, unused-ignore]
        except ImportError:
            raise CliError("--png needs the optional rasteriser cairosvg "
                           "(pip install 'nardy[png]' or pip install cairosvg); "
                           "--svg works without it") from None
    if args.svg or args.png:
        from nardy.svg import board as svg_board

        svg = svg_board(pos, dice=dice, cube=read.cube, flip=args.flip, size=args.size,
                        notes=read.notes)
        if args.svg:
            _write(args.svg, svg)
        if args.png:
            try:
                cairosvg.svg2png(bytestring=svg.encode(), write_to=args.png)
            except OSError as e:
                raise CliError(f"cannot write {args.png}: {e.strerror or e}") from None
    if args.json:
        pips = pip_counts(pos)
        _print_json({
            "variant": pos.variant.name, "format": read.format, "text": _text(read),
            "turn": "white" if pos.turn == WHITE else "black",
            "white": list(pos.side(WHITE)), "black": list(pos.side(BLACK)),
            "pips": None if pips is None else {"white": pips[WHITE], "black": pips[BLACK]},
            "dice": None if dice is None else list(dice),
            "cube": None if read.cube is None else {
                "value": read.cube[0],
                "owner": None if read.cube[1] is None else
                ("white" if read.cube[1] == WHITE else "black")},
            "over": pos.is_game_over(), "notes": list(read.notes),
        })
        return 0
    # A terminal that cannot show the checker marks gets the ASCII board, not an error.
    ascii_only = args.ascii or not _can_print("○●◌◍")
    print(board(pos, ascii=ascii_only, flip=args.flip, dice=dice, cube=read.cube,
                notes=read.notes))
    return 0


def _can_print(text: str) -> bool:
    try:
        text.encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror or e}") from None


def _read_file(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read()
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise CliError(f"cannot read {path}: not UTF-8 text") from None


def _record_format(path: str, given: str | None, what: str) -> str:
    if given:
        return given
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext in RECORD_FORMATS:
        return ext
    raise CliError(f"cannot tell the record format of {what} {path!r} from its extension; "
                   f"give --{'from' if what == 'input' else 'to'} "
                   + " or ".join(RECORD_FORMATS))


def _cmd_convert(args: argparse.Namespace) -> int:
    src = args.source
    is_record = args.source_format in RECORD_FORMATS or (
        args.source_format is None and (os.path.splitext(src)[1].lower().lstrip(".")
                                        in RECORD_FORMATS or os.path.isfile(src)))
    if is_record:
        return _convert_record(args)
    if args.source_format is not None:
        raise CliError(f"--from {args.source_format}: positions are recognised by their "
                       "format; --from is for match records (mat, sgf)")
    read = read_position(src)
    formats = [args.to] if args.to else [
        f for f in FORMATS if f != "json" and (f == "text" or read.position.variant.gnubg_ids)]
    for f in formats:
        if f in RECORD_FORMATS:
            raise CliError(f"--to {f} is a match record format; the source is a position")
    out = {f: write_position(read, f) for f in formats}
    if args.json:
        _print_json(out if len(formats) > 1 or args.to != "json" else out["json"])
    elif args.to == "json":
        _print_json(out["json"])
    elif args.to:
        print(out[args.to])
    else:
        for f in formats:
            print(f"{f}: {out[f]}")
    if args.output:
        _write(args.output, (json.dumps(out[args.to], indent=2) if args.to == "json"
                             else str(out[formats[0]])) + "\n")
    return 0


def _convert_record(args: argparse.Namespace) -> int:
    import nardy.formats

    src_fmt = _record_format(args.source, args.source_format, "input")
    text = _read_file(args.source)
    if args.to is None and args.output is None and src_fmt not in ("mat", "sgf"):
        raise CliError(f"give the format to write: --to {' or '.join(RECORD_FORMATS)}, "
                       "or -o FILE with its extension")
    dst_fmt = args.to or (_record_format(args.output, None, "output") if args.output
                          else ("sgf" if src_fmt == "mat" else "mat"))
    if dst_fmt not in RECORD_FORMATS:
        raise CliError(f"--to {dst_fmt}: a match record converts to "
                       + ", ".join(RECORD_FORMATS))
    record = getattr(nardy.formats, RECORD_FORMATS[src_fmt][0])(text)
    out = getattr(nardy.formats, RECORD_FORMATS[dst_fmt][1])(record)
    if args.output:
        _write(args.output, out)
    if args.json:
        _print_json({"from": src_fmt, "to": dst_fmt, "output": args.output,
                     "text": None if args.output else out})
    elif not args.output:
        sys.stdout.write(out)
    return 0


def _cmd_variants(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for cls in VARIANTS:
        rows.append({
            "name": cls.name, "aliases": list(cls.aliases),
            "description": (cls.__doc__ or "").strip().split("\n")[0],
            "options": {k: {"default": d, "allowed": list(a)} for k, (d, a) in cls.options.items()},
        })
    if args.json:
        _print_json(rows)
        return 0
    for r in rows:
        print(f"{r['name']}: {r['description']}")
        if r["aliases"]:
            print(f"  aliases: {', '.join(r['aliases'])}")
        for k, o in r["options"].items():
            allowed = ", ".join(str(a) for a in o["allowed"])
            if len(allowed) > 50:
                allowed = f"{o['allowed'][0]}..{o['allowed'][-1]}"
            print(f"  {k} = {o['default']}  ({allowed})")
    return 0


def _cmd_perft(args: argparse.Namespace) -> int:
    from nardy.parallel import perft_threads
    from nardy.perft import MAX_TABLE_MB, divide

    pos = _position_option(args.variant, args.position)
    if args.depth < 0:
        raise CliError(f"depth must be >= 0, got {args.depth}")
    if args.threads < 0:
        raise CliError(f"threads must be >= 0 (0: all cores), got {args.threads}")
    if not 0 <= args.table_mb <= MAX_TABLE_MB:
        raise CliError(f"--table-mb must be from 0 to {MAX_TABLE_MB}, got {args.table_mb}")
    t0 = time.perf_counter()
    rows = None
    if args.divide:
        rows = divide(pos, args.depth, args.rolls, table_mb=args.table_mb)
        total = sum(n for _, n in rows)
    elif pos.variant.sequence_turns:
        # the turn number matters (Gul bara's cascade): counted as nardy.perft counts, the
        # start on each player's first turn, the root's whole turns split over the threads
        total = perft_threads(pos, args.depth, args.rolls, args.threads)
    else:
        bar = _progress("perft", args.progress, "chunks", "nodes")
        if bar is None or args.depth == 0:
            total = perft_threads(pos, args.depth, args.rolls, args.threads,
                                  table_mb=args.table_mb)
        else:
            total = _perft_with_bar(pos, args.depth, args.rolls, args.threads, bar,
                                    table_mb=args.table_mb)
    secs = time.perf_counter() - t0
    if args.json:
        doc: dict[str, Any] = {"variant": pos.variant.name, "depth": args.depth,
                               "rolls": args.rolls, "nodes": total, "seconds": secs}
        if rows is not None:
            doc["divide"] = [{"dice": list(d), "nodes": n} for d, n in rows]
        _print_json(doc)
        return 0
    for (d1, d2), n in rows or ():
        print(f"{d1}-{d2}: {n}")
    print(f"perft {args.depth} ({args.rolls} rolls, {pos.variant.name}): {total}")
    print(f"time {secs:.3f} s, {total / secs if secs > 0 else float('inf'):,.0f} nodes/s")
    return 0


def _cmd_moves(args: argparse.Namespace) -> int:
    from nardy.perft import LATE_TURN

    pos = _position_option(args.variant, args.position)
    dice = _dice(args.dice)
    if args.turn is not None and args.turn < 1:
        raise CliError(f"--turn must be >= 1, got {args.turn}")
    if pos.variant.sequence_turns:
        # the whole turn (Gul bara's cascade, Acey-deucey's 1-2 with its named double), on
        # the turn number a game would have: 1 at the start, a late turn elsewhere
        turn = args.turn if args.turn is not None else \
            1 if pos == Position.start(pos.variant) else LATE_TURN
        moves = pos.turn_moves(dice, turn)
    else:
        moves = pos.legal_moves(dice)
    names = [m.notation(pos.variant, pos.turn) for m in moves]
    if args.json:
        _print_json({"variant": pos.variant.name, "dice": list(dice), "count": len(names),
                     "moves": names})
        return 0
    for n in names:
        print(n)
    print(f"{len(names)} moves")
    return 0


def _cmd_rollout(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from nardy.rollout import rollout

    pos = _position_option(args.variant, args.position)
    if args.games < 1:
        raise CliError(f"games must be >= 1, got {args.games}")
    if args.threads < 0:
        raise CliError(f"threads must be >= 0 (0: all cores), got {args.threads}")
    builtin = args.policy in ("random", "greedy")
    if builtin and (args.variance_reduction or args.plies):
        raise CliError("--variance-reduction and --plies need an evaluator policy "
                       "(race, pubeval, long_nardy, gnubg)")
    extra = {} if builtin else {"plies": args.plies,
                                "variance_reduction": args.variance_reduction}
    bar = _progress("rollout", args.progress, "games")
    if bar:
        bar(0, args.games)
    # Chunks of trials, merged exactly: the same counts as one call, with a progress bar.
    chunk = (max(1000, args.games // 50) if builtin else 512) if bar else args.games
    if bar and 0 < args.quasi_random <= 3:  # whole blocks of the quasi-random design
        chunk = -(-chunk // 36**args.quasi_random) * 36**args.quasi_random
    result = None
    t0 = time.perf_counter()
    for first in range(0, args.games, chunk):
        n = min(chunk, args.games - first)
        part = rollout(pos, n, args.policy, seed=args.seed, threads=args.threads,
                       first_trial=first, quasi_random=args.quasi_random, **extra)
        result = part if result is None else result.merge(part)
        if bar:
            bar(first + n, args.games)
    assert result is not None
    result = replace(result, seconds=time.perf_counter() - t0)
    if args.json:
        _print_json({"variant": result.variant, "policy": result.policy, "seed": result.seed,
                     "games": result.games, "kinds": list(result.kinds),
                     "wins": [list(w) for w in result.wins], "draws": result.draws,
                     "unfinished": result.unfinished, "mean": result.mean,
                     "stderr": None if math.isnan(result.stderr) else result.stderr,
                     "plies": result.plies, "seconds": result.seconds,
                     "threads": args.threads, "quasi_random": result.quasi_random,
                     "variance_reduction": result.variance_reduction,
                     "raw_mean": result.raw_mean,
                     "raw_stderr": None if math.isnan(result.raw_stderr)
                     else result.raw_stderr})
        return 0
    print(result.summary())
    return 0


# ---------------------------------------------------------------------------------------
# The parser
# ---------------------------------------------------------------------------------------


def _json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="one JSON document on stdout")


def _threads_flag(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--threads", type=int, default=DEFAULT_THREADS,
                   help=f"C++ threads ({what}; default {DEFAULT_THREADS}, 0: all cores)")


def _progress_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar with rate and time left on stderr "
                        "(default: when stderr is a terminal)")


def _variant_arg(p: argparse.ArgumentParser) -> None:
    names = ", ".join(cls.name for cls in VARIANTS)
    p.add_argument("variant", help=f"variant name or alias ({names}; see 'nardy variants'), "
                   "with rule options as the text form writes them, e.g. "
                   "'gul-bara[stopped_cascade=to-opponent]'")


def _add_show(sub: Any) -> None:
    p = sub.add_parser("show", help="draw a position: text board, pip counts, whose turn",
                       description="Draws a position given in any format.")
    p.add_argument("position", help=POSITION_HELP)
    p.add_argument("--svg", metavar="FILE", help="also write an SVG picture")
    p.add_argument("--png", metavar="FILE",
                   help="also write a PNG picture (needs cairosvg: pip install 'nardy[png]')")
    p.add_argument("--size", type=int, default=480, help="picture width in pixels (480)")
    p.add_argument("--ascii", action="store_true", help="ASCII only (O and X for the checkers)")
    p.add_argument("--flip", action="store_true", help="seen from black's side")
    p.add_argument("--dice", help="a roll to show, e.g. 31")
    _json_flag(p)
    p.set_defaults(func=_cmd_show)


def _add_convert(sub: Any) -> None:
    p = sub.add_parser(
        "convert", help="convert a position between formats, or a match record "
                        "(.mat, SGF, .nardy)",
        description="A position prints in every format it has (or the one of --to); a match "
                    "record file (.mat, .sgf, or .nardy for every variant) is written in the "
                    "format of --to or of the -o file's extension (.mat and .sgf: the other "
                    "of the two by default).")
    p.add_argument("source", help=POSITION_HELP + "; or a .mat / .sgf / .nardy match record "
                                                  "file")
    p.add_argument("--to", choices=FORMATS + tuple(RECORD_FORMATS), help="the format to write")
    p.add_argument("--from", dest="source_format", choices=tuple(RECORD_FORMATS),
                   help="the record format of the source file (default: from its extension)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the result to FILE")
    _json_flag(p)
    p.set_defaults(func=_cmd_convert)


def _add_variants(sub: Any) -> None:
    p = sub.add_parser("variants", help="list the variants: names, aliases, rule options")
    _json_flag(p)
    p.set_defaults(func=_cmd_variants)


def _add_perft(sub: Any) -> None:
    p = sub.add_parser("perft", help="count the game tree from a position")
    _variant_arg(p)
    p.add_argument("depth", type=int, help="plies to count (each ply: every roll, every move)")
    p.add_argument("--divide", action="store_true", help="one line per first roll")
    p.add_argument("--rolls", type=int, choices=(21, 36), default=21,
                   help="21 distinct rolls a ply (weighted) or 36 ordered rolls")
    p.add_argument("--position", help=POSITION_HELP + " (default: the starting position)")
    p.add_argument("--table-mb", type=int, default=0, metavar="MB",
                   help="memory for a transposition table of subtree counts, shared by the "
                        "threads (default 0: none); the count is the same")
    _threads_flag(p, "the root moves are split across them")
    _progress_flag(p)
    _json_flag(p)
    p.set_defaults(func=_cmd_perft)


def _add_moves(sub: Any) -> None:
    p = sub.add_parser("moves", help="list the legal moves for a roll")
    _variant_arg(p)
    p.add_argument("dice", help="the roll, e.g. 31 or 3-1")
    p.add_argument("--position", help=POSITION_HELP + " (default: the starting position)")
    p.add_argument("--turn", type=int, default=None,
                   help="the mover's turn number, where a variant's moves depend on it "
                        "(Gul bara's cascade; default: 1 at the start, a late turn elsewhere)")
    _json_flag(p)
    p.set_defaults(func=_cmd_moves)


def _add_rollout(sub: Any) -> None:
    p = sub.add_parser("rollout", help="play games to the end from a position (C++ rollouts)")
    _variant_arg(p)
    p.add_argument("games", type=int, help="number of games to play")
    p.add_argument("--policy", choices=("random", "greedy", "race", "pubeval", "long_nardy",
                                        "gnubg"), default="random",
                   help="how both sides choose their moves: a built-in policy, or an "
                        "evaluator's best move (random)")
    p.add_argument("--plies", type=int, default=0, choices=(0, 1),
                   help="search depth of an evaluator policy (0)")
    p.add_argument("--variance-reduction", action="store_true",
                   help="subtract each roll's luck, measured with the evaluator policy "
                        "(unbiased, less noisy)")
    p.add_argument("--seed", type=int, default=0, help="seed of the dice and the policy (0)")
    p.add_argument("--quasi-random", type=int, default=0, metavar="PLIES",
                   help="quasi-random (stratified) dice for the first PLIES plies, a variance "
                        "reduction; balanced in blocks of 36**PLIES games (0)")
    _threads_flag(p, "games are split across them")
    p.add_argument("--position", help=POSITION_HELP + " (default: the starting position)")
    _progress_flag(p)
    _json_flag(p)
    p.set_defaults(func=_cmd_rollout)


#: evaluators ``hint`` tries, in this order, when none is named: the first made for the variant
HINT_EVALUATORS = ("gnubg", "pubeval", "long_nardy", "race")


def _hint_evaluator(name: str | None, pos: Position) -> Any:
    from nardy.evaluators import as_evaluator

    if name is not None:
        return as_evaluator(name, pos.variant)
    for candidate in HINT_EVALUATORS:
        try:
            return as_evaluator(candidate, pos.variant)
        except Error:
            continue
    raise CliError(f"no built-in evaluator is made for {pos.variant.name}")


def _cmd_hint(args: argparse.Namespace) -> int:
    from nardy import search

    pos = read_position(args.position).position
    dice = _dice(args.dice)
    if args.top < 0:
        raise CliError(f"--top must be >= 0 (0: every move), got {args.top}")
    ev = _hint_evaluator(args.evaluator, pos)
    ranked = search.rank_moves(pos, dice, ev, args.plies)
    shown = ranked if args.top == 0 else ranked[:args.top]
    names = [c.move.notation(pos.variant, pos.turn) for c in shown]
    if args.json:
        _print_json({
            "variant": pos.variant.name, "dice": list(dice), "evaluator": ev.name,
            "plies": args.plies, "count": len(ranked),
            "moves": [{"move": n, "equity": c.equity, "plies": c.plies,
                       "probabilities": None if c.probabilities is None else
                       dict(zip(_outcome_names(pos), c.probabilities))}
                      for n, c in zip(names, shown)]})
        return 0
    if not ranked:
        print(f"{dice[0]}-{dice[1]}: no legal move (the turn passes)")
        return 0
    print(f"{pos.variant.name}, {dice[0]}-{dice[1]}: {len(ranked)} moves, evaluator {ev.name}, "
          f"{args.plies}-ply (cubeless equity for the player who moves)")
    width = max(len(n) for n in names)
    best = shown[0].equity
    for k, (n, c) in enumerate(zip(names, shown), start=1):
        diff = "" if k == 1 else f" ({c.equity - best:+.4f})"
        probs = "" if c.probabilities is None else \
            "  " + " ".join(f"{x:.3f}" for x in c.probabilities)
        print(f"{k:>3}. {n:<{width}}  {c.plies}-ply  {c.equity:+.4f}{diff}{probs}")
    return 0


def _outcome_names(pos: Position) -> tuple[str, ...]:
    from nardy.evaluators import outcome_names, scoring_for

    return outcome_names(scoring_for(pos.variant))


def _add_hint(sub: Any) -> None:
    p = sub.add_parser("hint", help="rank the moves of a roll with an evaluator and n-ply "
                                    "search")
    p.add_argument("position", help=POSITION_HELP)
    p.add_argument("dice", help="the roll, e.g. 31 or 3-1")
    p.add_argument("--plies", type=int, default=1, choices=(0, 1, 2, 3),
                   help="search depth, as gnubg counts it (default 1)")
    p.add_argument("--evaluator", choices=("gnubg", "pubeval", "race", "long_nardy"),
                   help="how positions are valued (default: the first of "
                        f"{', '.join(HINT_EVALUATORS)} made for the variant)")
    p.add_argument("--top", type=int, default=10, help="moves to show (default 10, 0: all)")
    _json_flag(p)
    p.set_defaults(func=_cmd_hint)


#: The subcommands, in the order of the help text.
COMMANDS: list[Callable[[Any], None]] = [
    _add_show, _add_convert, _add_variants, _add_perft, _add_moves, _add_rollout, _add_hint]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nardy", description="nardy: move generation, pictures and formats for "
                                  "backgammon, long nardy and Shlem")
    parser.add_argument("--version", action="version", version=f"nardy {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except Error as e:
        print(f"nardy: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nardy: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head: the reader has gone, nothing to report
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
