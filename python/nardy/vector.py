"""N games stepped at once in C++, for learning agents.

:class:`VectorEnv` holds ``n`` games of one variant and plays them in lockstep: every call
takes one decision per game and runs all the games on to their next decision in C++, with the
GIL released (optionally on several threads). Nothing is built per game or per move in
Python: the observation is a set of numpy arrays the env owns and overwrites.

Afterstate mode (TD-Gammon style): each game waits with the dice of the player on roll already
thrown, and the choices are the *afterstates* of that roll, every distinct resulting position
in the order of ``Position.legal_moves`` (the order of :func:`nardy.batch.afterstates`). The
action of a game is an index into its afterstates.

>>> import numpy as np
>>> env = VectorEnv("backgammon", 4)
>>> obs = env.reset(seed=1)
>>> counts = np.diff(obs.offsets)          # afterstates of each game's roll, never 0
>>> rewards, terminated, truncated = env.step(np.zeros(4, dtype=np.int64))
>>> env.plies.tolist()
[1, 1, 1, 1]

Step mode (``mode="steps"``, for policy networks): a decision is one checker step from the
variant's fixed action space (the one of ``nardy._core.StepTurn``: action
``(from * 25 + to) * H + hit``, from 24 = entering, to 24 = bearing off, H = 2 where the
variant tells a hitting step apart, else 1), and the observation is the position after the
steps played so far with a mask of the steps that extend the turn to a legal complete move.
A turn takes as many steps as the roll plays dice (Acey-deucey's 1-2: its two steps, the
action naming a double, the double's steps); the game goes on when its last step is played.
:attr:`VectorEnv.legal_actions` lists the mask's legal actions (CSR, listed in C++), so a
random or sampled legal step needs no scan of the mask.

>>> env = VectorEnv("backgammon", 2, mode="steps")
>>> obs = env.reset(seed=1)
>>> obs.mask.shape == (2, env.num_actions), bool(obs.mask.any(axis=1).all())
(True, True)
>>> legal = env.legal_actions
>>> bool((legal.actions[legal.offsets[:-1]] == obs.mask.argmax(axis=1)).all())
True

The rules of the loop:

* A step is one player's complete turn (where a roll gives a turn of several rolls, as Gul
  bara's doubles cascade, the whole turn's afterstates, or in step mode its steps).
  A move after which the same player rolls again (Acey-deucey's named double played in
  full, :attr:`VectorEnv.again`) keeps that player on roll.
  Rolls without a legal move pass inside the env (so
  :attr:`to_play` may be the same player twice running); a roll with one legal move is still
  a decision (one afterstate).
* A game that ends is scored by the variant's end rules and points, as rollouts score it
  (``nardy.rollout``: backgammon 1/2/3, long nardy oin 1 / mars 2, Shlem the blockade's
  length squared or 1 for more closed points; no cube). ``rewards[i]`` is those points from
  the view of the player who acted in the step: ``+points`` if that player won, ``-points`` if
  the opponent won, 0 for a draw or a game not over. A game still running after
  ``max_plies`` plies (passes count) is truncated with reward 0.
* A game that ended (``terminated``) or was cut off (``truncated``) has already started its
  next episode when :meth:`VectorEnv.step` returns: its observation is the new episode's first
  decision (auto-reset). Every episode starts from the variant's starting position with the
  player called 0 on roll and a fresh roll (no opening roll-off).
* Randomness: episode ``e`` of game ``i`` after ``reset(seed)`` throws its dice from a
  counter-based stream keyed ``mix(mix(seed, i), e)`` (``nardy.vector.game_dice`` computes
  them). A game depends only on the seed, its index and the actions taken in it, whatever the
  number of games or threads.

The arrays returned by :meth:`~VectorEnv.reset`, :meth:`~VectorEnv.observe` and
:meth:`~VectorEnv.step` and the per-game properties are read-only views into the env's
memory, overwritten by the next ``reset`` or ``step``: copy what you keep.

``nardy.vector.GymVectorEnv`` offers the same games through Gymnasium's ``VectorEnv``
interface (needs gymnasium, the ``rl`` extra).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from nardy import _core, _validate
from nardy.batch import ENCODINGS, _ALIASES, _boards
from nardy.errors import GameStateError, InvalidArgumentError
from nardy.variants import Variant, as_variant

#: The most games one env holds.
MAX_GAMES = 2**24
_ENCODING_IDS = {"tdgammon": 0, "gnubg": 1, "long": 2, "shlem": 3, "plakoto": 4}
_U64 = 2**64 - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Observation(NamedTuple):
    """The afterstates of every game's roll, as CSR: game ``i``'s are rows
    ``offsets[i]:offsets[i + 1]`` of ``afterstates`` (int8 (M, 2, 26) :class:`nardy.batch.Boards`,
    unswapped: side 0 the player who moved) and, when the env encodes them, of ``features``
    ((M, F) float32, each row encoded with side 1, the player to roll next, on roll, as
    :func:`nardy.batch.afterstate_features` does); otherwise ``features`` is None."""

    afterstates: np.ndarray
    features: np.ndarray | None
    offsets: np.ndarray


class StepObservation(NamedTuple):
    """Step mode: each game's position after the steps played so far (``boards``, (n, 2, 26)
    int8, side 0 the mover), its encoding with the mover on roll when the env encodes
    (``features``, (n, F) float32, else None) and ``mask`` ((n, num_actions) bool), the steps
    that extend the turn to a legal complete move."""

    boards: np.ndarray
    features: np.ndarray | None
    mask: np.ndarray


class LegalActions(NamedTuple):
    """Step mode: the legal actions of every game as CSR, game ``i``'s are
    ``actions[offsets[i]:offsets[i + 1]]`` ((L,) int32, ascending: the set entries of row
    ``i`` of the mask; ``offsets`` (n + 1,) int64)."""

    actions: np.ndarray
    offsets: np.ndarray


class VectorEnv:
    """``n`` games of ``variant`` stepped together in C++ (see the module docstring).

    ``variant``: a name, class or instance (an instance carries its rule options).
    ``observation``: ``"boards"`` (the afterstates as int8 rows only) or an encoding name of
    :data:`nardy.batch.ENCODINGS` (``"tdgammon"``, ...; ``"features"`` = the variant's own) to
    get float32 features of every afterstate as well. ``threads``: C++ threads a call uses (1
    by default; 0: all cores); results are the same for any count. ``max_plies``: plies after
    which a game is truncated. ``mode``: ``"afterstates"`` (an action picks a resulting
    position of the roll) or ``"steps"`` (an action is one checker step, with masks); in step
    mode ``observation`` encodes the position on roll instead of the afterstates.
    """

    def __init__(self, variant: Variant | type[Variant] | str | None = "backgammon",
                 n: int = 1, *, observation: str = "boards", threads: int = 1,
                 max_plies: int = 10_000, mode: str = "afterstates") -> None:
        v = as_variant(variant)
        if mode not in ("afterstates", "steps"):
            raise InvalidArgumentError(
                f"mode must be 'afterstates' or 'steps', got {_validate.show(mode)}")
        n = _validate.integer(n, "n (the number of games)", 1, MAX_GAMES)
        threads = _validate.integer(threads, "threads (0: all cores)", 0, _validate.MAX_THREADS)
        max_plies = _validate.integer(max_plies, "max_plies", 1, 2**32 - 1)
        if not isinstance(observation, str):
            raise InvalidArgumentError(
                f"observation must be 'boards', 'features' or an encoding name "
                f"({', '.join(ENCODINGS)}), got {_validate.show(observation)}")
        key = observation.strip().lower()
        key = _ALIASES.get(key, key)
        if key == "features":
            key = v.default_encoding
        if key != "boards" and key not in ENCODINGS:
            raise InvalidArgumentError(
                f"observation must be 'boards', 'features' or an encoding name "
                f"({', '.join(ENCODINGS)}), got {observation!r}")
        if threads == 0:
            threads = _core.hardware_threads()
        self._variant = v
        self._n = n
        self._encoding = None if key == "boards" else key
        self._mode = mode
        self._core = _core.VectorEnv(v.engine, n, threads, max_plies, True,
                                     None if key == "boards" else _ENCODING_IDS[key],
                                     mode == "steps")
        self._views = self._core.fixed_views()
        if mode == "steps":
            self._views["masks"] = self._views["masks"].view(np.bool_)
        self._rewards = np.zeros(n, dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        outs: list[np.ndarray] = []
        for a in (self._rewards, self._terminated, self._truncated):
            view = a.view()
            view.flags.writeable = False
            outs.append(view)
        self._outs: tuple[np.ndarray, np.ndarray, np.ndarray] = (outs[0], outs[1], outs[2])
        self._max_plies = max_plies
        self._seed: int | None = None

    # -- the loop ------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> Any:
        """Starts every game anew (episode 0) and returns the first observation. ``seed``: an
        integer 0..2**64-1; None draws a fresh one (kept in :attr:`seed`)."""
        seed = _validate.seed(seed, none=True)
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._core.reset(seed)
        self._seed = seed
        return self.observe()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Plays one decision per game: ``actions[i]`` indexes game ``i``'s afterstates.
        Returns ``(rewards, terminated, truncated)``: (n,) float32, bool, bool (see the module
        docstring); :meth:`observe` then gives the next decisions. An action out of range
        raises :class:`~nardy.InvalidArgumentError` and changes nothing."""
        a = self._actions(actions)
        bad = self._core.step(a, self._rewards, self._terminated, self._truncated)
        if bad >= 0 and self._mode == "steps":
            raise InvalidArgumentError(
                f"actions[{bad}] = {int(a[bad])} is not a legal step of game {bad} now (see "
                f"the mask; actions 0..{self.num_actions - 1})")
        if bad >= 0:
            count = int(self._views["offsets"][bad + 1] - self._views["offsets"][bad])
            raise InvalidArgumentError(
                f"actions[{bad}] = {int(a[bad])}: game {bad} has {count} afterstates "
                f"(actions 0..{count - 1})")
        return self._outs

    def observe(self) -> Any:
        """The decisions every game waits for: an :class:`Observation` (afterstate mode) or a
        :class:`StepObservation` (step mode)."""
        if self._seed is None:
            raise GameStateError("call reset() first")
        if self._mode == "steps":
            feats = self._core.features() if self._encoding is not None else None
            return StepObservation(self.boards, feats, self._views["masks"])
        rows = _boards(self._core.afterstates(), self._variant, 1)
        feats = self._core.features() if self._encoding is not None else None
        return Observation(rows, feats, self._views["offsets"])

    def _actions(self, actions: Any) -> np.ndarray:
        if self._seed is None:
            raise GameStateError("call reset() before step()")
        if isinstance(actions, np.ndarray) and actions.dtype == np.int64 \
                and actions.shape == (self._n,) and actions.flags.c_contiguous:
            return actions
        try:
            arr = np.asarray(actions)
        except (TypeError, ValueError):
            arr = np.asarray(None)
        if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer) \
                or arr.shape != (self._n,):
            raise InvalidArgumentError(
                f"actions must be {self._n} integers (one afterstate index per game), got "
                f"{_validate.show(actions)}")
        return np.ascontiguousarray(arr, dtype=np.int64)

    @property
    def again(self) -> np.ndarray:
        """Afterstate mode: (M,) bool, one per afterstate row of the last observation: True
        where the player who moved rolls again after it (Acey-deucey's named double played
        in full). Such a row's features are encoded with side 0, the same player, on roll,
        and choosing it leaves :attr:`to_play` unchanged."""
        if self._mode == "steps":
            raise GameStateError("again is an afterstate-mode property")
        if self._seed is None:
            raise GameStateError("call reset() first")
        return self._core.afterstate_again().view(np.bool_)  # type: ignore[no-any-return]

    # -- what the env is and where each game stands ---------------------------------------
    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def n(self) -> int:
        """The number of games."""
        return self._n

    def __len__(self) -> int:
        return self._n

    @property
    def mode(self) -> str:
        """``"afterstates"`` or ``"steps"``."""
        return self._mode

    @property
    def num_actions(self) -> int:
        """Step mode: the size of the step action space (afterstate mode: 0)."""
        return int(self._core.actions)

    @property
    def legal_actions(self) -> LegalActions:
        """Step mode: the legal actions of the last observation, listed in C++ beside the
        mask (a :class:`LegalActions`; read-only views, overwritten by the next step). A random
        legal action per game: ``a.actions[a.offsets[:-1] + (rng.random(n) *
        np.diff(a.offsets)).astype(np.int64)]``."""
        if self._mode != "steps":
            raise GameStateError("legal_actions is a step-mode property")
        if self._seed is None:
            raise GameStateError("call reset() first")
        return LegalActions(self._core.legal_actions(), self._views["legal_offsets"])

    @property
    def steps_played(self) -> np.ndarray:
        """Step mode: (n,) uint8, the steps played in each game's turn so far."""
        if self._mode != "steps":
            raise GameStateError("steps_played is a step-mode property")
        return self._views["steps_played"]  # type: ignore[no-any-return]

    @property
    def threads(self) -> int:
        return int(self._core.threads)

    @property
    def max_plies(self) -> int:
        return self._max_plies

    @property
    def encoding(self) -> str | None:
        """The encoding of :attr:`Observation.features` (None: boards only)."""
        return self._encoding

    @property
    def seed(self) -> int | None:
        """The seed of the last :meth:`reset` (None before the first)."""
        return self._seed

    @property
    def offsets(self) -> np.ndarray:
        """(n + 1,) int64: the CSR offsets of the afterstates."""
        return self._views["offsets"]  # type: ignore[no-any-return]

    @property
    def boards(self) -> np.ndarray:
        """(n, 2, 26) int8: each game's position, side 0 the player on roll (step mode: after
        the steps played so far in the turn)."""
        return _boards(self._views["boards"], self._variant, 0)

    @property
    def dice(self) -> np.ndarray:
        """(n, 2) int8: the roll each game's player on roll has thrown."""
        return self._views["dice"]  # type: ignore[no-any-return]

    @property
    def to_play(self) -> np.ndarray:
        """(n,) int8: who is on roll in each game, 0 = the player on roll at the start of the
        episode, 1 = the other."""
        return self._views["to_play"]  # type: ignore[no-any-return]

    @property
    def episodes(self) -> np.ndarray:
        """(n,) uint32: each game's episode number since :meth:`reset` (auto-resets count)."""
        return self._views["episodes"]  # type: ignore[no-any-return]

    @property
    def plies(self) -> np.ndarray:
        """(n,) uint32: plies played in each game's episode (moves and passes)."""
        return self._views["plies"]  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        obs = "boards" if self._encoding is None else self._encoding
        mode = "" if self._mode == "afterstates" else ", mode='steps'"
        return (f"VectorEnv({self._variant.name!r}, n={self._n}, observation={obs!r}, "
                f"threads={self.threads}{mode})")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return z ^ (z >> 31)


def game_dice(seed: int, game: int, episode: int, ply: int) -> tuple[int, int]:
    """The dice ply ``ply`` of episode ``episode`` of game ``game`` throws after
    ``reset(seed)`` (a pure function of the four numbers; the env's rule, in Python)."""
    def key(s: int, t: int) -> int:
        return _mix(s ^ _mix((t + _GOLDEN) & _U64))
    k = key(key(seed, game), episode)
    word = _mix((k + (2 * ply + 1) * _GOLDEN) & _U64)
    q = ((word >> 32) * 36) >> 32
    return q // 6 + 1, q % 6 + 1


def __getattr__(name: str) -> Any:
    # The Gymnasium wrapper loads gymnasium (the optional ``rl`` extra) only when asked for.
    if name == "GymVectorEnv":
        try:
            from nardy._vector_gym import GymVectorEnv
        except ImportError as exc:
            raise ImportError("nardy.vector.GymVectorEnv needs gymnasium "
                              "(pip install 'nardy[rl]')") from exc
        return GymVectorEnv
    raise AttributeError(f"module 'nardy.vector' has no attribute {name!r}")


__all__ = ["MAX_GAMES", "LegalActions", "Observation", "StepObservation", "VectorEnv",
           "game_dice"]
