"""What the Gymnasium and PettingZoo environments share: a :class:`nardy.Game` without the cube,
the decision of the player on roll in one of the two action modes, observations, rewards and
pictures. Nothing here imports gymnasium or pettingzoo."""

from __future__ import annotations

import random
import struct
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from nardy import _core, batch
from nardy.errors import InvalidArgumentError
from nardy.game import Game
from nardy.phases import Phase
from nardy.position import Move, Position, TurnMoves
from nardy.variants import Variant, as_variant, find_variant

MODES = ("afterstate", "step")
RENDER_MODES = ("ansi", "svg", "rgb_array")

#: An opponent: "random", "greedy" (the core's one-ply rollout heuristic) or a callable
#: ``f(position, legal_moves) -> index or Move``.
Opponent = Any


def make_variant(variant: Variant | type[Variant] | str | None, rules: dict[str, Any] | None) -> Variant:
    """A variant object with the rule options given (over a variant object's own)."""
    if rules is not None and not isinstance(rules, dict):
        raise InvalidArgumentError(f"rules must be a dict of rule options, not {type(rules).__name__}")
    if isinstance(variant, Variant):
        return type(variant)(**{**variant.rules, **(rules or {})}) if rules else variant
    if isinstance(variant, str):
        variant = find_variant(variant)
    if variant is None or (isinstance(variant, type) and issubclass(variant, Variant)):
        cls = type(as_variant(variant)) if variant is None else variant
        return cls(**(rules or {}))
    raise InvalidArgumentError(f"variant must be a nardy variant or its name, not {variant!r}")


def _png_to_rgb(png: bytes) -> np.ndarray:
    """(H, W, 3) uint8 pixels of an 8-bit RGB or RGBA non-interlaced PNG (what cairosvg writes)."""
    pos, width, height, ctype, data = 8, 0, 0, 0, b""
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise InvalidArgumentError("only 8-bit RGB(A) pictures are decoded")
        elif kind == b"IDAT":
            data += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw = np.frombuffer(zlib.decompress(data), dtype=np.uint8).reshape(height, 1 + width * bpp)
    out = np.zeros((height, width * bpp), dtype=np.int32)
    prev = np.zeros(width * bpp, dtype=np.int32)
    for y in range(height):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) & 0xFF
        else:  # Sub, Average, Paeth depend on the pixel to the left: byte by byte
            cur = np.zeros_like(line)
            for x in range(len(line)):
                a = cur[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                if f == 1:
                    pred = a
                elif f == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[x] = (line[x] + pred) & 0xFF
        out[y] = cur
        prev = cur
    pixels = out.reshape(height, width, bpp).astype(np.uint8)
    if bpp == 4:  # over white
        alpha = pixels[..., 3:4].astype(np.float32) / 255
        return (pixels[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    return pixels


class Table:
    """One game in progress, played by two players through decisions."""

    def __init__(self, variant: Any = None, rules: dict[str, Any] | None = None, *,
                 scoring: str | None = None, observation: str | None = None,
                 mode: str = "afterstate", max_afterstates: int = 256,
                 max_plies: int = 5000) -> None:
        self.variant = make_variant(variant, rules)
        if mode not in MODES:
            raise InvalidArgumentError(f"mode must be one of {MODES}, not {mode!r}")
        self.mode = mode
        self.kind = batch._kind(observation) if observation is not None \
            else batch.default_encoding(self.variant)
        self.width = batch.encoding_width(self.kind)
        if isinstance(max_afterstates, bool) or not isinstance(max_afterstates, int) \
                or max_afterstates < 1:
            raise InvalidArgumentError("max_afterstates must be an integer >= 1")
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
            raise InvalidArgumentError("max_plies must be an integer >= 1")
        self.max_afterstates = max_afterstates
        self.max_plies = max_plies
        self.game_options: dict[str, Any] = {"cube": False}
        if scoring is not None:
            self.game_options["scoring"] = scoring
        Game(self.variant, **self.game_options)  # bad scoring names fail here
        self.turn = _core.StepTurn(self.variant.engine)
        self.n_actions = max_afterstates if mode == "afterstate" else self.turn.size
        self.game: Game | None = None
        self.plies = 0

    # -- the game ------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        self.game = Game(self.variant, seed=seed, **self.game_options)
        self.plies = 0
        self._advance()

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.is_game_over()

    @property
    def truncated(self) -> bool:
        return not self.over and self.plies >= self.max_plies

    @property
    def to_act(self) -> int | None:
        """The colour whose decision it is (None when the game is over or cut off)."""
        if self.game is None or self.over or self.truncated:
            return None
        return self.game.to_act

    def _advance(self) -> None:
        """Rolls, claims and passes until a player has a move to choose (or the game ends)."""
        g = self.game
        assert g is not None
        while not g.is_game_over() and self.plies < self.max_plies:
            if g.phase in (Phase.OPENING, Phase.ROLL):
                if g.can_claim():
                    g.claim()
                    continue
                g.roll()
                continue
            if g.phase is Phase.MOVE:
                self._moves = g.legal_moves()
                if not self._moves:  # (a whole turn's moves are not listed for this)
                    g.pass_turn()
                    self.plies += 1
                    continue
                self._keys: dict[bytes, int] | None = None
                self._afterstates: np.ndarray | None = None
                if self.mode == "step":
                    # a turn of several rolls (Gul bara's cascade) is stepped through whole
                    self.turn.begin(g.position.key, *self._dice(), self._turn_number())
                return
            raise AssertionError(f"unexpected phase {g.phase}")  # no cube: no other phase

    def play_move(self, index: int) -> None:
        g = self.game
        assert g is not None
        g.play(self._moves[index])
        self.plies += 1
        self._advance()

    def act(self, action: int) -> bool:
        """The player on roll's action; False when it is not legal (nothing changed)."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise InvalidArgumentError(f"an action is an integer, not {action!r}")
        a = int(action)
        if not 0 <= a < self.n_actions:
            return False
        if self.mode == "afterstate":
            if a >= min(len(self._moves), self.max_afterstates):
                return False
            self.play_move(a)
            return True
        if not self.turn.play(a):
            return False
        if self.turn.done:
            if self.turn.names_dice:
                # a move is where it leads and the double it names (Acey-deucey's 1-2); such
                # variants' games list whole turns
                assert isinstance(self._moves, TurnMoves)
                self.play_move(self._moves.find(self.turn.key, self.turn.named))
                return True
            if isinstance(self._moves, TurnMoves):
                # found by its result, without listing the turn (a cascade has millions)
                self._play_found(self._moves._resolve_key(self.turn.key))
                return True
            if self._keys is None:
                self._keys = {self._moves.key(i): i for i in range(len(self._moves))}
            self.play_move(self._keys[self.turn.key])
        return True

    def opponent_move(self, opponent: Opponent, rng: random.Random) -> None:
        """Plays the opponent's whole move (a random, greedy or callable player)."""
        g = self.game
        assert g is not None
        moves = self._moves
        if isinstance(moves, TurnMoves) and not self.variant.names_dice:
            # a turn of several rolls (a Gul bara cascade: millions of moves early in a game)
            # is chosen by the rollouts' policies and played by its result, never listed
            if opponent in ("random", "greedy"):
                engine, key, turn = self.variant.engine, g.position.key, self._turn_number()
                picked = (engine.turn_pick(key, *self._dice(), turn, rng.getrandbits(64))
                          if opponent == "random" else engine.turn_greedy(key, *self._dice(), turn))
                self._play_found(moves._resolve_key(picked[0]))
                return
            choice = opponent(g.position, moves)  # type: ignore[operator]
            if isinstance(choice, Move):
                found = moves._resolve(choice)
                if found is None:
                    raise InvalidArgumentError(f"the opponent chose {choice!r}, not a legal move")
                self._play_found(found)
                return
            self.play_move(self._chosen_index(choice, moves))
            return
        if opponent == "random":
            index = rng.randrange(len(moves))
        elif opponent == "greedy":
            index = _core.greedy_index(self.variant.engine, g.position.key, *self._dice(),
                                       self._turn_number())
        else:
            index = self._chosen_index(opponent(g.position, moves), moves)  # type: ignore[operator]
        self.play_move(index)

    def _chosen_index(self, choice: Any, moves: Any) -> int:
        """The index in ``moves`` of a callable opponent's choice (an index or a Move)."""
        if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool):
            index, n = int(choice), len(moves)
            if not 0 <= index < n:
                raise InvalidArgumentError(f"the opponent chose move {index} of {n}")
            return index
        index = moves.index_of(choice)
        if index < 0:
            raise InvalidArgumentError(f"the opponent chose {choice!r}, not a legal move")
        return int(index)

    def _play_found(self, found: Any) -> None:
        """Plays a move of the whole turn found by its result (TurnMoves._resolve_key)."""
        assert found is not None and self.game is not None
        self.game.play(found[1])
        self.plies += 1
        self._advance()

    def _turn_features(self) -> np.ndarray:
        """The encoded results of the first max_afterstates moves of a whole turn (Game's
        TurnMoves, in its order), each with the player to roll next on roll: the opponent, or
        the mover again after a move that gives another roll (Acey-deucey's 1-2)."""
        moves = self._moves
        assert isinstance(moves, TurnMoves)
        n = min(len(moves), self.max_afterstates)
        cv = self.variant.core_variant
        rows = np.array([_core.decode(moves.key(i), cv) for i in range(n)],
                        dtype=np.int8).reshape(n, 2, 26)
        on_roll = np.array([0 if moves.again(i) else 1 for i in range(n)], dtype=np.int64)
        # the rows carry their variant: its checkers still to enter are encoded as it says
        return batch.encode(batch._boards(rows, self.variant, 1), self.kind, on_roll=on_roll)

    def _turn_number(self) -> int:
        """The mover's turn number where a turn can be several rolls, else 0 (the roll's
        moves): the core's calls then list what Game.legal_moves lists."""
        g = self.game
        assert g is not None
        return g._moves_turn if self.variant.sequence_turns else 0

    def _dice(self) -> tuple[int, int]:
        """The dice of the turn being played (there is one whenever a move is asked for)."""
        assert self.game is not None and self.game.dice is not None
        return self.game.dice

    def reward(self, color: int) -> float:
        """The game's value from ``color``'s side (0 until it is over; a draw is 0)."""
        if not self.over:
            return 0.0
        result = self.game.result()  # type: ignore[union-attr]
        if result is None or result.winner is None:
            return 0.0
        return float(result.points if result.winner == color else -result.points)

    # -- observations --------------------------------------------------------------------
    def _encode_key(self, key: bytes) -> np.ndarray:
        us, them = _core.decode(key, self.variant.core_variant)
        rows = batch._boards(np.array([[us, them]], dtype=np.int8), self.variant, 0)
        return batch.encode(rows, self.kind)[0]

    def current_key(self) -> bytes:
        g = self.game
        assert g is not None
        if self.to_act is not None and self.mode == "step":
            return self.turn.key
        return g.position.key

    def observe(self, color: int | None = None) -> dict[str, np.ndarray]:
        """The observation of ``color`` (default: the player to act): its decision when it is
        to act, else the board from its side with an empty mask."""
        g = self.game
        assert g is not None
        acting = self.to_act
        if color is None:
            color = acting if acting is not None else g.position.turn
        mine = acting == color
        key = self.current_key()
        if g.position.turn != color:
            key = _core.swap(key)
        obs: dict[str, np.ndarray] = {"observation": self._encode_key(key)}
        mask = np.zeros(self.n_actions, dtype=np.int8)
        if self.mode == "afterstate":
            after = np.zeros((self.max_afterstates, self.width), dtype=np.float32)
            if mine:
                if self._afterstates is None:
                    if self.variant.sequence_turns:
                        self._afterstates = self._turn_features()
                    else:
                        feats, _ = batch.afterstate_features([g.position], g.dice, self.kind)
                        self._afterstates = feats[:self.max_afterstates]
                n = len(self._afterstates)
                after[:n] = self._afterstates
                mask[:n] = 1
            obs["afterstates"] = after
        else:
            dice = np.zeros(2, dtype=np.int64)
            played = np.zeros(1, dtype=np.int64)
            if mine:
                self.turn.mask(mask.view(np.uint8))
                dice[:] = self._dice()
                played[0] = self.turn.played
            obs["dice"] = dice
            obs["played"] = played
        obs["action_mask"] = mask
        return obs

    # -- pictures ------------------------------------------------------------------------
    def picture_position(self) -> Position:
        g = self.game
        assert g is not None
        if self.to_act is not None and self.mode == "step" and self.turn.played:
            return Position._raw(self.variant, self.turn.key, g.position.turn)
        return g.position

    def render(self, mode: str | None) -> Any:
        if mode is None or self.game is None:
            return None
        pos = self.picture_position()
        dice = self.game.dice if self.to_act is not None else None
        if mode == "ansi":
            from nardy import textboard
            return textboard.board(pos, dice=dice)
        from nardy import svg
        picture = svg.board(pos, dice=dice)
        if mode == "svg":
            return picture
        try:
            import cairosvg
        except ImportError as exc:  # pragma: no cover - the rl and png extras install it
            raise InvalidArgumentError("render_mode='rgb_array' needs cairosvg "
                                       "(pip install nardy[png])") from exc
        return _png_to_rgb(cairosvg.svg2png(bytestring=picture.encode()))


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise InvalidArgumentError(f"render_mode must be None or one of {RENDER_MODES}, "
                                   f"not {render_mode!r}")
    return render_mode


def check_opponent(opponent: Opponent) -> Opponent:
    if opponent in ("random", "greedy") or callable(opponent):
        return opponent
    raise InvalidArgumentError("opponent must be 'random', 'greedy' or a callable "
                               f"f(position, legal_moves) -> index or Move, not {opponent!r}")


SeedFn = Callable[[], int]
