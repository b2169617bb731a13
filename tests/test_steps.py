"""The step action space (nardy._core.StepTurn): a turn played one checker step at a time with
an exact legal-step mask.

Checked three ways: for every variant and rule option, the results reached by following the
masks are exactly the core's legal moves and the move the core reports is a masked path; for
backgammon and long nardy the set of masked step sequences equals the set of every ordering of
single steps that the pure-Python references (written from the rules, sharing no code with
the core) accept; and bad input raises nardy errors."""

from __future__ import annotations

import itertools
import os
import random
import zlib

import pytest

import nardy
from nardy import _core
from nardy.variants import VARIANTS

try:
    from tests.reference import backgammon_ref as BG
    from tests.reference import long_nardy_ref as LN
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import backgammon_ref as BG  # type: ignore[no-redef]
    from reference import long_nardy_ref as LN  # type: ignore[no-redef]


def rule_sets(cls):
    """Every combination of the variant's rule options (those with many values, counts
    such as a pass limit, at their default)."""
    names = sorted(cls.options)
    values = []
    for name in names:
        default, allowed = cls.options[name]
        vals = list(allowed)
        if len(vals) > 3:
            vals = [default]
        values.append(vals)
    for combo in itertools.product(*values):
        yield dict(zip(names, combo))


def masked_tree(turn, limit=200_000, outcome=lambda t: t.key):
    """{action sequence: outcome} over every path the masks allow (at most `limit`); the
    outcome of a complete turn is its result key unless told otherwise."""
    out = {}
    path = []

    def walk():
        if len(out) >= limit:
            return
        if turn.done:
            out[tuple(path)] = outcome(turn)
            return
        mask = turn.mask()
        legal = turn.legal()
        assert [a for a in range(turn.size) if mask[a]] == legal
        assert legal, "a turn in progress has no legal action"
        for a in legal:
            assert turn.play(a)
            path.append(a)
            walk()
            path.pop()
            assert turn.undo()

    walk()
    return out


def sample_positions(variant, n, seed):
    """Positions on roll from random games of the variant (its own rules)."""
    rng = random.Random(seed)
    out = []
    pos = nardy.Position.start(variant)
    plies = 0
    while len(out) < n:
        if pos.is_game_over() or plies > 300:
            pos = nardy.Position.start(variant)
            plies = 0
        out.append(pos)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        moves = list(pos.legal_moves(dice))
        pos = pos.play(rng.choice(moves), dice) if moves else pos.pass_turn()
        plies += 1
    return out[:: max(1, len(out) // n)][:n]


CASES = [(cls, rules) for cls in VARIANTS for rules in rule_sets(cls)]


@pytest.mark.parametrize("cls,rules", CASES,
                         ids=[f"{c.name}-{'-'.join(map(str, r.values()))}" for c, r in CASES])
def test_masks_reach_exactly_the_legal_moves(cls, rules):
    variant = cls(**rules)
    turn = _core.StepTurn(variant.engine)
    assert turn.size == 25 * 25 * (2 if turn.hit_flag else 1) + 1 + (6 if cls.names_dice else 0)
    assert turn.names_dice == cls.names_dice
    rng = random.Random(zlib.crc32(repr((cls.name, sorted(rules.items()))).encode()))
    # Shlem's doubles have tens of thousands of orderings: fewer positions, doubles in one
    # position of four.
    n = 4 if variant.prisoners else 25
    checked = 0
    for k, pos in enumerate(sample_positions(variant, n, rng.randrange(1 << 30))):
        rolls = [(rng.randint(1, 6), rng.randint(1, 5)) for _ in range(2)]
        rolls = [(a, b + (b >= a)) for a, b in rolls]  # non-doubles
        if not variant.prisoners or k % 4 == 0:
            rolls.append((rng.randint(1, 6),) * 2)
        for dice in rolls:
            turn.begin(pos.key, *dice)
            lm = pos.legal_moves(dice)
            tree = masked_tree(turn, limit=100_000)
            if len(tree) >= 100_000:
                continue  # too many orderings to walk here
            checked += 1
            if not len(lm):
                assert turn.length == 0
                assert tree == {(turn.pass_action,): pos.key}
                continue
            want = {lm.key(i) for i in range(len(lm))}
            assert set(tree.values()) == want, (pos, dice)
            assert {len(p) for p in tree} == {turn.length}
            # the core's own step list of every move is one of the masked paths
            for i in range(len(lm)):
                path = tuple(turn.encode(s[0], s[1], s[2]) for s in lm.steps(i))
                assert tree.get(path) == lm.key(i), (pos, dice, lm.steps(i))
    assert checked >= 2 * n


# -- every ordering, against the references ---------------------------------------------------

def step_of(before, after):
    """(from, to) of one checker step between two mover side arrays (to -1: borne off)."""
    frm = [i for i in range(25) if after[i] < before[i]]
    to = [i for i in range(24) if after[i] > before[i]]
    assert len(frm) == 1 and len(to) <= 1
    return frm[0], (to[0] if to else -1)


def reference_sequences(mover, opponent, dice, single, legal):
    """{(from, to) sequence: result} of every ordering of single steps, dice taken in any
    order, that ends on a legal result. `single(m, o, d, history)` lists (m', o') after one
    step (None to refuse); `legal` is the reference's set of results."""
    out = {}
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)

    def walk(m, o, left, path):
        if (m, o) in legal and path:
            out[tuple(path)] = (m, o)
        for d in sorted(set(left)):
            rest = list(left)
            rest.remove(d)
            for m2, o2 in single(m, o, d, path):
                walk(m2, o2, rest, path + [step_of(m, m2)])

    walk(tuple(mover), tuple(opponent), pool, [])
    return out


def bg_single(m, o, d, path):
    return set(BG.single_moves(m, o, d))


def check_orderings(variant, mover, opponent, dice, ref):
    turn = _core.StepTurn(variant.engine)
    key = _core.encode(list(mover), list(opponent))
    turn.begin(key, *dice)
    tree = masked_tree(turn)
    if turn.length == 0:
        assert ref == {}
        return 0
    got = {tuple(turn.decode(a)[:2] for a in path): k for path, k in tree.items()}
    want = {p: _core.encode(list(r[0]), list(r[1])) for p, r in ref.items()}
    assert got == want, (mover, opponent, dice)
    return len(got)


def test_backgammon_every_ordering_matches_the_reference():
    variant = nardy.Backgammon()
    rng = random.Random(7)
    total = 0
    for mover, opponent in BG.random_positions(60, seed=20261203):
        for dice in [(rng.randint(1, 6), rng.randint(1, 6)), (rng.randint(1, 6),) * 2]:
            legal = BG.legal_results(mover, opponent, dice)
            if legal == {(tuple(mover), tuple(opponent))}:
                legal = set()
            ref = reference_sequences(mover, opponent, dice, bg_single, legal)
            total += check_orderings(variant, mover, opponent, dice, ref)
    assert total > 1000  # the sample is not trivial


@pytest.mark.parametrize("preset,block_check", [("federation", "step"), ("classic", "end"),
                                                ("extended", "step")])
def test_long_nardy_every_ordering_matches_the_reference(preset, block_check):
    """The six-block rule checked after every step forbids some orders of the same steps;
    the head rule limits the head checkers a turn (both from the reference)."""
    variant = nardy.LongNardy(head_rule=preset, block_check=block_check)
    rng = random.Random(11)
    total = 0
    positions = LN.random_positions(40, seed=20261204, preset=preset, block_check=block_check)
    positions[:0] = [LN.initial()]
    for mover, opponent in positions:
        rolls = [(rng.randint(1, 6), rng.randint(1, 6)), (rng.randint(1, 6),) * 2]
        if mover[LN.HEAD] == LN.CHECKERS:
            rolls += [(6, 6), (4, 4), (3, 3)]
        for dice in rolls:
            legal = LN.legal_results(mover, opponent, dice, preset, block_check)
            if legal == {(tuple(mover), tuple(opponent))}:
                legal = set()
            start_head = mover[LN.HEAD]

            def single(m, o, d, path, start_head=start_head):
                out = []
                for i in range(24):
                    # the head limit is at most two; the legal results decide which applies
                    if i == LN.HEAD and start_head - m[LN.HEAD] >= 2:
                        continue
                    new = LN.single_step(m, o, i, d)
                    if new is None:
                        continue
                    if block_check == "step" and LN.forbidden_block(new, o):
                        continue
                    out.append((new, o))
                return out

            ref = reference_sequences(mover, opponent, dice, single, legal)
            total += check_orderings(variant, mover, opponent, dice, ref)
    assert total > 500


# -- the interface ----------------------------------------------------------------------------

def test_play_undo_and_errors():
    variant = nardy.Backgammon()
    turn = _core.StepTurn(variant.engine)
    start = nardy.Position.start(variant)
    turn.begin(start.key, 6, 5)
    assert turn.length == 2 and turn.played == 0 and not turn.done
    legal = turn.legal()
    # 24/18 is legal, 24/13 in one step is not
    a = turn.encode(23, 17)
    assert a in legal and turn.encode(23, 12) not in legal
    assert turn.decode(a) == (23, 17, False)
    assert turn.decode(turn.pass_action) is None
    assert not turn.play(turn.pass_action)
    assert not turn.play(turn.encode(23, 12))
    assert turn.played == 0
    assert turn.play(a)
    assert turn.encode(17, 12) in turn.legal() and turn.played == 1
    assert turn.play(turn.encode(17, 12)) and turn.done
    assert turn.key == start.play("24/13", (6, 5)).pass_turn().key
    assert turn.mask().sum() == 0 and turn.legal() == []
    assert not turn.play(a)
    assert turn.undo() and turn.undo() and not turn.undo()
    assert turn.key == start.key
    with pytest.raises(nardy.InvalidArgumentError):
        turn.play(turn.size)
    with pytest.raises(nardy.InvalidArgumentError):
        turn.play(-1)
    with pytest.raises(nardy.InvalidArgumentError):
        turn.play(True)
    with pytest.raises(nardy.InvalidArgumentError):
        turn.play(1.0)
    with pytest.raises(nardy.InvalidDiceError):
        turn.begin(start.key, 0, 3)
    with pytest.raises(nardy.InvalidPositionError):
        turn.begin(b"short", 1, 2)
    with pytest.raises(nardy.InvalidArgumentError):
        turn.mask(out=bytearray(3))
    with pytest.raises(nardy.InvalidArgumentError):
        turn.encode(25, 3)


def test_pass_turn():
    # every entry point blocked: the only action is the pass
    variant = nardy.Backgammon()
    mover = [0] * 26
    mover[24] = 2
    mover[5] = 13
    opp = [0] * 26
    for j in range(6):  # the mover's entry points 24-d are the opponent's 0..5
        opp[j] = 2
    opp[20] = 3
    key = _core.encode(mover, opp)
    turn = _core.StepTurn(variant.engine)
    turn.begin(key, 3, 4)
    assert turn.length == 0 and turn.legal() == [turn.pass_action]
    assert turn.play(turn.pass_action) and turn.done and turn.key == key


def test_mask_into_buffer():
    import numpy as np
    variant = nardy.Shlem()
    turn = _core.StepTurn(variant.engine)
    turn.begin(nardy.Position.start(variant).key, 3, 1)
    buf = np.zeros(turn.size, dtype=np.uint8)
    assert turn.mask(buf) is buf
    assert list(np.flatnonzero(buf)) == turn.legal()


# -- turns of several groups of dice -------------------------------------------------------

def sequence_variants():
    return [cls for cls in VARIANTS if getattr(cls, "sequence_turns", False)]


def outcome_of(names):
    """What a complete turn is compared by: its result key, with the named double and whether
    the same player rolls again where the player names dice."""
    return (lambda t: (t.key, t.named, t.again)) if names else (lambda t: t.key)


def path_of(turn, move, names):
    """The actions of a move of Engine.turn_moves: its steps, with the action naming its
    double after the two steps of the 1-2."""
    path = [turn.encode(s[0], s[1], s[2]) for s in move[1]]
    if names and move[2]:
        path.insert(2, turn.name_action(move[2]))
    return path


@pytest.mark.parametrize("cls", sequence_variants(), ids=lambda c: c.name)
def test_dice_sequences_follow_the_whole_turn(cls):
    """A turn of several groups (a doubles cascade, a 1-2 and its named double): every random
    masked path ends on one of the engine's turn moves (with its named double and whether the
    same player rolls again), and every turn move's own steps are a masked path. (Low doubles
    early in a game cascade into millions of moves: the sample takes 3-3 and up.)"""
    variant = cls()
    engine = variant.engine
    names = cls.names_dice
    turn = _core.StepTurn(engine)
    outcome = outcome_of(names)
    rng = random.Random(5)
    cascades = 0
    for pos in sample_positions(variant, 6, 99):
        rolls = [((rng.randint(3, 6),) * 2, rng.randint(1, 12)),
                 ((rng.randint(1, 6), rng.randint(1, 6)), 7)]
        if names:
            rolls += [((1, 2), 5), ((2, 1), 9)]
        for dice, number in rolls:
            played, moves = engine.turn_moves(pos.key, *dice, number, again=names)
            turn.begin(pos.key, *dice, number)
            assert set(turn.results()) == {m[0] for m in moves}
            if not moves:
                assert turn.length == 0 and turn.legal() == [turn.pass_action]
                continue
            assert turn.length == played
            want = {(m[0], m[2], m[3]) if names else m[0] for m in moves}
            cascades += turn.length > 4
            for m in moves[:30]:
                for a in path_of(turn, m, names):
                    assert turn.play(a), (pos, dice, number, m)
                assert turn.done and outcome(turn) == ((m[0], m[2], m[3]) if names else m[0])
                while turn.undo():
                    pass
            for _ in range(10):
                while not turn.done:
                    assert turn.play(rng.choice(turn.legal()))
                assert outcome(turn) in want
                while turn.undo():
                    pass
    assert cascades > 0


def acey_reachable(n, seed):
    """Acey-deucey positions on roll met in random games whose every move is one of the whole
    turn's (the 1-2 with its named double, the same player on roll after a move with again)."""
    variant = nardy.AceyDeucey()
    engine = variant.engine
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        key = nardy.Position.start(variant).key
        for _ in range(rng.randrange(2, 120)):
            moves = engine.turn_legal(key, rng.randint(1, 6), rng.randint(1, 6), 9)
            if not len(moves):
                key = _core.swap(key)
                continue
            i = rng.randrange(len(moves))
            key = moves.key(i) if moves.again(i) else _core.swap(moves.key(i))
            if max(_core.decode(key, variant.core_variant)[0][25],
                   _core.decode(key, variant.core_variant)[1][25]) == 15:
                break
        else:
            out.append(key)
    return out


def test_acey_deucey_named_double_paths_are_exactly_the_moves():
    """After a 1-2 played in full the only actions are the doubles that can be named (the
    'name double d' actions), then that double's steps: the outcomes of every masked path
    (result, named double, rolls again) are exactly the turn's moves of Engine.turn_moves and
    of the independent reference (tests/reference/acey_deucey_ref.py), from the start and from
    random reachable positions (NARDY_SLOW=1: 200 of them); the double is named right after
    the 1-2's two steps, and a move rolls again exactly when it plays all six dice."""
    import numpy as np
    try:
        from tests.reference import acey_deucey_ref as ref
    except ImportError:
        from reference import acey_deucey_ref as ref  # type: ignore[no-redef]
    variant = nardy.AceyDeucey()
    cv = variant.core_variant
    engine = variant.engine
    turn = _core.StepTurn(engine)
    assert turn.names_dice and turn.size == 25 * 25 + 1 + 6
    outcome = outcome_of(True)
    names = {turn.name_action(d) for d in range(1, 7)}
    assert sorted(names) == list(range(turn.pass_action + 1, turn.size))
    assert all(turn.named_die(a) == a - turn.pass_action for a in names)
    assert turn.named_die(turn.pass_action) == 0 and turn.decode(turn.name_action(3)) is None
    start = nardy.Position.start(variant).key
    keys = [start] + acey_reachable(200 if os.environ.get("NARDY_SLOW") else 10, 2026)

    def outcomes(named, memo):
        """{(result, named double, again)} of every masked continuation. A partial turn is
        known by its position, actions so far and named double (the mover's pips tell the
        dice used), so each is walked once."""
        if turn.done:
            assert turn.named == named and turn.again == (turn.played == 7)
            return {(turn.key, turn.named, turn.again)}
        at = (turn.key, turn.played, named)
        if at not in memo:
            legal = turn.legal_actions().tolist()
            assert legal == np.flatnonzero(turn.mask()).tolist() and legal
            out = set()
            for a in legal:
                die = turn.named_die(a)
                # a double is named right after the 1-2's two steps, once
                assert not die or (turn.played == 2 and named == 0), (turn.played, named)
                assert turn.play(a)
                out |= outcomes(named or die, memo)
                assert turn.undo()
            memo[at] = out
        return memo[at]

    named_moves = agains = 0
    for key in keys:
        us, them = _core.decode(key, cv)
        pos = (ref.from_core(us), ref.from_core(them))
        for dice in ((1, 2), (2, 1)) if key == start else ((1, 2),):
            played, moves = engine.turn_moves(key, *dice, 9, again=True)
            turn.begin(key, *dice, 9)
            if not moves:
                assert turn.length == 0 and turn.legal() == [turn.pass_action]
                continue
            want = {(m[0], m[2], m[3]) for m in moves}
            assert outcomes(0, {}) == want, (key, dice)
            ref_played, ref_moves = ref.turn_moves(pos, *dice)
            assert ref_played == played == turn.length
            assert {(_core.encode(ref.to_core(r[0]), ref.to_core(r[1]), cv), nm, ag)
                    for r, nm, ag in ref_moves} == want
            # each move's own steps, its double named after the 1-2, are a masked path to it
            for m in moves[:40]:
                for a in path_of(turn, m, True):
                    assert turn.play(a), (key, dice, m)
                assert turn.done and outcome(turn) == (m[0], m[2], m[3])
                while turn.undo():
                    pass
            named_moves += sum(1 for m in moves if m[2])
            agains += sum(1 for m in moves if m[3])
    assert named_moves > 0 and agains > 0


def test_legal_actions_are_the_mask():
    """StepTurn.legal_actions(): the mask's set entries, ascending, as int32, at every step of
    random turns of every variant (Acey-deucey's naming actions included)."""
    import numpy as np
    rng = random.Random(3)
    for cls in VARIANTS:
        variant = cls(cascade_from_turn=0) if cls.sequence_turns and "cascade_from_turn" in \
            cls.options else cls()
        turn = _core.StepTurn(variant.engine)
        seen = 0
        for pos in sample_positions(variant, 6, 17):
            for dice in [(1, 2), (rng.randint(1, 6), rng.randint(1, 6))]:
                turn.begin(pos.key, *dice, 5 if cls.sequence_turns else 0)
                while True:
                    got = turn.legal_actions()
                    assert got.dtype == np.int32
                    assert got.tolist() == np.flatnonzero(turn.mask()).tolist() == turn.legal()
                    if turn.done:
                        assert len(got) == 0
                        break
                    seen += 1
                    assert turn.play(int(rng.choice(got)))
        assert seen > 10, cls.name


def test_a_cascade_of_millions_is_stepped_without_listing_it():
    """Gul bara's 1-1 on the third turn from the start cascades through every double up to 6-6
    (24 dice, 3.2 million distinct results): the masks need no list of them, and random masked
    paths end on legal moves of the whole turn, as the turn's own search towards a result
    (TurnMoveSet.resolve) finds them."""
    v = nardy.GulBara()
    engine = v.engine
    start = nardy.Position.start(v).key
    turn = _core.StepTurn(engine)
    turn.begin(start, 1, 1, 3)
    assert turn.length == 24
    moves = engine.turn_legal(start, 1, 1, 3)
    rng = random.Random(11)
    ends = set()
    for _ in range(20):
        while not turn.done:
            turn.play(rng.choice(turn.legal()))
        assert turn.played == 24
        found = moves.resolve(turn.key)
        assert found is not None and len(found[0]) == 24
        ends.add(turn.key)
        while turn.undo():
            pass
    assert len(ends) > 1 and not moves.listed
