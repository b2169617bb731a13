"""Evaluators: what a search or a rollout asks of a position, in batches.

An evaluator is a callable that takes N positions as one array and returns, per position, the
outcome probabilities from the view of the player on roll, or a single equity:

``boards`` (N, 2, 26) int8, C-contiguous
    the layout of :mod:`nardy.batch`: ``boards[i, 0]`` the player on roll, ``boards[i, 1]``
    the opponent, each in its own coordinates. The search swaps afterstates before it asks,
    so side 0 is always the side to roll: an evaluator never sees whose move it was.

returns (N, K) float32 probabilities, or (N,) float32 equities
    Probabilities follow the *cumulative* layout of the scoring in force
    (:func:`outcome_names`): ``win`` (the player on roll wins), then for each kind of win
    above the single one ``win_<kind>`` (wins at least that kind), then the same for the
    opponent, ``lose_<kind>``. With backgammon's standard scoring this is gnubg's order of
    its five outputs: ``win, win_gammon, win_backgammon, lose_gammon, lose_backgammon``; long
    nardy's ``oin_mars`` scoring gives ``win, win_mars, lose_mars``; ``four_kind`` gives
    ``win, win_mars, win_home_mars, win_koks, lose_mars, lose_home_mars, lose_koks``.
    Draws are not modelled (the loss probability is ``1 - win``).

An evaluator says which of the two it returns with its ``output`` attribute (``"probabilities"``
or ``"equity"``); :func:`as_evaluator` wraps a plain function (default: probabilities). An
optional ``bind(variant, scoring)`` method returns the evaluator set up for those rules (e.g.
with the right number of columns), or raises :class:`nardy.Error` for rules it was not made
for.

Cubeless money equity (:func:`equity`) is the expected points of the player on roll:
``sum_k (value_k - value_{k-1}) * (P(win >= k) - P(lose >= k))`` over the scoring's kinds
(``value_0 = 0``), which for backgammon is gnubg's ``2 win - 1 + wg - lg + wbg - lbg``.

Adapters: :func:`from_function` (numpy), :class:`OnnxEvaluator` (ONNX Runtime, imported
when first used), :class:`TorchEvaluator` (any PyTorch-like module, duck-typed: nardy does not
depend on torch). Baselines, each with its source: :mod:`nardy.evaluators.baselines`
(``race``, ``pubeval``, ``long_nardy``), and :mod:`nardy.evaluators.gnubg` (gnubg's 0-ply
net, needs the PyPI ``gnubg`` package).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from nardy.errors import Error
from nardy.variants import Variant, as_variant

PROBABILITIES = "probabilities"
EQUITY = "equity"
OUTPUTS = (PROBABILITIES, EQUITY)


def scoring_for(variant: Variant | type[Variant] | str | None, scoring: Any = None) -> Any:
    """The :class:`~nardy.Scoring` in force: ``scoring`` (a preset or its name) checked
    against the variant, or the variant's default."""
    from nardy import find_scoring

    name = None if scoring is None else find_scoring(scoring).name
    return _scoring_for(as_variant(variant), name)


@functools.lru_cache(maxsize=256)
def _scoring_for(variant: Variant, name: str | None) -> Any:
    # resolving GameRules costs more than a 0-ply search of a roll; variants are values
    from nardy import GameRules, find_scoring

    resolved = GameRules(scoring=name).resolve(variant).scoring
    assert resolved is not None  # resolve() fills in the default
    return find_scoring(resolved)


def outcome_names(scoring: Any) -> tuple[str, ...]:
    """The names of the probability columns for ``scoring`` (a Scoring or its name)."""
    from nardy import find_scoring

    kinds = find_scoring(scoring).kind_names[1:]
    return ("win",) + tuple(f"win_{k}" for k in kinds) + tuple(f"lose_{k}" for k in kinds)


def outcome_width(scoring: Any) -> int:
    """Number of probability columns for ``scoring``: ``2 * kinds - 1``."""
    return len(outcome_names(scoring))


def _values(scoring: Any) -> np.ndarray:
    from nardy import find_scoring

    return np.array([v for _, v in find_scoring(scoring).kinds], dtype=np.float64)


def equity(probabilities: Any, scoring: Any) -> np.ndarray:
    """Cubeless money equity (float64) of (N, K) probabilities in the layout of ``scoring``."""
    p = np.asarray(probabilities, dtype=np.float64)
    vals = _values(scoring)
    n = len(vals)
    if p.shape[-1] != 2 * n - 1:
        raise Error(f"probabilities have {p.shape[-1]} columns; {find_name(scoring)} needs "
                    f"{2 * n - 1}: {', '.join(outcome_names(scoring))}")
    step = np.diff(vals, prepend=0.0)  # value gained at each level
    eq = step[0] * (2.0 * p[..., 0] - 1.0)
    if n > 1:
        eq = eq + (p[..., 1:n] - p[..., n:]) @ step[1:]
    return np.asarray(eq)


def find_name(scoring: Any) -> str:
    from nardy import find_scoring

    return str(find_scoring(scoring).name)


def invert(values: np.ndarray, output: str) -> np.ndarray:
    """The same outcomes from the other player's view: equities negated; probabilities
    ``win -> 1 - win`` and the ``win_*`` and ``lose_*`` columns exchanged."""
    if output == EQUITY:
        return -values
    n = (values.shape[-1] + 1) // 2
    out = np.empty_like(values)
    out[..., 0] = 1.0 - values[..., 0]
    out[..., 1:n] = values[..., n:]
    out[..., n:] = values[..., 1:n]
    return out


def win_values(levels: np.ndarray, scoring: Any, output: str) -> np.ndarray:
    """Exact outcome rows for games won by the player on roll at ``levels`` (0-based kind
    index per row): probabilities 1 / 0, or the kind's points as equity."""
    vals = _values(scoring)
    levels = np.asarray(levels, dtype=np.int64)
    if output == EQUITY:
        return vals[levels]
    n = len(vals)
    out = np.zeros((len(levels), 2 * n - 1), dtype=np.float64)
    out[:, 0] = 1.0
    for k in range(1, n):
        out[:, k] = levels >= k
    return out


class Evaluator:
    """Base class of the built-in evaluators and adapters (subclassing it is optional: any
    callable with an ``output`` attribute works)."""

    output: str = PROBABILITIES
    name: str = "evaluator"

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def bind(self, variant: Variant, scoring: Any) -> Evaluator:
        """This evaluator set up for ``variant`` under ``scoring`` (raises :class:`nardy.Error`
        if it was not made for them)."""
        return self

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} ({self.output})>"


class FunctionEvaluator(Evaluator):
    """A plain numpy function ``fn(boards) -> array`` as an evaluator. With ``encoding`` (a
    :mod:`nardy.batch` encoding name) the function receives the (N, F) float32 features of the
    boards (side 0 on roll) instead."""

    def __init__(self, fn: Callable[[np.ndarray], Any], output: str = PROBABILITIES, *,
                 encoding: str | None = None, name: str | None = None) -> None:
        if not callable(fn):
            raise Error(f"an evaluator function must be callable, not {fn!r}")
        self.fn = fn
        self.output = _check_output(output)
        self.encoding = None if encoding is None else _encoding(encoding)
        self.name = str(name or getattr(fn, "__name__", type(fn).__name__))

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        x = boards if self.encoding is None else _encode(boards, self.encoding)
        return np.asarray(self.fn(x))


def from_function(fn: Callable[[np.ndarray], Any], output: str = PROBABILITIES, *,
                  encoding: str | None = None, name: str | None = None) -> FunctionEvaluator:
    """Wraps a numpy function as an evaluator (see :class:`FunctionEvaluator`)."""
    return FunctionEvaluator(fn, output, encoding=encoding, name=name)


class OnnxEvaluator(Evaluator):
    """An ONNX model run by ONNX Runtime (``pip install onnxruntime``; imported here, not by
    ``import nardy``). The model takes one (N, F) float32 input, the ``encoding`` features of
    the positions (side 0 on roll), and its first output is (N, K) probabilities or (N,) /
    (N, 1) equities, as ``output`` says. ``model``: a path, model bytes, or an
    ``onnxruntime.InferenceSession``."""

    def __init__(self, model: Any, encoding: str, output: str = PROBABILITIES, *,
                 input_name: str | None = None, name: str | None = None) -> None:
        self.output = _check_output(output)
        self.encoding = _encoding(encoding)
        if hasattr(model, "run") and hasattr(model, "get_inputs"):
            self.session = model
        else:
            try:
                import onnxruntime
            except ImportError:
                raise Error("OnnxEvaluator needs ONNX Runtime: pip install onnxruntime") from None
            self.session = onnxruntime.InferenceSession(
                model if isinstance(model, (bytes, bytearray)) else str(model),
                providers=["CPUExecutionProvider"])
        self.input_name = input_name or self.session.get_inputs()[0].name
        self.name = name or "onnx"

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        x = _encode(boards, self.encoding)
        return np.asarray(self.session.run(None, {self.input_name: x})[0])


class TorchEvaluator(Evaluator):
    """A PyTorch module (or anything called like one) as an evaluator, duck-typed: nardy
    imports ``torch`` only when this evaluator is called, and only to turn the features into
    a tensor. The module gets a (N, F) float32 tensor of the ``encoding`` features (moved to
    ``device`` if given) under ``torch.no_grad()``; its output is read back with
    ``.detach().cpu().numpy()``."""

    def __init__(self, module: Any, encoding: str, output: str = PROBABILITIES, *,
                 device: Any = None, name: str | None = None) -> None:
        if not callable(module):
            raise Error(f"a torch module must be callable, not {module!r}")
        self.module = module
        self.output = _check_output(output)
        self.encoding = _encoding(encoding)
        self.device = device
        self.name = name or type(module).__name__

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        import torch  # the caller's own dependency

        x = torch.from_numpy(_encode(boards, self.encoding))
        if self.device is not None:
            x = x.to(self.device)
        with torch.no_grad():
            y = self.module(x)
        if hasattr(y, "detach"):
            y = y.detach().cpu().numpy()
        return np.asarray(y)


def _check_output(output: Any) -> str:
    if output not in OUTPUTS:
        raise Error(f"evaluator output must be 'probabilities' or 'equity', not {output!r}")
    return str(output)


def _encoding(kind: str) -> str:
    from nardy.batch import _kind

    return _kind(kind)


def _encode(boards: np.ndarray, kind: str) -> np.ndarray:
    from nardy import batch

    return batch.encode(boards, kind, on_roll=0)


def _builtin(name: str, variant: Variant) -> Evaluator:
    from nardy.evaluators import baselines

    key = name.strip().lower().replace("-", "_")
    if key == "gnubg":
        from nardy.evaluators.gnubg import GnubgEvaluator

        return GnubgEvaluator()
    if key in baselines.BASELINES:
        return baselines.BASELINES[key]()
    raise Error(f"unknown evaluator {name!r}; built in: {', '.join(BUILTIN)}")


#: names :func:`as_evaluator` accepts
BUILTIN = ("race", "pubeval", "long_nardy", "gnubg")


def as_evaluator(evaluator: Any, variant: Variant | type[Variant] | str | None = None,
                 scoring: Any = None) -> Any:
    """``evaluator`` checked for use with ``variant`` and ``scoring``: a built-in name
    (:data:`BUILTIN`), an object with an ``output`` attribute, or a plain callable (taken as
    returning probabilities)."""
    v = as_variant(variant)
    if isinstance(evaluator, str):
        evaluator = _builtin(evaluator, v)
    elif not callable(evaluator):
        raise Error(f"an evaluator must be callable or a built-in name "
                    f"({', '.join(BUILTIN)}), not {evaluator!r}")
    elif not hasattr(evaluator, "output"):
        evaluator = from_function(evaluator)
    sc = scoring_for(v, scoring)
    bind = getattr(evaluator, "bind", None)
    if bind is not None:
        evaluator = bind(v, sc)
    _check_output(getattr(evaluator, "output", None))
    return evaluator


def call(evaluator: Any, boards: np.ndarray, scoring: Any, chunk: int = 1 << 16) -> np.ndarray:
    """Calls ``evaluator`` on ``boards`` (in chunks of at most ``chunk`` rows) and checks its
    answer: float64 (N, K) probabilities or (N,) equities."""
    n = len(boards)
    width = outcome_width(scoring)
    probs = evaluator.output == PROBABILITIES
    if n == 0:
        return np.zeros((0, width) if probs else (0,), dtype=np.float64)
    parts = []
    for lo in range(0, n, chunk):
        part = boards[lo:lo + chunk]
        y = np.asarray(evaluator(part), dtype=np.float64)
        m = len(part)
        if probs:
            if y.shape != (m, width):
                raise Error(f"evaluator {getattr(evaluator, 'name', '')!r} returned shape "
                            f"{y.shape} for {m} positions; {find_name(scoring)} scoring needs "
                            f"({m}, {width}): {', '.join(outcome_names(scoring))}")
        else:
            if y.ndim == 2 and y.shape[1] == 1:
                y = y[:, 0]
            if y.shape != (m,):
                raise Error(f"evaluator {getattr(evaluator, 'name', '')!r} returned shape "
                            f"{y.shape} for {m} positions; an equity evaluator returns ({m},)")
        if np.isnan(y).any():
            raise Error(f"evaluator {getattr(evaluator, 'name', '')!r} returned NaN")
        parts.append(y)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


__all__ = ["BUILTIN", "EQUITY", "Evaluator", "FunctionEvaluator", "OUTPUTS", "OnnxEvaluator",
           "PROBABILITIES", "TorchEvaluator", "as_evaluator", "call", "equity",
           "from_function", "invert", "outcome_names", "outcome_width", "scoring_for",
           "win_values"]
