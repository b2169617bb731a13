"""
nardy's C++ core: packed positions, the full-move enumerator, perft
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
__all__: list[str] = ['CancelToken', 'Engine', 'FevgaFirst', 'FevgaPrime', 'HeadRule', 'LegalMoves', 'LegalMovesBase', 'LockstepRollout', 'PerftTable', 'ShlemEnd', 'ShlemStage', 'StepTurn', 'Variant', 'VectorEnv', 'batch_afterstate_features', 'batch_afterstate_keys', 'batch_afterstates', 'batch_encode', 'batch_from_position_ids', 'batch_from_xgids', 'batch_keys', 'batch_position_ids', 'batch_rows', 'batch_xgids', 'decode', 'decode_position_id', 'decode_xgid', 'encode', 'encode_position_id', 'encode_xgid', 'encoding_width', 'greedy_index', 'hardware_threads', 'key_position_id', 'key_xgid', 'perft_split', 'perft_tasks', 'perft_threads', 'position_id_key', 'rollout', 'rollout_kinds', 'search_children', 'swap', 'validate', 'variant_info', 'xgid_key']
class Variant:
    """
    Members:
    
      BACKGAMMON
    
      LONG_NARDY
    
      SHLEM
    
      NACKGAMMON
    
      HYPERGAMMON
    
      TAVLA
    
      PORTES
    
      PLAKOTO
    
      FEVGA
    
      GUL_BARA
    
      ACEY_DEUCEY
    """
    BACKGAMMON: typing.ClassVar[Variant]
    LONG_NARDY: typing.ClassVar[Variant]
    SHLEM: typing.ClassVar[Variant]
    NACKGAMMON: typing.ClassVar[Variant]
    HYPERGAMMON: typing.ClassVar[Variant]
    TAVLA: typing.ClassVar[Variant]
    PORTES: typing.ClassVar[Variant]
    PLAKOTO: typing.ClassVar[Variant]
    FEVGA: typing.ClassVar[Variant]
    GUL_BARA: typing.ClassVar[Variant]
    ACEY_DEUCEY: typing.ClassVar[Variant]
    __members__: typing.ClassVar[dict[str, Variant]]
    @typing.overload
    def __eq__(self, other: Variant) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: Variant) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class HeadRule:
    """
    Members:
    
      FEDERATION
    
      CLASSIC
    
      EXTENDED
    """
    CLASSIC: typing.ClassVar[HeadRule]
    EXTENDED: typing.ClassVar[HeadRule]
    FEDERATION: typing.ClassVar[HeadRule]
    __members__: typing.ClassVar[dict[str, HeadRule]]
    @typing.overload
    def __eq__(self, other: HeadRule) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: HeadRule) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class FevgaFirst:
    """
    Members:
    
      PAST_START
    
      OPPONENT_QUARTER
    """
    OPPONENT_QUARTER: typing.ClassVar[FevgaFirst]
    PAST_START: typing.ClassVar[FevgaFirst]
    __members__: typing.ClassVar[dict[str, FevgaFirst]]
    @typing.overload
    def __eq__(self, other: FevgaFirst) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: FevgaFirst) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class FevgaPrime:
    """
    Members:
    
      ONE_POINT_BEHIND
    
      ALL_BEHIND
    
      FREE
    """
    ALL_BEHIND: typing.ClassVar[FevgaPrime]
    FREE: typing.ClassVar[FevgaPrime]
    ONE_POINT_BEHIND: typing.ClassVar[FevgaPrime]
    __members__: typing.ClassVar[dict[str, FevgaPrime]]
    @typing.overload
    def __eq__(self, other: FevgaPrime) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: FevgaPrime) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class ShlemStage:
    """
    Members:
    
      EITHER
    
      PER_PLAYER
    """
    EITHER: typing.ClassVar[ShlemStage]
    PER_PLAYER: typing.ClassVar[ShlemStage]
    __members__: typing.ClassVar[dict[str, ShlemStage]]
    @typing.overload
    def __eq__(self, other: ShlemStage) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: ShlemStage) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class ShlemEnd:
    """
    Members:
    
      MOVE
    
      CLAIM
    """
    CLAIM: typing.ClassVar[ShlemEnd]
    MOVE: typing.ClassVar[ShlemEnd]
    __members__: typing.ClassVar[dict[str, ShlemEnd]]
    @typing.overload
    def __eq__(self, other: ShlemEnd) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: ShlemEnd) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class LegalMoves:
    """
    The legal moves of one position and roll.
    
    A sequence of nardy.Move, one per resulting position, created on first access;
    ``move in legal_moves`` tests legality by where the move leads without creating them.
    Empty when the player cannot move (the turn passes).
    """
    def __bool__(self) -> bool:
        ...
    def __contains__(self, arg0: typing.Any) -> bool:
        ...
    def __getitem__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __init__(self, arg0: typing.Any, arg1: typing.Any, arg2: LegalMoves) -> None:
        ...
    def __iter__(self) -> typing.Any:
        ...
    def __len__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    def all_steps(self) -> list:
        ...
    def count(self, value: typing.Any = None) -> int:
        """
        Number of legal moves (with an argument: list.count).
        """
    def find(self, arg0: bytes) -> int:
        """
        Index of the move leading to the key, or -1.
        """
    def index_of(self, arg0: typing.Any) -> int:
        """
        Index of the legal move leading where `move` leads, or -1.
        """
    def key(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> bytes:
        ...
    def keys(self) -> list:
        ...
    def moves(self) -> list:
        """
        The moves as a list of nardy.Move (cached).
        """
    def results(self) -> list:
        """
        The resulting positions, opponent on roll, in move order.
        """
    def steps(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> tuple:
        ...
    @property
    def _set(self) -> typing.Any:
        ...
    @property
    def dice(self) -> tuple[int, int]:
        ...
    @property
    def position(self) -> typing.Any:
        ...
class CancelToken:
    """
    A flag that stops the long calls given it (perft, divide, rollouts, batches) at their next poll, from any thread: they raise
    KeyboardInterrupt. Ctrl-C stops them without one.
    """
    def __init__(self) -> None:
        ...
    def cancel(self) -> None:
        """
        Stops every call polling this token (now and later).
        """
    @property
    def cancelled(self) -> bool:
        ...
class TurnMoveSet:
    """
    The legal moves of a whole turn, in the core.
    """
    def __len__(self) -> int: ...
    @property
    def played(self) -> int:
        """
        Dice the moves play (0: the turn passes), known without listing.
        """
    @property
    def listed(self) -> bool:
        """
        Whether the moves are listed yet.
        """
    @property
    def dice(self) -> tuple: ...
    @property
    def turn(self) -> int: ...
    def key(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> bytes: ...
    def steps(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> tuple: ...
    def keys(self) -> list: ...
    def named(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        The die move i names (Acey-deucey's double after a 1-2; 0: none).
        """
    def again(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Whether the same player rolls again after move i.
        """
    def find(self, key: bytes, named: typing.SupportsInt | typing.SupportsIndex = -1) -> int:
        """
        Index of the move leading to the key (naming `named`; -1: any), or -1 (lists the moves).
        """
    def resolve(self, key: bytes, named: typing.SupportsInt | typing.SupportsIndex = -1) -> typing.Any:
        """
        The legal move leading to the key (naming `named`; -1: any) as (steps, named die, again), or None; found without listing the moves when they are not listed yet.
        """
class Engine:
    def __init__(self, variant: Variant, head_rule: HeadRule = ..., block_check_at_end: bool = False, shlem_stage: ShlemStage = ..., shlem_end: ShlemEnd = ..., shlem_pass_limit: typing.SupportsInt | typing.SupportsIndex = 4, no_hit_and_hide: bool = False, cascade_from_turn: typing.SupportsInt | typing.SupportsIndex = 3, pinned_bear_off: bool = False, fevga_first: FevgaFirst = ..., fevga_prime: FevgaPrime = ..., fevga_start_quarter: bool = True, fevga_their_quarter: typing.SupportsInt | typing.SupportsIndex = 6, no_hit_and_run: bool = False, cascade_counts_rolls: bool = False, stopped_cascade_to_opponent: bool = False) -> None:
        ...
    def apply(self, arg0: bytes, arg1: collections.abc.Sequence[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]]) -> typing.Any:
        """
        Applies (from, to) or (from, to, hit) steps; None if one is not a possible single step. Shlem reads `hit` (hit out vs take prisoner); the other variants ignore it.
        """
    def count(self, arg0: bytes, arg1: typing.SupportsInt | typing.SupportsIndex, arg2: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        The number of legal moves, counted without making them where the variant allows.
        """
    def divide(self, key: bytes, depth: typing.SupportsInt | typing.SupportsIndex, ordered: bool = False, cancel: CancelToken | None = None, table: PerftTable | None = None) -> list:
        ...
    def enumerate_loop(self, positions: numpy.ndarray, repeat: typing.SupportsInt | typing.SupportsIndex = 1) -> tuple[int, int, float]:
        """
        Benchmark kernel: enumerates every (position, 21 rolls) `repeat` times in C++; returns (enumerations, resulting positions, seconds).
        """
    def game_end(self, key: bytes, passes: typing.SupportsInt | typing.SupportsIndex = 0) -> typing.Any:
        """
        None while the game goes on with the key's mover on roll, else (winner: +1 the mover, -1 the other player, 0 a draw; result kind; points). `passes` = consecutive passed turns just before.
        """
    def status(self, key: bytes, passes: typing.SupportsInt | typing.SupportsIndex = 0) -> dict:
        """
        Where the game stands with the key's mover on roll, in the variant's own fields.
        """
    def legal(self, arg0: bytes, arg1: typing.SupportsInt | typing.SupportsIndex, arg2: typing.SupportsInt | typing.SupportsIndex) -> LegalMoves:
        """
        All legal complete moves of the position (a key) for the roll.
        """
    def perft(self, key: bytes, depth: typing.SupportsInt | typing.SupportsIndex, ordered: bool = False, cancel: CancelToken | None = None, table: PerftTable | None = None) -> int:
        """
        perft (with a PerftTable if given); Ctrl-C or the token stops it (KeyboardInterrupt).
        """
    def perft_turn(self, key: bytes, depth: typing.SupportsInt | typing.SupportsIndex, ordered: bool = False, first_turn: typing.SupportsInt | typing.SupportsIndex = 1, cancel: CancelToken | None = None, carried_die: typing.SupportsInt | typing.SupportsIndex = 0, carried_left: typing.SupportsInt | typing.SupportsIndex = 0, threads: typing.SupportsInt | typing.SupportsIndex = 1) -> int:
        """
        perft with the root's mover on turn `first_turn` (ply p on turn first_turn + p // 2); carried_left > 0: he first plays that many dice of carried_die-carried_die that the opponent's stopped cascade left (Engine.carry), as part of his ply. threads: C++ threads (0: all cores; a root with carried dice is counted on one).
        """
    def turn_legal(self, key: bytes, d1: typing.SupportsInt | typing.SupportsIndex, d2: typing.SupportsInt | typing.SupportsIndex, turn: typing.SupportsInt | typing.SupportsIndex) -> TurnMoveSet:
        """
        The legal moves of the whole turn the roll gives on the mover's turn number `turn` (a TurnMoveSet: listed when first read by index, nothing made in Python until asked).
        """
    def greedy_score(self, key: bytes) -> int:
        """
        The greedy rollout policy's score of a resulting position (unswapped: the mover's view after his move; nardy/rollout.hpp).
        """
    def turn_greedy(self, key: bytes, d1: typing.SupportsInt | typing.SupportsIndex, d2: typing.SupportsInt | typing.SupportsIndex, turn: typing.SupportsInt | typing.SupportsIndex) -> tuple | None:
        """
        The greedy rollout policy's move of the whole turn the roll gives on turn number `turn` (a cascade chosen group by group, without listing it): (key, same player rolls again), or None when the turn passes (nardy/rollout.hpp).
        """
    def turn_at(self, first_turn: typing.SupportsInt | typing.SupportsIndex, ply: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        The mover's turn number, as the rules read it, at ply `ply` of a game whose player on roll at ply 0 rolled first there, on his turn `first_turn` (first_turn + ply // 2 unless the rules count turns over the game's rolls).
        """
    def turn_moves(self, key: bytes, d1: typing.SupportsInt | typing.SupportsIndex, d2: typing.SupportsInt | typing.SupportsIndex, turn: typing.SupportsInt | typing.SupportsIndex, again: bool = False) -> tuple:
        """
        (dice played, [(key, steps, named die), ...]): every legal move of the whole turn the roll gives on the mover's turn number `turn` (1 = the first; -k: the play of k dice of the double that the opponent's stopped cascade left); with again=True each move also says whether the same player rolls again after it.
        """
    def carry(self, d1: typing.SupportsInt | typing.SupportsIndex, d2: typing.SupportsInt | typing.SupportsIndex, turn: typing.SupportsInt | typing.SupportsIndex, played: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
        """
        The dice a turn that played `played` dice leaves to the opponent, as (die, left): he plays `left` dice of die-die (the turn -left) before his own roll; None when it leaves none (Gul bara's stopped_cascade="to-opponent").
        """
    def turn_pick(self, key: bytes, d1: typing.SupportsInt | typing.SupportsIndex, d2: typing.SupportsInt | typing.SupportsIndex, turn: typing.SupportsInt | typing.SupportsIndex, word: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
        """
        The random rollout policy's move of the whole turn the roll gives on turn number `turn`, from the ply's 64-bit word: (key, same player rolls again), or None when the turn passes (nardy/rollout.hpp).
        """
    @property
    def has_sequences(self) -> bool:
        """
        Whether a roll may give a turn of several groups of dice.
        """
    def pick(self, key: bytes, d1: typing.SupportsInt | typing.SupportsIndex, d2: typing.SupportsInt | typing.SupportsIndex, index: typing.SupportsInt | typing.SupportsIndex) -> tuple:
        """
        (n, key): the number of legal moves and the result of move index % n, made alone (what a random rollout player does); (0, None) when the turn passes.
        """
class LegalMovesBase:
    """The core's side of nardy.LegalMoves: the result buffer of one enumeration."""
    def __contains__(self, move: typing.Any) -> bool: ...
    def __getitem__(self, index: typing.Any) -> typing.Any: ...
    def __iter__(self) -> typing.Iterator[typing.Any]: ...
    def __len__(self) -> int: ...
    def all_steps(self) -> list: ...
    def find(self, key: bytes) -> int: ...
    def index_of(self, move: typing.Any) -> int: ...
    def key(self, index: typing.SupportsIndex) -> bytes: ...
    def keys(self) -> list[bytes]: ...
    def steps(self, index: typing.SupportsIndex) -> tuple: ...
    @property
    def dice(self) -> typing.Any: ...
    @property
    def position(self) -> typing.Any: ...
class PerftTable:
    """
    A transposition table for perft: the counts of
    subtrees (position, remaining depth) in a fixed amount of memory, shared by the threads of a
    count. Exact: an entry keeps the whole position. Bound to the variant, rules and roll weighting
    of its first count.
    """
    def __init__(self, megabytes: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def bytes(self) -> int:
        ...
    @property
    def entries(self) -> int:
        ...
class LockstepRollout:
    def __init__(self, engine: Engine, key: bytes, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0, first_trial: typing.SupportsInt | typing.SupportsIndex = 0, max_plies: typing.SupportsInt | typing.SupportsIndex = 10000, width: typing.SupportsInt | typing.SupportsIndex = 256, quasi_random: typing.SupportsInt | typing.SupportsIndex = 0, every_ply: bool = False) -> None:
        ...
    def advance(self, cancel: CancelToken | None = None) -> int:
        """
        Runs every game to its next decision; returns how many games wait (0: all done). Ctrl-C or the token stops it (KeyboardInterrupt).
        """
    def candidates(self) -> numpy.ndarray:
        """
        (M,2,26) int8 candidates of the waiting games (unswapped afterstates).
        """
    def continues(self) -> numpy.typing.NDArray[numpy.bool_]:
        """
        (M,) bool: the candidate leaves its mover on roll (a play of carried dice, or a move after which he rolls again).
        """
    def choose(self, choices: typing.Annotated[numpy.typing.ArrayLike, numpy.int64], luck: typing.Annotated[numpy.typing.ArrayLike, numpy.float64] | None = None) -> None:
        ...
    def positions(self) -> numpy.ndarray:
        """
        (K,2,26) int8 positions of the waiting games before their roll (side 0 on roll).
        """
    def dice(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        (K,2) int8 dice of the waiting games' roll.
        """
    def take_finished(self) -> tuple:
        """
        Every-ply mode: (trials, points, luck) of the trials finished since the last call.
        """
    def counts(self) -> dict:
        ...
    def features(self, arg0: str) -> numpy.ndarray:
        """
        (M,F) float32 encoding of the candidates, the player to roll next on roll (side 1, or side 0 where continues()).
        """
    def offsets(self) -> numpy.typing.NDArray[numpy.int64]:
        ...
    def trials(self) -> numpy.typing.NDArray[numpy.uint64]:
        """
        Trial index of every waiting game.
        """
    def movers(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        Who moves in every waiting game (0: the player on roll at the start, 1: the opponent).
        """
    @property
    def done(self) -> bool:
        ...
class VectorEnv:
    def __init__(self, engine: Engine, n: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex, max_plies: typing.SupportsInt | typing.SupportsIndex, boards: bool, encoding: typing.Any, steps: bool = False) -> None:
        """
        encoding: None or an Encoding number (0 tdgammon, 1 gnubg, 2 long, 3 shlem).
        """
    def reset(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def step(self, arg0: numpy.ndarray, arg1: numpy.ndarray, arg2: numpy.ndarray, arg3: numpy.ndarray) -> int:
        """
        Returns -1, or the first game whose action is out of range (nothing changed).
        """
    def afterstates(self) -> numpy.ndarray:
        """
        (M, 2, 26) int8 afterstates of the last reset/step.
        """
    def afterstate_again(self) -> numpy.ndarray:
        """
        (M,) uint8 of the last reset/step: 1 where the player who moved rolls again after that afterstate.
        """
    def features(self) -> numpy.ndarray:
        """
        (M, F) float32 afterstate features of the last reset/step.
        """
    def legal_actions(self) -> numpy.ndarray:
        """
        Step mode: (L,) int32 legal actions of the last reset/step, game i's at legal_offsets[i]:legal_offsets[i + 1], ascending.
        """
    def fixed_views(self) -> dict:
        """
        Read-only views of the per-game arrays (offsets, boards, dice, to_play, episodes, plies; step mode: masks, steps_played, legal_offsets), valid for the env's lifetime and updated by every reset/step.
        """
    @property
    def threads(self) -> int:
        ...
    @property
    def actions(self) -> int:
        """
        Step mode: the size of the action space (0 in afterstate mode).
        """
class StepTurn:
    """
    A turn played one checker step at a time over the variant's fixed step action space.
    """
    def __init__(self, engine: Engine) -> None:
        ...
    def begin(self, key: bytes, d1: typing.SupportsInt | typing.SupportsIndex, d2: typing.SupportsInt | typing.SupportsIndex, turn: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        Starts the turn of the position (a key, mover's perspective) for the roll; `turn` (the mover's turn number) asks for the whole turn of a variant with dice sequences (Engine.turn_moves), 0 for the roll's moves (Engine.legal).
        """
    def mask(self, out: typing.Any = None) -> numpy.ndarray:
        """
        The legal actions as a bool array (written into `out` when given).
        """
    def legal(self) -> list[int]:
        """
        The legal actions, ascending.
        """
    def legal_actions(self) -> numpy.ndarray:
        """
        The legal actions, ascending, as an int32 array (the mask's set bits, listed in C++).
        """
    def play(self, action: typing.Any) -> bool:
        """
        Plays the action; False (nothing changed) when it is not legal.
        """
    def undo(self) -> bool:
        """
        Takes back the last action; False when there is none.
        """
    def results(self) -> list:
        """
        The keys of the legal complete moves' results.
        """
    def decode(self, action: typing.Any) -> typing.Any:
        """
        (from, to, hit) of a step action (to -1: borne off); None for the pass and the actions naming a double.
        """
    def encode(self, from_: typing.SupportsInt | typing.SupportsIndex, to: typing.SupportsInt | typing.SupportsIndex, hit: bool = False) -> int:
        ...
    def name_action(self, d: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        The action naming the double d-d.
        """
    def named_die(self, action: typing.Any) -> int:
        """
        The double an action names (0: a step or the pass).
        """
    @property
    def names_dice(self) -> bool:
        """
        The space has the six actions naming a double.
        """
    @property
    def named(self) -> int:
        """
        Once done: the double the move named (0: none).
        """
    @property
    def again(self) -> bool:
        """
        Once done: the same player rolls again after the move.
        """
    @property
    def size(self) -> int:
        ...
    @property
    def pass_action(self) -> int:
        ...
    @property
    def hit_flag(self) -> bool:
        ...
    @property
    def done(self) -> bool:
        ...
    @property
    def played(self) -> int:
        ...
    @property
    def length(self) -> int:
        ...
    @property
    def key(self) -> bytes:
        ...
    @property
    def n_moves(self) -> int:
        ...
def _register_moves(legal: typing.Any, move: typing.Any, step: typing.Any, position: typing.Any, variant: typing.Any, check_dice: typing.Any) -> typing.Any:
    """Registers LegalMoves, Move, Step, Position, Variant and the dice check; returns the method descriptor Position.legal_moves."""
def _set_move_types(arg0: typing.Any, arg1: typing.Any) -> None:
    """
    Registers nardy.Move and nardy.Step, which the core instantiates directly.
    """
def batch_afterstate_keys(engine: Engine, boards: numpy.ndarray, dice: numpy.ndarray, threads: typing.SupportsInt | typing.SupportsIndex = 1, cancel: CancelToken | None = None) -> tuple:
    """
    (keys (M,32) uint8, offsets (N+1,) int64): the afterstates of batch_afterstates as 32-byte position keys (Position.key), in the same order. Thread-safe; GIL released.
    """
def batch_afterstate_features(engine: Engine, boards: numpy.ndarray, dice: numpy.ndarray, kind: str, rows: bool = False, threads: typing.SupportsInt | typing.SupportsIndex = 1, cancel: CancelToken | None = None) -> tuple:
    """
    ([results (M,2,26) int8,] features (M,F) float32, offsets (N+1,) int64): every afterstate encoded with side 1 (the player to roll next) on roll.
    """
def batch_afterstates(engine: Engine, boards: numpy.ndarray, dice: numpy.ndarray, steps: bool = False, threads: typing.SupportsInt | typing.SupportsIndex = 1, cancel: CancelToken | None = None) -> tuple:
    """
    (results (M,2,26) int8, offsets (N+1,) int64[, steps (M,4,3) int8]) for boards (N,2,26) int8 and dice (N,2) int8. Thread-safe; GIL released.
    """
def batch_encode(boards: numpy.ndarray, kind: str, on_roll: typing.Any = 0, out: typing.Any = None, engine: Engine | None = None) -> numpy.typing.NDArray[numpy.float32]:
    """
    Encodes (N,2,26) int8 rows into a (N,F) float32 matrix (see features.hpp); `engine` (the rows' variant, or None) checks them for its variant.
    """
def batch_keys(engine: Engine, boards: numpy.ndarray, swap: bool = False) -> list:
    """
    Validated position keys (32 bytes each) of (N,2,26) rows; swap: (side 1, side 0).
    """
def batch_rows(keys: list, variant: Variant | None = None) -> numpy.ndarray:
    """
    (N,2,26) int8 rows of N position keys, as the variant's side arrays show them (default: held checkers as -1).
    """
def decode(key: bytes, variant: Variant | None = None) -> tuple[typing.Annotated[list[int], "FixedSize(26)"], typing.Annotated[list[int], "FixedSize(26)"]]:
    """
    Unpacks a key into (mover, opponent) side arrays.
    """
def decode_position_id(id: typing.Any, checkers: typing.SupportsInt | typing.SupportsIndex = 15) -> tuple:
    """
    (mover, opponent) side arrays of a Position ID; InvalidIdError when malformed.
    """
def decode_xgid(xgid: typing.Any, checkers: typing.SupportsInt | typing.SupportsIndex = 15) -> tuple:
    """
    (mover, opponent, cube_exp, cube_position, turn, d1, d2, action, score_bottom, score_top, rules, match_length, max_cube_exp); InvalidIdError (without the XGID quoted) when malformed.
    """
def encode(us: typing.Annotated[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], "FixedSize(26)"], them: typing.Annotated[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], "FixedSize(26)"], variant: Variant | None = None) -> bytes:
    """
    Packs two side arrays (validated by the caller) into a key.
    """
def encode_position_id(mover: typing.Annotated[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], "FixedSize(26)"], opponent: typing.Annotated[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], "FixedSize(26)"]) -> str:
    """
    The Position ID of two side arrays (validated by the caller).
    """
def encode_xgid(arg0: typing.Annotated[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], "FixedSize(26)"], arg1: typing.Annotated[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], "FixedSize(26)"], arg2: typing.SupportsInt | typing.SupportsIndex, arg3: typing.SupportsInt | typing.SupportsIndex, arg4: typing.SupportsInt | typing.SupportsIndex, arg5: typing.SupportsInt | typing.SupportsIndex, arg6: typing.SupportsInt | typing.SupportsIndex, arg7: str, arg8: typing.SupportsInt | typing.SupportsIndex, arg9: typing.SupportsInt | typing.SupportsIndex, arg10: typing.SupportsInt | typing.SupportsIndex, arg11: typing.SupportsInt | typing.SupportsIndex, arg12: typing.SupportsInt | typing.SupportsIndex) -> str:
    """
    The XGID of a validated record's fields (xgid.py's XgidRecord checks them).
    """
def batch_from_position_ids(engine: Engine, ids: numpy.ndarray) -> numpy.ndarray:
    """
    (N,2,26) int8 rows (mover first) of N Position IDs ('U' or 'S' array). GIL released.
    """
def batch_from_xgids(engine: Engine, xgids: numpy.ndarray) -> tuple:
    """
    ((N,2,26) int8 rows from the view of the player on roll, (N,12) int32 fields). GIL released.
    """
def batch_position_ids(engine: Engine, boards: numpy.ndarray) -> numpy.ndarray:
    """
    The (N,) '<U14' Position IDs of (N,2,26) int8 rows (validated). GIL released.
    """
def batch_xgids(engine: Engine, boards: numpy.ndarray, turn: numpy.ndarray) -> numpy.ndarray:
    """
    (N,) XGIDs of (N,2,26) int8 rows. GIL released.
    """
def encoding_width(arg0: str) -> int:
    ...
def greedy_index(engine: Engine, key: bytes, d1: typing.SupportsInt | typing.SupportsIndex, d2: typing.SupportsInt | typing.SupportsIndex, turn: typing.SupportsInt | typing.SupportsIndex = 0) -> int:
    """
    Index (in legal_moves order) of the move the greedy rollout policy plays; -1: pass.
    """
def key_position_id(key: typing.Any) -> str:
    """
    The Position ID of a position key (of a variant with gnubg's board).
    """
def key_xgid(key: typing.Any, turn: typing.SupportsInt | typing.SupportsIndex = 1) -> str:
    """
    The XGID of a position key with its mover as the bottom player (turn 1) or the top one (-1).
    """
def hardware_threads() -> int:
    """
    Threads used for threads=0 (std::thread::hardware_concurrency, at least 1).
    """
def position_id_key(engine: Engine, id: typing.Any) -> typing.Any:
    """
    The validated key of a Position ID for the engine's variant (the mover on roll).
    """
def perft_split(engine: Engine, key: bytes, depth: typing.SupportsInt | typing.SupportsIndex, ordered: bool = False, min_tasks: typing.SupportsInt | typing.SupportsIndex = 64, cancel: CancelToken | None = None) -> tuple[list, list, int]:
    """
    (keys, weights, remaining_depth): perft(key, depth) = sum(w * perft(k, remaining)).
    """
def perft_tasks(engine: Engine, keys: list, weights: list, depth: typing.SupportsInt | typing.SupportsIndex, ordered: bool = False, threads: typing.SupportsInt | typing.SupportsIndex = 1, cancel: CancelToken | None = None, table: PerftTable | None = None) -> int:
    """
    sum(weight * perft(key, depth)) over the tasks, on `threads` threads. GIL released.
    """
def perft_threads(engine: Engine, key: bytes, depth: typing.SupportsInt | typing.SupportsIndex, ordered: bool = False, threads: typing.SupportsInt | typing.SupportsIndex = 0, cancel: CancelToken | None = None, table: PerftTable | None = None) -> int:
    """
    perft on `threads` threads (0: all cores), with a shared PerftTable if given. GIL released.
    """
def rollout(engine: Engine, key: bytes, games: typing.SupportsInt | typing.SupportsIndex, policy: str = 'random', seed: typing.SupportsInt | typing.SupportsIndex = 0, first_trial: typing.SupportsInt | typing.SupportsIndex = 0, threads: typing.SupportsInt | typing.SupportsIndex = 1, max_plies: typing.SupportsInt | typing.SupportsIndex = 10000, cancel: CancelToken | None = None, quasi_random: typing.SupportsInt | typing.SupportsIndex = 0) -> dict:
    """
    Plays trials [first_trial, first_trial + games) from the key's position with a built-in policy; integer counts (see rollout.hpp). GIL released.
    """
def rollout_kinds(arg0: Variant) -> tuple:
    ...
def search_children(engine: Engine, boards: numpy.ndarray, threads: typing.SupportsInt | typing.SupportsIndex = 1, cancel: CancelToken | None = None) -> tuple:
    """
    (children (M,2,26) int8, offsets (21N+1,) int64) for boards (N,2,26) int8: group 21i+r holds row i's afterstates for roll r of the 21 (high die first), or row i itself when the roll has no move, swapped (the player to roll next is side 0). The same for any thread count; GIL released.
    """
def swap(arg0: bytes) -> bytes:
    ...
def validate(arg0: Variant, arg1: typing.Annotated[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], "FixedSize(26)"], arg2: typing.Annotated[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], "FixedSize(26)"]) -> str:
    """
    Empty string when (mover, opponent) is a valid position of the variant, else why not.
    """
def variant_info(arg0: Variant) -> dict:
    """
    The core's traits of a variant: key, names (name first, then aliases), checkers a side, has_bar, start (either side's starting array), kinds (rollout result kinds).
    """
def xgid_key(engine: Engine, xgid: typing.Any) -> tuple:
    """
    (key, turn) of an XGID's position for the engine's variant.
    """
