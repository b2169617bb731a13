"""Variants and their rule options, with a registry looked up by name or alias.

A variant object is an immutable rule set: the class says which game (geometry, core policy,
default options); the instance carries the chosen rule options. Presets are subclasses that
change class-level defaults, as python-chess does for chess variants.
"""

from __future__ import annotations

from typing import Any, ClassVar

from nardy import _core
from nardy.errors import InvalidRuleError, UnknownVariantError

WHITE = 0
BLACK = 1


class Variant:
    """Base class of every variant. Instances are hashable, immutable rule sets."""

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    core_variant: ClassVar[_core.Variant]
    #: rule option name -> (default, allowed values)
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {}
    has_bar: ClassVar[bool] = False
    hits: ClassVar[bool] = False

    __slots__ = ("_rules", "_engine")

    def __init__(self, **rules: Any) -> None:
        chosen: dict[str, Any] = {}
        for key, (default, allowed) in self.options.items():
            value = rules.pop(key, default)
            if value not in allowed:
                raise InvalidRuleError(
                    f"{self.name}: rule {key}={value!r} is not one of {allowed!r}")
            chosen[key] = value
        if rules:
            raise InvalidRuleError(
                f"{self.name}: unknown rule option(s) {sorted(rules)}; known: {sorted(self.options)}")
        self._rules = tuple(sorted(chosen.items()))
        self._engine: _core.Engine | None = None

    @property
    def rules(self) -> dict[str, Any]:
        """The rule options in force, name -> value."""
        return dict(self._rules)

    @property
    def engine(self) -> _core.Engine:
        """The C++ engine for these rules (created once, reused)."""
        if self._engine is None:
            self._engine = self._make_engine()
        return self._engine

    def _make_engine(self) -> _core.Engine:
        return _core.Engine(self.core_variant)

    def initial_side(self) -> tuple[int, ...]:
        """The starting side array of either player (26 counts, own coordinates)."""
        raise NotImplementedError

    def to_mover(self, j: int) -> int:
        """The mover's index of the opponent's point index ``j``."""
        raise NotImplementedError

    def point_name(self, index: int, color: int) -> str:
        """The notation name of the mover's index (24 = bar, -1 = off) for a player of ``color``."""
        raise NotImplementedError

    def point_index(self, name: str, color: int) -> int:
        """Inverse of :meth:`point_name`; raises ``ValueError`` for an unknown name."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._rules == self._rules  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._rules))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._rules)
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_variant, (type(self).name, self.rules))


def _rebuild_variant(name: str, rules: dict[str, Any]) -> Variant:
    return find_variant(name)(**rules)


class Backgammon(Variant):
    """Backgammon (short nardy): 2-5-3-5 setup, hitting, the bar."""

    name = "backgammon"
    aliases = ("short nardy", "short-nardy", "короткие нарды", "bg", "nardegammon")
    core_variant = _core.Variant.BACKGAMMON
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {}
    has_bar = True
    hits = True

    def initial_side(self) -> tuple[int, ...]:
        side = [0] * 26
        side[23], side[12], side[7], side[5] = 2, 5, 3, 5
        return tuple(side)

    def to_mover(self, j: int) -> int:
        return 23 - j

    def point_name(self, index: int, color: int) -> str:
        if index == 24:
            return "bar"
        if index == -1:
            return "off"
        return str(index + 1)

    def point_index(self, name: str, color: int) -> int:
        name = name.strip().lower()
        if name == "bar":
            return 24
        if name == "off":
            return -1
        if not name.isdigit() or not 1 <= int(name) <= 25:
            raise ValueError(f"not a backgammon point: {name!r}")
        return int(name) - 1  # 25 is the bar as gnubg writes it


_HEAD_RULES = ("federation", "classic", "extended")
_BLOCK_CHECKS = ("step", "end")


class LongNardy(Variant):
    """Long nardy: no hitting, the head rule, no six-point block in front of every opponent."""

    name = "long-nardy"
    aliases = ("long nardy", "длинные нарды", "long", "narde", "long-nardy-federation")
    core_variant = _core.Variant.LONG_NARDY
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        "head_rule": ("federation", _HEAD_RULES),
        "block_check": ("step", _BLOCK_CHECKS),
    }

    def _make_engine(self) -> _core.Engine:
        rules = self.rules
        head = getattr(_core.HeadRule, rules["head_rule"].upper())
        return _core.Engine(self.core_variant, head, rules["block_check"] == "end")

    def initial_side(self) -> tuple[int, ...]:
        side = [0] * 26
        side[23] = 15
        return tuple(side)

    def to_mover(self, j: int) -> int:
        return (j + 12) % 24

    # Seed 000 numbers the board absolutely: white's head is 24 and home 1-6, black's head 12
    # and home 13-18. White's index i is point i+1; black's is (i + 12) % 24 + 1.
    def point_name(self, index: int, color: int) -> str:
        if index == -1:
            return "off"
        return str((index + (12 if color == BLACK else 0)) % 24 + 1)

    def point_index(self, name: str, color: int) -> int:
        name = name.strip().lower()
        if name == "off":
            return -1
        if not name.isdigit() or not 1 <= int(name) <= 24:
            raise ValueError(f"not a long-nardy point: {name!r}")
        return (int(name) - 1 - (12 if color == BLACK else 0)) % 24


class LongNardyClassic(LongNardy):
    """Long nardy, "classic" preset: 6-6, 4-4, 3-3 on the first turn always free two head checkers."""

    name = "long-nardy-classic"
    aliases = ("long nardy classic",)
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        "head_rule": ("classic", _HEAD_RULES),
        "block_check": ("step", _BLOCK_CHECKS),
    }


class LongNardyExtended(LongNardy):
    """Long nardy, seed-004 preset: a second head checker whenever it lets more dice be played."""

    name = "long-nardy-extended"
    aliases = ("long nardy extended",)
    options: ClassVar[dict[str, tuple[Any, tuple[Any, ...]]]] = {
        "head_rule": ("extended", _HEAD_RULES),
        "block_check": ("step", _BLOCK_CHECKS),
    }


VARIANTS: tuple[type[Variant], ...] = (Backgammon, LongNardy, LongNardyClassic, LongNardyExtended)


def _normalise(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def find_variant(name: str) -> type[Variant]:
    """The variant class answering to ``name`` or one of its aliases (case-insensitive)."""
    if not isinstance(name, str):
        raise UnknownVariantError(f"variant name must be a string, not {type(name).__name__}")
    wanted = _normalise(name)
    for cls in VARIANTS:
        if wanted == _normalise(cls.name) or wanted in (_normalise(a) for a in cls.aliases):
            return cls
    known = ", ".join(cls.name for cls in VARIANTS)
    raise UnknownVariantError(f"unknown variant {name!r}; known: {known}")


def as_variant(variant: Variant | type[Variant] | str | None) -> Variant:
    """Accepts a variant instance, class or name (default: backgammon)."""
    if variant is None:
        return Backgammon()
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, type) and issubclass(variant, Variant):
        return variant()
    return find_variant(variant)()
