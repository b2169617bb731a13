"""The rules of play around the moves (:class:`GameRules`): scoring preset, opening roll, the
cube and its options, the draw rule. ``None`` fields take the variant's defaults (its class
traits); :meth:`GameRules.resolve` fills them in and checks the combination."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from nardy import _validate as _v
from nardy.cube import ARITHMETIC, GEOMETRIC, stake
from nardy.errors import InvalidRuleError
from nardy.phases import FRESH, ROLLOFF
from nardy.scoring import find_scoring
from nardy.variants import Variant, as_variant


@dataclass(frozen=True)
class GameRules:
    """The rules of play around the moves. ``None`` means "the variant's default".

    ================= ===============================================================
    scoring           scoring preset: ``standard`` (default) or ``encyclopedia`` for
                      backgammon; ``oin_mars`` (default) or ``four_kind`` for long nardy;
                      ``shlem`` for Shlem
    opening_roll      ``rolloff``: the starter plays the two roll-off dice (backgammon
                      default); ``fresh``: he throws two new dice (long-nardy default)
    cube              the doubling cube («даве»); default on in backgammon, off in long
                      nardy (on = Nardegammon); Shlem has none
    max_cube          the highest stake the cube may reach (None: no limit)
    stakes            ``geometric`` (1, 2, 4, 8 ...) or ``arithmetic`` (1, 2, 3, 4 ...)
    beaver            a doubled player may beaver (redouble at once, keeping the cube)
    raccoon           a beavered doubler may raccoon (redouble the beaver at once)
    jacoby            gammons etc. count single unless a double was taken
    auto_doubles      how many tied opening throws double the stake (0: none)
    no_mars_with_cube every bear-off win counts single while the cube is in play
    last_roll_draw    long nardy: when the starter bears off his last checker the other
                      player has one more turn, and a draw if he bears off all in it
    draw_points       what each player scores for a draw (0.5 or 1), times the stake
    ================= ===============================================================
    """

    scoring: str | None = None
    opening_roll: str | None = None
    cube: bool | None = None
    max_cube: int | None = None
    stakes: str = GEOMETRIC
    beaver: bool = False
    raccoon: bool = False
    jacoby: bool = False
    auto_doubles: int = 0
    no_mars_with_cube: bool = False
    last_roll_draw: bool = False
    draw_points: float = 0.5

    def __post_init__(self) -> None:
        # Types and ranges that do not depend on the variant are checked at construction, so
        # a bad value never sits in a GameRules; numpy scalars become plain bools and ints.
        err = InvalidRuleError
        if self.scoring is not None:
            name = find_scoring(self.scoring).name   # an unknown name fails here
            if not isinstance(self.scoring, str):
                object.__setattr__(self, "scoring", name)
        if self.opening_roll is not None:
            _v.choice(self.opening_roll, "opening_roll", (ROLLOFF, FRESH), error=err)
        _v.choice(self.stakes, "stakes", (GEOMETRIC, ARITHMETIC), error=err)
        for name in ("cube", "beaver", "raccoon", "jacoby", "no_mars_with_cube",
                     "last_roll_draw"):
            value = getattr(self, name)
            if value is not None or name != "cube":
                object.__setattr__(self, name, _v.boolean(value, name, error=err))
        object.__setattr__(self, "max_cube",
                           _v.integer(self.max_cube, "max_cube", 1, error=err, none=True))
        object.__setattr__(self, "auto_doubles",
                           _v.integer(self.auto_doubles, "auto_doubles", 0, 64, error=err))
        points = _v.real(self.draw_points, "draw_points", error=err)
        if points not in (0.5, 1.0):
            raise err(f"draw_points must be 0.5 or 1, got {_v.show(self.draw_points)}")
        object.__setattr__(self, "draw_points", 1 if points == 1.0 else 0.5)

    def resolve(self, variant: Variant | type[Variant] | str | None = None) -> GameRules:
        """These rules with the variant's defaults filled in, validated."""
        v = as_variant(variant)
        r = replace(
            self,
            scoring=find_scoring(self.scoring).name if self.scoring is not None
            else v.default_scoring,
            opening_roll=self.opening_roll if self.opening_roll is not None
            else v.default_opening_roll,
            cube=self.cube if self.cube is not None else (v.cube_allowed and v.default_cube),
        )
        r._validate(v)
        return r

    def _validate(self, v: Variant) -> None:
        bad = InvalidRuleError
        sc = find_scoring(self.scoring)  # type: ignore[arg-type]
        if not sc.applies_to(v):
            raise bad(f"scoring {sc.name!r} is not a scale of {v.name}")
        if self.opening_roll not in (ROLLOFF, FRESH):  # None was filled in by resolve()
            raise bad(f"opening_roll must be {ROLLOFF!r} or {FRESH!r}, not {self.opening_roll!r}")
        if not isinstance(self.cube, bool):
            raise bad(f"cube must be True, False or None, got {_v.show(self.cube)}")
        if not self.cube:
            for name in ("beaver", "raccoon", "jacoby", "no_mars_with_cube"):
                if getattr(self, name):
                    raise bad(f"{name} needs the cube (cube=True)")
            if self.auto_doubles or self.max_cube is not None:
                raise bad("auto_doubles and max_cube need the cube (cube=True)")
        if self.raccoon and not self.beaver:
            raise bad("raccoon needs beaver")
        if self.cube and not v.cube_allowed:
            raise bad(f"{v.name} is played without the doubling cube")
        if self.last_roll_draw and not v.last_roll_draw_allowed:
            raise bad("the last-roll draw is a long-nardy rule (seed 000 §4.3)")

    def stake(self, level: int) -> int:
        """The stake after ``level`` doublings."""
        return stake(self.stakes, level)

    def level_of(self, stake: int) -> int | None:
        """How many doublings make ``stake`` (None when no number of them does)."""
        return next((k for k in range(64) if self.stake(k) == stake), None)

    @staticmethod
    def make(rules: GameRules | dict[str, Any] | None = None,
             variant: Variant | type[Variant] | str | None = None,
             **overrides: Any) -> GameRules:
        """The validated rules a :class:`Game` of ``variant`` made with ``rules`` and
        ``overrides`` plays by (the variant's defaults filled in)."""
        return _make_rules(rules, overrides).resolve(variant)



def _make_rules(rules: GameRules | dict[str, Any] | None, overrides: dict[str, Any]) -> GameRules:
    if rules is None:
        base = GameRules()
    elif isinstance(rules, GameRules):
        base = rules
    elif isinstance(rules, dict):
        overrides = {**rules, **overrides}
        base = GameRules()
    else:
        raise InvalidRuleError(f"rules must be a GameRules or a dict, not {type(rules).__name__}")
    known = {f.name for f in fields(GameRules)}
    unknown = set(overrides) - known
    if unknown:
        raise InvalidRuleError(f"unknown game rule(s) {sorted(unknown)}; known: {sorted(known)}")
    return replace(base, **overrides) if overrides else base



__all__ = ["ARITHMETIC", "FRESH", "GEOMETRIC", "ROLLOFF", "GameRules"]
