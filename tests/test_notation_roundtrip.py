"""Notation round-trips in every variant and preset, for both colours: a move taken from a
position prints in that position's notation, and that text denotes the same move again."""

from __future__ import annotations

import pickle
import random

import pytest

import nardy
from nardy.variants import VARIANTS


def _rule_sets() -> list[nardy.Variant]:
    out = []
    for cls in VARIANTS:
        out.append(cls())
        for key, (default, allowed) in cls.options.items():
            for value in allowed[:3]:
                if value != default:
                    out.append(cls(**{key: value}))
    return out


RULE_SETS = _rule_sets()


def _random_game(v: nardy.Variant, seed: int, plies: int):
    """(position, dice, legal moves) along one random game, both colours on roll."""
    rng = random.Random(seed)
    pos = nardy.Position(v)
    for _ in range(plies):
        if pos.is_game_over():
            return
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        moves = pos.legal_moves(dice)
        yield pos, dice, moves
        pos = pos.play(moves[rng.randrange(len(moves))], dice) if moves else pos.pass_turn()


@pytest.mark.parametrize("v", RULE_SETS, ids=lambda v: repr(v))
def test_every_legal_move_round_trips_through_its_text(v: nardy.Variant) -> None:
    colours = set()
    checked = 0
    for seed in range(30):  # short games (Hypergammon's three checkers) take several
        if checked >= 600 and len(colours) == 2:
            break
        for pos, dice, moves in _random_game(v, seed, 80 if isinstance(v, nardy.Shlem) else 300):
            colours.add(pos.turn)
            rng = random.Random(checked)
            # Shlem lists hundreds of moves a roll: a sample of them keeps the test short
            sample = list(moves) if len(moves) <= 40 else rng.sample(list(moves), 40)
            for m in sample:
                text = str(m)
                assert m.variant == v and m.color == pos.turn
                assert pos.parse_move(text, dice) == m, (pos, dice, text)
                assert pos.play(text, dice) == pos.play(m, dice), (pos, dice, text)
                checked += 1
            if not moves:
                assert pos.play("pass", dice) == pos.pass_turn()
    assert colours == {nardy.WHITE, nardy.BLACK}
    assert checked > 500


def test_long_nardy_black_prints_in_blacks_numbering() -> None:
    black = nardy.Position("long nardy").pass_turn()
    (m,) = black.legal_moves((6, 5))
    assert str(m) == "12/1"              # black's head is 12 (docs/rules/long-nardy.md)
    assert black.parse_move("12/1", (6, 5)) == m
    assert black.play(str(m), (6, 5)) == black.play(m, (6, 5))
    white = nardy.Position("long nardy")
    assert str(white.legal_moves((6, 5))[0]) == "24/13"


def test_shlem_moves_print_two_digit_names() -> None:
    pos = nardy.Position("shlem")
    m = pos.parse_move("res/13 24/25", (3, 1))
    assert str(m) == "res/13 24/25"
    black = pos.pass_turn()
    mb = black.legal_moves((3, 1))[0]
    assert black.parse_move(str(mb), (3, 1)) == mb
    assert str(mb) == mb.notation(nardy.Shlem(), nardy.BLACK)


def test_bare_move_has_a_context_free_form() -> None:
    m = nardy.Move([(23, 20), (23, 22)])
    assert m.variant is None and m.color is None
    assert str(m) == "24/21 24/23"                       # the mover's own point numbers
    assert str(nardy.Move([(24, 20, True)])) == "bar/21*"
    assert str(nardy.Move([(2, -1)])) == "3/off"
    assert str(nardy.PASS) == "pass"
    assert nardy.Move.from_notation("24/21 24/23") == m
    # explicit context: the same steps as black plays them in long nardy
    assert m.notation("long nardy", nardy.BLACK) == "12/9 12/11"
    ctx = nardy.Move.from_notation("12/9 12/11", "long nardy", nardy.BLACK)
    assert ctx == m and str(ctx) == "12/9 12/11" and ctx.color == nardy.BLACK
    assert str(m.in_context("long nardy", nardy.BLACK)) == "12/9 12/11"


def test_context_takes_no_part_in_equality() -> None:
    black = nardy.Position("long nardy").pass_turn()
    (m,) = black.legal_moves((6, 5))
    bare = nardy.Move(m.steps)
    assert bare == m and hash(bare) == hash(m) and str(bare) != str(m)
    assert bare in black.legal_moves((6, 5))


def test_moves_pickle_with_their_context() -> None:
    black = nardy.Position("long nardy").pass_turn()
    (m,) = black.legal_moves((6, 5))
    back = pickle.loads(pickle.dumps(m))
    assert back == m and str(back) == "12/1"
    bare = pickle.loads(pickle.dumps(nardy.Move(m.steps)))
    assert str(bare) == "24/13"


def test_moves_and_subclasses_are_freed_and_reused_safely():
    """Move objects from legal_moves are recycled: a subclass's objects, hand-built moves and
    moves still referenced must keep their values and types."""
    import gc
    import nardy

    class Tagged(nardy.Move):
        __slots__ = ("tag",)

    pos = nardy.Position("backgammon")
    kept = list(pos.legal_moves((3, 1)))
    want = [(m.steps, str(m)) for m in kept]
    for _ in range(50):
        tagged = [Tagged(m.steps) for m in pos.legal_moves((6, 5))]
        for t in tagged:
            t.tag = 1
        del tagged
        gc.collect()
        fresh = list(pos.legal_moves((3, 1)))
        assert all(type(m) is nardy.Move for m in fresh)
        assert [(m.steps, str(m)) for m in fresh] == want
    assert [(m.steps, str(m)) for m in kept] == want
    assert type(Tagged(kept[0].steps)) is Tagged
