"""What makes a variant lives in its class: traits read by the shared layers, no check of the
concrete class outside nardy/variants.py, and the queries each variant answers."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import ClassVar

import pytest

import nardy
from nardy import BLACK, WHITE, Game, GameRules, Position, QueryError
from nardy.batch import default_encoding

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "python" / "nardy"

# Every module of the package but variants.py is shared code, new ones included. The few
# listed here are about one game by nature: an evaluator is fitted to one variant's boards,
# and GNU Backgammon's record formats name backgammon as the game they default to.
WRITTEN_FOR_ONE_VARIANT = {
    "evaluators/baselines.py", "evaluators/gnubg.py", "formats/_replay.py", "formats/sgf.py",
}
SHARED = sorted(
    str(f.relative_to(PKG)) for f in PKG.rglob("*.py")
    if f.name != "variants.py" and str(f.relative_to(PKG)) not in WRITTEN_FOR_ONE_VARIANT)
CORE_SHARED = ["game.py", "scoring.py", "cube.py", "results.py", "phases.py", "rules.py",
               "batch.py", "cli.py", "position.py", "notation.py", "match.py",
               "formats/text.py", "formats/jsonform.py"]


def _concrete_names() -> list[str]:
    return sorted({cls.__name__ for v in nardy.VARIANTS for cls in v.__mro__
                   if issubclass(cls, nardy.Variant) and cls is not nardy.Variant})


def _offences(source: str) -> list[str]:
    names = "|".join(_concrete_names())
    patterns = [
        rf"isinstance\([^)]*\b({names})\b",
        rf"issubclass\([^)]*\b({names})\b",
        rf"type\([^)]*\)\s+(is|is not|==|!=)\s+({names})\b",
        rf"import[^\n]*\b({names})\b",
        r"\b_family\(",
        r"\.name\s*(==|!=|in)\s*[\"'(]",
    ]
    found = []
    for lineno, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        for pat in patterns:
            if re.search(pat, code):
                found.append(f"{lineno}: {line.strip()}")
    return found


def test_the_checker_catches_concrete_class_tests():
    # the grep below must be able to fail
    bad = ("from nardy.variants import Shlem\nif isinstance(v, Shlem): pass\n"
           "if type(v) is Backgammon: pass\nif v.name == 'shlem': pass\n_family(v)\n")
    assert len(_offences(bad)) == 5
    assert _offences("if v.counts_passes:  # isinstance(v, Shlem) once\n    pass\n") == []


def test_the_shared_modules_are_all_checked():
    assert set(CORE_SHARED) <= set(SHARED)
    assert all((PKG / f).exists() for f in WRITTEN_FOR_ONE_VARIANT | set(CORE_SHARED))


@pytest.mark.parametrize("path", SHARED)
def test_shared_modules_never_test_the_concrete_variant(path):
    assert _offences((PKG / path).read_text(encoding="utf-8")) == []


def _imports(module: str) -> set[str]:
    """The nardy modules ``module`` imports anywhere (function bodies too), leaving out
    imports under ``if TYPE_CHECKING:``, which never run."""
    tree = ast.parse((PKG / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("nardy."):
            out.add(node.module[len("nardy."):])
        elif isinstance(node, ast.Import):
            out.update(a.name[len("nardy."):] for a in node.names if a.name.startswith("nardy."))
    return out


def test_no_import_circle_between_variants_notation_and_position():
    # variants knows nothing above the core; notation knows the variants; positions both
    layers = ["errors", "variants", "notation", "position"]
    for k, module in enumerate(layers):
        above = set(layers[k + 1:]) | {"game", "batch", "match"}
        if module != "position":  # Position.from_text & co. hand over to nardy.formats
            above.add("formats")
        assert not (_imports(module) & above), (module, _imports(module) & above)
    assert {"variants", "notation"} <= _imports("position")


# -- a variant made of traits only ---------------------------------------------------------

class QuietBackgammon(nardy.Backgammon):
    """Backgammon movement under other rules of play: a subclass changes traits only, and the
    shared layers follow (an isinstance(v, Backgammon) test would give backgammon's rules)."""

    name = "quiet-backgammon-test"
    scorings = ("encyclopedia",)
    default_opening_roll = "fresh"
    cube_allowed = False
    default_encoding = "gnubg"
    gnubg_ids = False
    side_places: ClassVar[tuple[str | None, str]] = ("bar", "off")


def test_game_rules_come_from_the_traits():
    r = GameRules().resolve(QuietBackgammon())
    assert (r.scoring, r.opening_roll, r.cube) == ("encyclopedia", "fresh", False)
    with pytest.raises(nardy.InvalidRuleError, match="without the doubling cube"):
        GameRules(cube=True).resolve(QuietBackgammon())
    with pytest.raises(nardy.InvalidRuleError, match="not a scale"):
        GameRules(scoring="standard").resolve(QuietBackgammon())
    g = Game(QuietBackgammon(), seed=3)
    g.roll((5, 2))                         # fresh opening: the starter rolls again
    assert g.phase is nardy.Phase.ROLL and not g.cube_in_play
    assert default_encoding(QuietBackgammon()) == "gnubg"


def test_defaults_of_the_registered_variants():
    table = {
        "backgammon": ("standard", "rolloff", True, "tdgammon"),
        "long-nardy": ("oin_mars", "fresh", False, "long"),
        "long-nardy-classic": ("oin_mars", "fresh", False, "long"),
        "shlem": ("shlem", "rolloff", False, "shlem"),
    }
    for name, (scoring, opening, cube, enc) in table.items():
        r = GameRules().resolve(name)
        assert (r.scoring, r.opening_roll, r.cube, default_encoding(name)) == \
            (scoring, opening, cube, enc), name


# -- queries that mean something in each variant ------------------------------------------

def _ref_pips(side):
    return sum((i + 1) * n for i, n in enumerate(side[:24])) + 25 * side[24]


def test_pip_count_and_borne_off_where_they_mean_something():
    for name in ("backgammon", "long-nardy"):
        p = Position(name)
        g = Game(name, seed=5)
        while not g.is_game_over() and len(g.history) < 60:
            if g.phase is nardy.Phase.MOVE:
                g.play(0) if g.move_count() else g.pass_turn()
            else:
                g.roll()
            p = g.position
            for c in (WHITE, BLACK):
                assert p.pip_count(c) == _ref_pips(p.side(c))
                assert p.borne_off(c) == p.side(c)[25]
        assert "pip_count" in p.variant.queries
        with pytest.raises(QueryError, match="reserves"):
            p.reserves(WHITE)
    assert Position("backgammon").pip_count() == 167
    assert Position("long-nardy").pip_count(BLACK) == 15 * 24


def test_shlem_answers_its_own_queries_and_refuses_the_others():
    p = Position("shlem")
    for q in (p.pip_count, lambda: p.pip_count(WHITE), lambda: p.borne_off(BLACK)):
        with pytest.raises(QueryError, match="reserves") as e:
            q()
        assert isinstance(e.value, nardy.Error)
    assert (p.reserves(WHITE), p.reserves(BLACK)) == (3, 3)
    assert (p.hit_out(WHITE), p.prisoners_held(WHITE)) == (0, 0)
    assert p.status()["over"] is False
    # a white checker on a lone black checker takes it prisoner (docs/rules/shlem.md)
    w = [0] * 26
    b = [0] * 26
    for i in range(11):
        w[i] = 1
    w[12] = 1            # on the point facing black's index 0 ... (mover coordinates)
    w[24] = 3
    for i in range(12):
        b[i] = 1
    b[24] = 2
    b[0] = -1            # black's checker on its index 0 is held
    b[1] = 2             # the checker count stays 15
    pos = Position.from_colors("shlem", w, b)
    assert pos.prisoners_held(WHITE) == 1 and pos.prisoners_held(BLACK) == 0
    assert pos.reserves(BLACK) == 2
