"""Gul bara's stopped_cascade="to-opponent": the dice left where a cascade stops are played by
the opponent before his own roll (docs/rules/gul-bara.md, option ``stopped_cascade``).

The core's carried plays, the dice a turn leaves, and perft with carried plays are checked
against the independent reference (tests/reference/gul_bara_ref.py); the game, its text and
JSON forms, pickling, undo, records and the environments on constructed positions."""

from __future__ import annotations

import copy
import os
import pickle
import random

import numpy as np
import pytest

import nardy
from nardy import Phase, _core
from nardy.formats import jsonform
from nardy.formats.text import from_text, to_text
from tests.reference import gul_bara_ref as ref
from tests.test_reference_gul_bara import LATE, reachable
from tests.test_rollout import GOLDEN, MASK64, _draw, _finalise

SLOW = os.environ.get("NARDY_SLOW") == "1"
CARRIES = nardy.GulBara(stopped_cascade="to-opponent")
# White to play on his fifth turn (a cascade turn). Black holds White's 18- to 23-points, so
# White's fourteen checkers on his 24-point cannot move; his last one, on the 11-point, can
# make three steps of 3 (to the 2-point) but not a fourth: a 3-3 stops with one 3 left.
STOPS = ("gul-bara[stopped_cascade=to-opponent] W:24x14,11 "
         "B:23x3,22x2,21x2,20x2,19x2,18x2,13x2 w turn=5")


def as_pos(key: bytes) -> ref.Pos:
    return tuple(tuple(s) for s in _core.decode(key))  # type: ignore[return-value]


@pytest.mark.parametrize("chunk", range(10 if SLOW else 1))
def test_carried_plays_match_the_reference(chunk: int):
    """Every carried play (left dice of a double, then each higher one) on random reachable
    positions: the same results and dice played as the reference, steps replayed."""
    rng = random.Random(31 + chunk)
    engine = CARRIES.engine
    compared = 0
    for _ in range(100 if SLOW else 6):
        key = reachable(rng, engine)
        pos = as_pos(key)
        if ref.is_finished(pos):
            continue
        for die in range(1, 7):
            for left in range(1, 5):
                played, moves = engine.turn_moves(key, die, die, -left)
                want_played, want = ref.dice_run(pos, ref.carried_dice(die, left))
                assert played == want_played, (key.hex(), die, left)
                got = {as_pos(k) for k, _, _ in moves}
                assert len(got) == len(moves)
                assert got == want, (key.hex(), die, left)
                for k, steps, _ in moves[:5]:
                    assert engine.apply(key, [list(s) for s in steps]) == k
                compared += 1
    assert compared >= 100


def test_carry_matches_the_reference():
    """The dice a turn leaves, from the turn's dice played, on random positions and every
    double, on a cascade turn and an opening turn."""
    rng = random.Random(7)
    engine = CARRIES.engine
    carried = 0
    for _ in range(6):
        key = reachable(rng, engine)
        for d in range(1, 7):
            for turn in (1, 2, 3, LATE):
                played = engine.turn_moves(key, d, d, turn)[0]
                want = ref.carry(d, d, turn, played)
                assert CARRIES.carry((d, d), min(turn, LATE), played) == want
                carried += want is not None
        for d1, d2 in ((2, 1), (6, 5)):
            assert CARRIES.carry((d1, d2), LATE, 1) is None
    # every case of the rule, from the dice played alone
    for d in range(1, 7):
        for played in range(0, 4 * (7 - d) + 1):
            want = ref.carry(d, d, LATE, played)
            assert CARRIES.carry((d, d), LATE, played) == want
            assert nardy.GulBara().carry((d, d), LATE, played) is None
            assert CARRIES.engine.carry(d, d, -1, played) is None  # a carried play leaves none
    assert carried > 0


def test_perft_with_carried_plays_matches_the_reference():
    """perft from a race where a 3-3 stops after one 3 (tests/perft/gul-bara.perft,
    "stopped-cascade"), and from random late positions: the core against the reference, with
    the option and without it; the counts differ, so the carried plays are counted."""
    white, black = [0] * 26, [0] * 26
    white[10], white[0], white[25] = 1, 1, 13
    black[16], black[2], black[1], black[25] = 1, 1, 1, 12
    pos: ref.Pos = (tuple(white), tuple(black))
    key = nardy.Position.from_sides(CARRIES, white, black).key
    for depth in (1, 2, 3):
        want = ref.perft_carried(pos, depth, LATE)
        assert CARRIES.engine.perft_turn(key, depth, first_turn=LATE) == want
        plain = nardy.GulBara().engine.perft_turn(key, depth, first_turn=LATE)
        assert plain == ref.perft(pos, depth, LATE)
        assert (want != plain) == (depth > 1)
    start = nardy.Position.from_sides(CARRIES, white, black)
    for depth in (2, 3, 4):
        want = ref.perft_carried(pos, depth, LATE) if depth < 4 else 190674  # the suite's
        assert sum(n for _, n in nardy.divide(start, depth)) == want
        assert nardy.perft(start, depth) == want
    rng = random.Random(11)
    for _ in range(3):
        key = reachable(rng, CARRIES.engine)
        pos = as_pos(key)
        if not ref.is_finished(pos):
            assert (CARRIES.engine.perft_turn(key, 1, first_turn=LATE)
                    == ref.perft_carried(pos, 1, LATE))


def test_a_stopped_cascade_passes_its_dice_on():
    g = from_text(STOPS).to_game(seed=1)
    g.roll((3, 3))
    moves = g.legal_moves()
    assert moves.played == 3
    g.play("11/2")
    # Black plays one 3 (then 4-4, 5-5, 6-6) before his own roll
    assert g.phase is Phase.MOVE and g.turn == nardy.BLACK
    assert g.carried == (3, 1) and g.dice == (3, 3)
    want = g.position.carried_moves(3, 1)
    carried = g.legal_moves()
    assert carried.played == want.played == 13
    assert set(carried.keys()) == set(want.keys())
    turn_number = g.turn_number
    g.play(0)
    assert g.phase is Phase.ROLL and g.turn == nardy.BLACK and g.carried is None
    assert g.turn_number == turn_number  # a carried play is not a turn
    assert g.position.key == want.key(0)
    g.roll((2, 1))
    assert g.phase is Phase.MOVE and g.carried is None


def test_the_same_turn_under_the_default_rules_loses_the_dice():
    g = from_text(STOPS.replace("[stopped_cascade=to-opponent]", "")).to_game(seed=1)
    g.roll((3, 3))
    g.play("11/2")
    assert g.phase is Phase.ROLL and g.turn == nardy.BLACK and g.carried is None


def test_dice_he_cannot_play_are_lost():
    # Black's fourteen on White's 6-point would land on White's 24-point with a 6, his last
    # one on White's 18-point cannot bear off: no 6 moves. White's 24-point checkers cannot
    # land on that 18-point either; his last one plays 9/3 and nothing follows.
    t = "gul-bara[stopped_cascade=to-opponent] W:24x14,9 B:6x14,18 w turn=5"
    g = from_text(t).to_game(seed=1)
    pos = g.position.pass_turn()
    assert not pos.carried_moves(6, 3)
    g.roll((6, 6))
    assert g.legal_moves().played == 1
    g.play(0)
    assert g.carried is None and g.phase is Phase.ROLL and g.turn == nardy.BLACK


def test_text_json_pickle_undo_and_replay_keep_the_carried_dice():
    g = from_text(STOPS).to_game(seed=1)
    g.roll((3, 3))
    g.play("11/2")
    text = to_text(g)
    assert "carried=3 " in text and "dice=" not in text
    back = from_text(text).to_game(seed=2)
    assert back.carried == (3, 1) and back.position == g.position
    assert set(back.legal_moves().keys()) == set(g.legal_moves().keys())
    assert to_text(back) == text
    for other in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        assert other.carried == (3, 1)
        assert len(other.legal_moves()) == len(g.legal_moves())
    j = jsonform.from_json(jsonform.to_json(g))
    assert j.carried == (3, 1) and j.history == g.history
    # a game set up with carried dice keeps them in its set-up
    set_up = nardy.Game(CARRIES, position=g.position, carried=(3, 1), turn_number=5)
    assert set_up.carried == (3, 1) and set_up.setup["carried"] == (3, 1)
    back_json = jsonform.from_json(jsonform.to_json(set_up))
    assert back_json.carried == (3, 1) and back_json.setup == set_up.setup
    set_up.play(0)
    again = jsonform.from_json(jsonform.to_json(set_up))
    assert again.history == set_up.history and again.position == set_up.position
    assert set_up.replayed().position == set_up.position
    g.play(0)
    assert g.replayed().history == g.history
    assert g.replayed().position == g.position
    g.undo()
    assert g.carried == (3, 1) and g.phase is Phase.MOVE
    assert to_text(g) == text
    g.undo()
    assert g.carried is None and g.dice == (3, 3)


def test_bad_carried_input_is_a_nardy_error():
    pos = from_text(STOPS).position
    with pytest.raises(nardy.Error):
        nardy.Position.start(nardy.GulBara()).carried_moves(3, 1)  # the default rules
    for die, left in ((0, 1), (7, 1), (3, 0), (3, 5), ("3", 1)):
        with pytest.raises(nardy.Error):
            pos.carried_moves(die, left)  # type: ignore[arg-type]
    with pytest.raises(nardy.Error):
        nardy.Game(CARRIES, carried=(3, 1))  # only from a position
    with pytest.raises(nardy.Error):
        nardy.Game(nardy.GulBara(), position=nardy.Position.start(nardy.GulBara()),
                   carried=(3, 1))
    for bad in ((3,), (3, 9), "33", 3):
        with pytest.raises(nardy.Error):
            nardy.Game(CARRIES, position=pos, carried=bad)
    for text in (STOPS + " carried=34", STOPS + " carried=33333",
                 STOPS.replace("[stopped_cascade=to-opponent]", "") + " carried=3",
                 STOPS.replace(" turn=5", " dice=33 carried=3 turn=5")):
        with pytest.raises(nardy.Error):
            from_text(text)
    with pytest.raises(nardy.Error):
        CARRIES.engine.turn_moves(pos.key, 3, 2, -1)  # a carried play is of a double
    with pytest.raises(nardy.Error):
        nardy.GulBara().engine.turn_moves(pos.key, 3, 3, -1)


def test_envs_play_the_carried_dice():
    """The Gymnasium/PettingZoo table in both action modes reaches carried plays and plays them
    through its actions: the dice are the double, and the same player then rolls his own
    turn."""
    from nardy.envs._table import Table

    for mode in ("afterstate", "step"):
        table = Table(CARRIES, mode=mode)
        seen = 0
        rng = random.Random(3)
        for seed in range(40):
            table.reset(seed)
            while table.to_act is not None:
                g = table.game
                assert g is not None
                if g.carried is None:
                    table.opponent_move("random", rng)
                    continue
                seen += 1
                mover, plies = g.turn, len(g.history)
                assert g.dice[0] == g.dice[1] == g.carried[0]
                if mode == "afterstate":
                    assert table.act(rng.randrange(min(len(g.legal_moves()),
                                                       table.max_afterstates)))
                else:
                    while len(g.history) == plies:
                        assert table.act(rng.choice(table.turn.legal()))
                assert g.history[plies].kind == "move" and g.history[plies].player == mover
                assert table.over or (g.turn == mover and g.carried is None)
            if seen >= 3:
                break
        assert seen >= 3, mode


# (afterstate mode lists whole cascades, slow early in a game: with NARDY_SLOW=1 only)
@pytest.mark.parametrize("mode", ["steps"] + (["afterstates"] if SLOW else []))
def test_vector_env_plays_the_carried_dice(mode: str):
    """VectorEnv: a decision of the same player at the same ply as his last one follows his
    play of carried dice (a pass counts a ply, and Gul bara never rolls again); it comes
    only with the option, and the play before it had a double."""
    from nardy.vector import VectorEnv

    def carried_decisions(variant: nardy.Variant) -> int:
        env = VectorEnv(variant, 4, mode=mode)
        env.reset(seed=5)
        rng = np.random.default_rng(0)
        found = 0
        for _ in range(600 if mode == "afterstates" else 4000):
            before = (env.to_play.copy(), env.plies.copy(), env.episodes.copy(),
                      env.dice.copy())
            if mode == "afterstates":
                actions = rng.integers(0, np.diff(env.offsets))
            else:
                legal = env.legal_actions
                counts = np.diff(legal.offsets)
                actions = legal.actions[legal.offsets[:-1] + rng.integers(0, counts)]
            env.step(actions)
            if mode == "steps":
                done = env.steps_played == 0
            else:
                done = np.ones(env.n, dtype=bool)
            same = (done & (env.to_play == before[0]) & (env.plies == before[1])
                    & (env.episodes == before[2]))
            for i in np.flatnonzero(same):
                assert before[3][i, 0] == before[3][i, 1]
            found += int(same.sum())
        return found

    assert carried_decisions(CARRIES) > 0
    assert carried_decisions(nardy.GulBara()) == 0


def test_a_record_with_carried_plays_reads_back():
    """A game from the opening with carried plays, written as a nardy record and as JSON and
    read back: the same history (a record writes the carried play as its player's turn with
    the double)."""
    from nardy.formats import read_record, write_record

    rng = random.Random(2)
    for seed in range(30):
        g = nardy.Game(CARRIES, seed=seed)
        carried = 0
        while not g.is_game_over():
            if g.phase is not Phase.MOVE:
                g.roll()
                continue
            carried += g.carried is not None
            moves = g.legal_moves()
            if not moves:
                g.play(nardy.PASS)
                continue
            picked = CARRIES.engine.turn_pick(g.position.key, *g.dice, g._moves_turn,
                                              rng.getrandbits(64))
            g.play(moves._resolve_key(picked[0])[1])
        if carried:
            break
    assert carried
    back = read_record(write_record(g)).match.games[0]
    assert back.history == g.history
    assert back.result() == g.result()
    as_json = jsonform.from_json(jsonform.to_json(g))
    assert as_json.history == g.history and as_json.result() == g.result()


CARRIED_STREAM = 0x6361727269656421  # the trial's stream of carried plays (engine_impl.hpp)


def _trial(seed: int, trial: int) -> tuple[int | None, int]:
    """(winner, plies) of a random rollout trial replayed in Python from the documented
    streams (nardy/rollout.hpp): the roll's move by the core's turn_pick, and the dice a
    stopped cascade leaves played by the opponent before his roll from the carried stream."""
    engine = CARRIES.engine
    key = _finalise(seed ^ _finalise((trial + GOLDEN) & MASK64))
    pos = nardy.Position.start(CARRIES).key
    on_roll, carried = 0, None

    def winner() -> int | None:
        us, them = _core.decode(pos)
        return on_roll if us[25] == 15 else 1 - on_roll if them[25] == 15 else None

    for ply in range(10000):
        if winner() is not None:
            return winner(), ply
        if carried is not None:
            picked = engine.turn_pick(pos, carried[0], carried[0], -carried[1],
                                      _draw(key ^ CARRIED_STREAM, ply))
            carried = None
            if picked is not None:
                pos = picked[0]
                if winner() is not None:
                    return winner(), ply
        q = ((_draw(key, 2 * ply) >> 32) * 36) >> 32
        d1, d2 = q // 6 + 1, q % 6 + 1
        turn = engine.turn_at(1, ply)
        played = engine.turn_legal(pos, d1, d2, turn).played
        picked = engine.turn_pick(pos, d1, d2, turn, _draw(key, 2 * ply + 1))
        pos = _core.swap(pos if picked is None else picked[0])
        if picked is not None:
            carried = CARRIES.carry((d1, d2), turn, played)
        on_roll ^= 1
    return None, 10000


def test_random_rollouts_play_the_carried_dice():
    """Random rollouts from the start, trial by trial, against their replay in Python: the
    same winner and length, which carried plays change (the replay without them differs)."""
    differ = 0
    for trial in range(12):
        r = nardy.rollout(CARRIES, 1, "random", seed=9, first_trial=trial, threads=1)
        winner, plies = _trial(9, trial)
        assert r.plies == plies, trial
        assert sum(r.wins[winner]) == 1, trial
        plain = nardy.rollout(nardy.GulBara(), 1, "random", seed=9, first_trial=trial,
                              threads=1)
        differ += plain.plies != r.plies
    assert differ > 0


def test_cli_perft_takes_the_rule_options(capsys):
    """`nardy perft` counts under the options the variant argument names, and refuses a
    --position whose rule options it would drop."""
    from tests.test_cli import run

    race = ("gul-bara[stopped_cascade=to-opponent] W:11,1,offx13 B:5,15,14,offx12 w")
    code, out, _ = run(capsys, "perft", "gul-bara[stopped_cascade=to-opponent]", "3",
                       "--position", race)
    assert code == 0 and "12596" in out.replace(",", "")
    code, out, _ = run(capsys, "perft", "gul-bara", "3", "--position",
                       race.replace("[stopped_cascade=to-opponent]", ""))
    assert code == 0 and "14819" in out.replace(",", "")
    code, _, err = run(capsys, "perft", "gul-bara", "3", "--position", race)
    assert code != 0 and "stopped_cascade" in err
    code, _, err = run(capsys, "perft", "gul-bara[no_such=1]", "2")
    assert code != 0 and "no_such" in err
