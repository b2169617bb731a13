"""nardy.vector.VectorEnv against the same games played one by one through nardy.Game.

Each game of the env is mirrored by a Game started from the variant's starting position: the
mirror throws the dice the env's documented stream gives (game_dice, written from the rule,
not read from the env), plays the afterstate index the test chose, passes where the roll has
no legal move, and scores the end with the Game's own scoring. Every decision, the env's
dice, position, afterstates (in Game.legal_moves order), player on roll, rewards and
episode boundaries must equal the mirror's.
"""

from __future__ import annotations

import numpy as np
import pytest

import nardy
from nardy import batch
from nardy.errors import Error, GameStateError, InvalidArgumentError, InvalidSeedError
from nardy.vector import VectorEnv, game_dice


class Mirror:
    """One env game replayed through nardy.Game."""

    def __init__(self, variant: nardy.Variant, seed: int, index: int, max_plies: int) -> None:
        self.variant, self.seed, self.index, self.max_plies = variant, seed, index, max_plies
        self.episode = -1
        self.new_episode()

    def new_episode(self) -> None:
        self.episode += 1
        self.ply = 0
        self.game = nardy.Game(self.variant, seed=0, position=nardy.Position.start(self.variant))
        self.to_decision()

    def to_decision(self) -> None:
        """Rolls (passing where needed) until the player on roll has a legal move; the game's
        end or the ply limit returns with self.over / self.truncated set instead."""
        self.over = self.truncated = False
        while True:
            if self.game.result() is not None:
                self.over = True
                return
            if self.ply >= self.max_plies:
                self.truncated = True
                return
            self.dice = game_dice(self.seed, self.index, self.episode, self.ply)
            self.game.roll(self.dice)
            if len(self.game.legal_moves()):
                return
            self.game.pass_turn()
            self.ply += 1

    def seat(self) -> int:
        return 0 if self.game.turn == nardy.WHITE else 1

    def play(self, action: int) -> tuple[float, bool, bool]:
        mover_colour = self.game.turn
        self.game.play(self.game.legal_moves()[action])
        self.ply += 1
        self.to_decision()
        reward, term, trunc = 0.0, self.over, self.truncated
        if self.over:
            res = self.game.result()
            if res.winner is not None:
                reward = float(res.points if res.winner == mover_colour else -res.points)
        if term or trunc:
            self.new_episode()
        return reward, term, trunc


def check_decision(env: VectorEnv, obs: batch.Boards, mirrors: list[Mirror]) -> None:
    offsets = obs.offsets
    for i, m in enumerate(mirrors):
        assert not m.over and not m.truncated
        assert tuple(env.dice[i]) == m.dice, (i, m.ply)
        assert env.to_play[i] == m.seat()
        assert env.episodes[i] == m.episode and env.plies[i] == m.ply
        want = batch.to_array([m.game.position])
        np.testing.assert_array_equal(env.boards[i], want[0])
        moves = m.game.legal_moves()
        rows = obs.afterstates[offsets[i]:offsets[i + 1]]
        assert len(rows) == len(moves)
        # afterstates are unswapped: side 0 is the player who moved
        results = batch.to_array(moves.results())[:, ::-1]
        np.testing.assert_array_equal(rows, results)


def run_mirrored(variant: nardy.Variant, n: int, steps: int, seed: int, max_plies: int = 10_000,
                 threads: int = 1, prefer_short: bool = False) -> int:
    env = VectorEnv(variant, n, threads=threads, max_plies=max_plies)
    obs = env.reset(seed)
    mirrors = [Mirror(variant, seed, i, max_plies) for i in range(n)]
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        check_decision(env, obs, mirrors)
        counts = np.diff(obs.offsets)
        actions = (rng.random(n) * counts).astype(np.int64)
        if prefer_short:  # the afterstate with the mover's fewest checkers left: games end sooner
            for i in range(n):
                rows = obs.afterstates[obs.offsets[i]:obs.offsets[i + 1]]
                actions[i] = int(np.argmax(rows[:, 0, 25]))
        rewards, terminated, truncated = env.step(actions)
        for i, m in enumerate(mirrors):
            r, te, tr = m.play(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (r, te, tr), (i, m.episode)
            ended += te
        obs = env.observe()
    check_decision(env, obs, mirrors)
    return ended


#: every variant whose games nardy.Game plays (Shlem apart: its rolls list hundreds of moves;
#: Gul bara, whose turns can be several rolls, below)
VARIANTS = ["backgammon", "nackgammon", "hypergammon", "long nardy", "long nardy classic",
            "tavla", "portes"]


@pytest.mark.parametrize("name", VARIANTS)
def test_games_equal_game_objects(name: str) -> None:
    v = nardy.find_variant(name)()
    steps = 400 if name != "hypergammon" else 150
    ended = run_mirrored(v, 3, steps, seed=11, prefer_short=True)
    assert ended >= 2  # episode boundaries and their rewards were compared


@pytest.mark.parametrize("count,seed,plies", [("each-player", 8, 20), ("game-rolls", 9, 6)])
def test_turns_of_several_rolls(count: str, seed: int, plies: int) -> None:
    # Gul bara's doubles cascade: the afterstates are the whole turn's, on the mover's turn
    # number (1 + plies // 2 from the start, passes counted; counted over the game's rolls,
    # the second roller's one ahead: 1 + (plies + 1) // 2), as Engine.turn_moves lists them
    # (seed 8: in its first 20 plies the doubles after turn 2 are 4-4 or 5-5, whose cascades
    # list a few dozen moves; 1-1 from the start lists 3.2 million; seed 9 rolls 5-5 on the
    # game's fourth roll, the second roller's turn 2, and bigger cascades later)
    v = nardy.find_variant("gul bara")(cascade_count=count)
    ahead = int(count == "game-rolls")
    env = VectorEnv(v, 2)
    obs = env.reset(seed)
    rng = np.random.default_rng(0)
    cascades = 0
    for _ in range(plies):
        boards = np.array(env.boards)
        for i, p in enumerate(batch.from_array(boards, v)):
            d1, d2 = (int(x) for x in env.dice[i])
            turn = 1 + (int(env.plies[i]) + ahead) // 2
            played, moves = v.engine.turn_moves(p.key, d1, d2, turn)
            rows = np.array(obs.afterstates[obs.offsets[i]:obs.offsets[i + 1]])
            got = nardy._core.batch_keys(v.engine, np.ascontiguousarray(rows), False)
            assert got == [m[0] for m in moves]
            cascades += d1 == d2 and turn >= 3 and played > 4
        counts = np.diff(obs.offsets)
        env.step((rng.random(2) * counts).astype(np.int64))
        obs = env.observe()
    assert cascades >= 1


def test_rule_options_reach_the_env() -> None:
    # the head rule changes the first turns' moves; the env must play the instance's rules
    v = nardy.LongNardy(head_rule="extended")
    run_mirrored(v, 2, 30, seed=5)


def test_shlem_games_equal_game_objects() -> None:
    # Shlem rolls list hundreds of moves; a few dozen plies of two games
    run_mirrored(nardy.Shlem(), 2, 25, seed=3)


def test_truncation_and_auto_reset() -> None:
    v = nardy.Backgammon()
    run_mirrored(v, 3, 40, seed=2, max_plies=7)
    env = VectorEnv(v, 2, max_plies=5)
    env.reset(0)
    seen = []
    for _ in range(12):
        _, te, tr = env.step(np.zeros(2, dtype=np.int64))
        seen.append((bool(te[0]), bool(tr[0]), int(env.episodes[0]), int(env.plies[0])))
    # the ply count includes passes, so the cut comes after at most 5 plies of the episode
    assert any(tr for _, tr, _, _ in seen)
    for te, tr, ep, ply in seen:
        if tr:
            assert ply <= 5 and not te


@pytest.mark.parametrize("threads", [2, 3])
def test_same_games_for_any_thread_count(threads: int) -> None:
    def play(t: int, n: int) -> list[tuple]:
        env = VectorEnv("backgammon", n, threads=t, observation="tdgammon")
        obs = env.reset(123)
        rng = np.random.default_rng(7)
        out = []
        for _ in range(150):
            counts = np.diff(obs.offsets)
            a = (rng.random(n) * counts).astype(np.int64)
            r, te, tr = env.step(a)
            obs = env.observe()
            out.append((r.copy(), te.copy(), env.boards.copy(), env.dice.copy(),
                        obs.offsets.copy(), obs.afterstates.copy(), obs.features.copy()))
        return out

    one, many = play(1, 17), play(threads, 17)
    for a, b in zip(one, many):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_game_depends_on_its_index_not_on_n() -> None:
    small, big = VectorEnv("backgammon", 3), VectorEnv("backgammon", 8)
    small.reset(9)
    big.reset(9)
    for _ in range(120):  # every game plays its first afterstate: same games, episodes too
        small.step(np.zeros(3, dtype=np.int64))
        big.step(np.zeros(8, dtype=np.int64))
        np.testing.assert_array_equal(small.boards, big.boards[:3])
        np.testing.assert_array_equal(small.dice, big.dice[:3])
    assert small.episodes.max() >= 1


def test_features_are_the_batch_encoding_of_the_afterstates() -> None:
    env = VectorEnv("long nardy", 4, observation="features")
    assert env.encoding == "long"
    obs = env.reset(1)
    for _ in range(5):
        want = batch.encode(obs.afterstates, "long")  # Boards know side 1 rolls next
        np.testing.assert_array_equal(obs.features, want)
        feats, offs = batch.afterstate_features(env.boards, env.dice, "long", "long nardy")
        np.testing.assert_array_equal(obs.features, feats)
        np.testing.assert_array_equal(obs.offsets, offs)
        env.step(np.zeros(4, dtype=np.int64))
        obs = env.observe()


def test_rewards_follow_the_scoring() -> None:
    # backgammon: gammons and backgammons happen in random play; rewards are +-1, 2 or 3 for the
    # player who moved last, who is the winner when a game ends by bearing off
    env = VectorEnv("backgammon", 64)
    obs = env.reset(4)
    rng = np.random.default_rng(0)
    seen: set[float] = set()
    for _ in range(400):
        a = (rng.random(64) * np.diff(obs.offsets)).astype(np.int64)
        r, te, tr = env.step(a)
        assert not tr.any()
        assert (r[~te] == 0).all()
        seen.update(r[te].tolist())
        obs = env.observe()
    assert seen <= {1.0, 2.0, 3.0} and {1.0, 2.0} <= seen


def test_views_are_read_only_and_survive_the_env() -> None:
    env = VectorEnv("backgammon", 2)
    obs = env.reset(0)
    with pytest.raises(ValueError):
        obs.afterstates[0, 0, 0] = 1
    with pytest.raises(ValueError):
        env.boards[0, 0, 0] = 1
    rows, boards = obs.afterstates, env.boards
    before = rows.copy()
    del env, obs
    import gc
    gc.collect()
    np.testing.assert_array_equal(rows, before)
    assert boards.shape == (2, 2, 26)


def test_bad_arguments() -> None:
    with pytest.raises(nardy.UnknownVariantError):
        VectorEnv("chess", 2)
    for n in (0, -1, 2.0, True, None, 2**40):
        with pytest.raises(InvalidArgumentError):
            VectorEnv("backgammon", n)
    for t in (-1, 1.5, 5000):
        with pytest.raises(InvalidArgumentError):
            VectorEnv("backgammon", 2, threads=t)
    with pytest.raises(InvalidArgumentError):
        VectorEnv("backgammon", 2, max_plies=0)
    for o in ("pixels", 3, None):
        with pytest.raises(InvalidArgumentError):
            VectorEnv("backgammon", 2, observation=o)
    env = VectorEnv("backgammon", 2)
    with pytest.raises(GameStateError):
        env.step([0, 0])
    with pytest.raises(GameStateError):
        env.observe()
    for s in (-1, 2**64, 1.0, "x"):
        with pytest.raises(InvalidSeedError):
            env.reset(s)
    obs = env.reset(0)
    before = env.boards.copy()
    counts = np.diff(obs.offsets)
    for a in ([0], [0, 0, 0], [0.0, 0.0], [True, False], "ab", None, [[0, 0]],
              [0, int(counts[1])], [-1, 0], [0, 2**70]):
        with pytest.raises(Error):
            env.step(a)
    np.testing.assert_array_equal(env.boards, before)  # nothing changed
    assert (env.plies == 0).all()
    env.step(np.array([0, 0], dtype=np.int32))  # any integer dtype
    assert (env.plies >= 1).all()


# -- step mode -----------------------------------------------------------------------------
def _decode(action: int, num_actions: int) -> tuple[int, int, int]:
    """(from, to, hit) of a step action, from the documented layout."""
    h = (num_actions - 1) // (25 * 25)
    hit, rest = action % h, action // h
    to = rest % 25
    return rest // 25, -1 if to == 24 else to, hit if h == 2 else 0


def run_mirrored_steps(variant: nardy.Variant, n: int, steps: int, seed: int,
                       threads: int = 1) -> dict[str, int]:
    """Random legal steps; at the end of each turn the turn's result (with the double it
    named, where the player names one) must be a legal move of the mirror's roll, which the
    mirror then plays. The legal-action lists must be the masks' set entries throughout.
    Returns counts of what happened: games ended, turns, named doubles, extra rolls."""
    env = VectorEnv(variant, n, mode="steps", threads=threads)
    obs = env.reset(seed)
    mirrors = [Mirror(variant, seed, i, 10_000) for i in range(n)]
    rng = np.random.default_rng(seed)
    passes = (env.num_actions - 1) // (25 * 25) * 25 * 25  # the pass action; above: naming
    named = [0] * n
    seen = dict(ended=0, turns=0, named=0, again=0)
    for _ in range(steps):
        for i, m in enumerate(mirrors):
            assert tuple(env.dice[i]) == m.dice and env.to_play[i] == m.seat()
            assert env.episodes[i] == m.episode and env.plies[i] == m.ply
            if env.steps_played[i] == 0:
                named[i] = 0
                np.testing.assert_array_equal(env.boards[i], batch.to_array([m.game.position])[0])
        mask = obs.mask
        legal = env.legal_actions
        lists = [legal.actions[legal.offsets[i]:legal.offsets[i + 1]] for i in range(n)]
        for i in range(n):
            assert lists[i].tolist() == np.flatnonzero(mask[i]).tolist() != []
        actions = np.array([rng.choice(x) for x in lists], dtype=np.int64)
        partial = batch.from_array(np.array(env.boards), variant)
        plies, episodes = env.plies.copy(), env.episodes.copy()
        rewards, terminated, truncated = env.step(actions)
        obs = env.observe()
        for i, m in enumerate(mirrors):
            if actions[i] > passes:  # naming a double moves no checker
                assert not named[i]
                named[i] = int(actions[i]) - passes
                after = partial[i].key
            else:
                after = variant.engine.apply(partial[i].key, [_decode(int(actions[i]),
                                                                      env.num_actions)])
            assert after is not None
            if env.plies[i] == plies[i] and env.episodes[i] == episodes[i]:
                # the turn goes on: the board is the step's result
                assert env.steps_played[i] > 0
                got = batch.from_array(np.array(env.boards[i:i + 1]), variant)[0]
                assert got.key == after
                assert (rewards[i], terminated[i]) == (0, False)
                continue
            moves = m.game.legal_moves()
            if variant.names_dice:
                index = moves.find(after, named[i])  # where it leads and the double it names
            else:
                keys = [moves.key(k) for k in range(len(moves))]
                index = keys.index(after) if after in keys else -1
            assert index >= 0, (i, m.ply)  # every step sequence ends on a legal move
            seen["turns"] += 1
            seen["named"] += named[i] > 0
            seen["again"] += bool(variant.names_dice and moves.again(index))
            r, te, tr = m.play(index)
            assert (rewards[i], terminated[i], truncated[i]) == (r, te, tr)
            seen["ended"] += te
    return seen


@pytest.mark.parametrize("name", ["backgammon", "long nardy", "hypergammon", "tavla"])
def test_step_mode_games_equal_game_objects(name: str) -> None:
    v = nardy.find_variant(name)()
    seen = run_mirrored_steps(v, 3, 500 if name != "long nardy" else 300, seed=4)
    if name == "hypergammon":
        assert seen["ended"] >= 1


def test_step_mode_acey_deucey_equals_game_objects() -> None:
    """Acey-deucey in step mode: a 1-2's two steps, the action naming a double, the double's
    steps; after a move that plays all six dice the same player rolls again (the mirror's
    Game says so), and the games end with the Game's scoring."""
    seen = run_mirrored_steps(nardy.AceyDeucey(), 4, 800, seed=6)
    assert seen["named"] >= 5 and seen["again"] >= 2 and seen["ended"] >= 1, seen


def test_step_mode_acey_deucey_is_reproducible() -> None:
    """The same seed and actions give the same games, for one thread or three; another seed
    other games."""
    def play(t: int, seed: int) -> list:
        env = VectorEnv("acey-deucey", 7, mode="steps", threads=t, observation="tdgammon")
        env.reset(seed)
        rng = np.random.default_rng(2)
        out = []
        for _ in range(300):
            legal = env.legal_actions
            counts = np.diff(legal.offsets)
            pick = legal.actions[legal.offsets[:-1] + (rng.random(7) * counts).astype(np.int64)]
            r, te, tr = env.step(pick)
            obs = env.observe()
            out.append((r.copy(), te.copy(), obs.mask.copy(), obs.features.copy(),
                        env.boards.copy(), env.to_play.copy(), env.dice.copy(),
                        env.steps_played.copy()))
        return out

    one = play(1, 9)
    for a, b in zip(one, play(3, 9)):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    other = play(1, 10)
    assert any(not np.array_equal(a[4], b[4]) for a, b in zip(one, other))


def test_step_mode_same_for_any_thread_count() -> None:
    def play(t: int) -> list:
        env = VectorEnv("backgammon", 9, mode="steps", threads=t, observation="tdgammon")
        obs = env.reset(5)
        rng = np.random.default_rng(1)
        out = []
        for _ in range(120):
            idx = np.flatnonzero(obs.mask)
            rows = idx // env.num_actions
            counts = np.bincount(rows, minlength=9)
            starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
            pick = idx[starts + (rng.random(9) * counts).astype(np.int64)] % env.num_actions
            r, te, tr = env.step(pick)
            obs = env.observe()
            out.append((r.copy(), te.copy(), obs.mask.copy(), obs.features.copy(),
                        env.boards.copy(), env.steps_played.copy()))
        return out

    for a, b in zip(play(1), play(2)):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_step_mode_features_and_bad_steps() -> None:
    env = VectorEnv("backgammon", 3, mode="steps", observation="tdgammon")
    obs = env.reset(0)
    np.testing.assert_array_equal(obs.features, batch.encode(env.boards, "tdgammon", on_roll=0))
    illegal = np.array([int(np.flatnonzero(~obs.mask[i])[0]) for i in range(3)])
    before = env.boards.copy()
    for a in (illegal, [0, 0, env.num_actions], [-1, 0, 0]):
        with pytest.raises(InvalidArgumentError):
            env.step(a)
    np.testing.assert_array_equal(env.boards, before)
    with pytest.raises(InvalidArgumentError):
        VectorEnv("backgammon", 2, mode="step")
    with pytest.raises(GameStateError):
        VectorEnv("backgammon", 2).steps_played


def test_a_move_after_which_the_same_player_rolls_again_keeps_it_on_roll() -> None:
    """Acey-deucey's 1-2: the named double played in full, the same player rolls again. Each
    game is mirrored on position keys with Engine.turn_moves(..., again=True): the
    afterstates, their `again` flags, who is on roll and the dice of every ply must agree."""
    v = nardy.find_variant("acey-deucey")()
    n, seed = 6, 4
    env = VectorEnv(v, n)
    obs = env.reset(seed)
    start = nardy.Position.start(v).key
    keys, seats, plies = [start] * n, [0] * n, [0] * n
    rng = np.random.default_rng(1)
    agains = 0

    def to_decision(i: int) -> list:
        while True:
            d1, d2 = game_dice(seed, i, 0, plies[i])
            _, moves = v.engine.turn_moves(keys[i], d1, d2, 1 + plies[i] // 2, again=True)
            if moves:
                return moves
            keys[i] = nardy._core.swap(keys[i])
            seats[i] ^= 1
            plies[i] += 1

    for _ in range(60):
        for i in range(n):
            moves = to_decision(i)
            assert tuple(env.dice[i]) == game_dice(seed, i, 0, plies[i])
            assert env.to_play[i] == seats[i] and env.plies[i] == plies[i]
            lo, hi = obs.offsets[i], obs.offsets[i + 1]
            assert hi - lo == len(moves)
            assert env.again[lo:hi].tolist() == [m[3] for m in moves]
        counts = np.diff(obs.offsets)
        actions = (rng.random(n) * counts).astype(np.int64)
        # prefer a move after which the same player rolls again, where there is one
        for i in range(n):
            lo, hi = obs.offsets[i], obs.offsets[i + 1]
            hits = np.flatnonzero(env.again[lo:hi])
            if len(hits):
                actions[i] = hits[0]
        chosen = []
        for i in range(n):
            moves = to_decision(i)
            chosen.append(moves[int(actions[i])])
        _, terminated, truncated = env.step(actions)
        assert not terminated.any() and not truncated.any()
        for i, m in enumerate(chosen):
            plies[i] += 1
            if m[3]:
                agains += 1
                keys[i] = m[0]
            else:
                keys[i] = nardy._core.swap(m[0])
                seats[i] ^= 1
        obs = env.observe()
    assert agains >= 3
