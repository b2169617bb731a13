"""A slow, obviously-correct Gul bara move generator written from docs/rules/gul-bara.md,
sharing no code with nardy: positions are two tuples of 26 counts (mover, opponent, each in
its own coordinates: index 0..23 a point counted from the owner's bear-off end, 25 off); the
opponent's index j lies on the mover's (j + 12) % 24.

The opponent does not move during a turn (and nothing is hit), so a turn is searched over the
mover's side alone, one checker step at a time: every ordering of a roll's dice, and a
cascade's dice in their order; the legal moves are the results of the plays with the most
dice.
"""

from __future__ import annotations

Side = tuple[int, ...]
Pos = tuple[Side, Side]


def start() -> Pos:
    s = [0] * 26
    s[23] = 15
    return (tuple(s), tuple(s))


def opponent_on(them: Side, i: int) -> bool:
    return them[(i + 12) % 24] > 0


def closed_points(them: Side) -> frozenset[int]:
    """The mover's points that hold an opponent checker (no hitting: they stay closed for the
    whole turn, since the opponent does not move during it)."""
    return frozenset(i for i in range(24) if opponent_on(them, i))


def side_steps(us: Side, closed: frozenset[int], die: int) -> list[Side]:
    """Every mover's side one checker step of `die` can reach (no hitting, no landing on a
    point the opponent holds, bearing off once all fifteen are home)."""
    return Steps(closed)(us, die)


class Steps:
    """The steps of one turn, whose closed points stay the same throughout (the opponent does
    not move), remembered: the same side comes up again and again in a cascade (every order
    of every group's dice leads through it)."""

    def __init__(self, closed: frozenset[int]) -> None:
        # for each die, the points a step of it can go from and land on the board
        self.open = {die: [(i, i - die) for i in range(die, 24) if i - die not in closed]
                     for die in range(1, 7)}
        self.known: dict[tuple[Side, int], list[Side]] = {}

    def __call__(self, us: Side, die: int) -> list[Side]:
        key = (us, die)
        got = self.known.get(key)
        if got is None:
            got = self.known[key] = self.compute(us, die)
        return got

    def compute(self, us: Side, die: int) -> list[Side]:
        out = []
        for i, t in self.open[die]:
            if us[i]:
                new = list(us)
                new[i] -= 1
                new[t] += 1
                out.append(tuple(new))
        if sum(us[6:24]) == 0:  # all fifteen home (or off): bearing off
            for i in range(die):
                if us[i] == 0:
                    continue
                if i + 1 < die and any(us[i + 1:6]):
                    continue  # a higher die only from the highest point
                new = list(us)
                new[i] -= 1
                new[25] += 1
                out.append(tuple(new))
        return out


def steps(pos: Pos, die: int) -> list[Pos]:
    """Every position one checker step of `die` can reach."""
    us, them = pos
    return [(u, them) for u in side_steps(us, closed_points(them), die)]


def side_plays(us: Side, step: Steps, d1: int, d2: int) -> tuple[int, set[Side]]:
    """(dice played, resulting mover's sides) of one roll's worth of dice by the roll rules: as
    many dice as possible; when only one die of a non-double can be played, the larger if it
    can. Each die is tried from every side the dice before it can leave, in every order."""
    if d1 == d2:
        level: set[Side] = {us}
        played = 0
        for _ in range(4):
            after = {n for u in level for n in step(u, d1)}
            if not after:
                break
            level, played = after, played + 1
        return (played, level) if played else (0, set())
    both = {n for a, b in ((d1, d2), (d2, d1))
            for u in step(us, a) for n in step(u, b)}
    if both:
        return 2, both
    for die in (max(d1, d2), min(d1, d2)):  # only one die: the larger if it can be played
        one = set(step(us, die))
        if one:
            return 1, one
    return 0, set()


def group_plays(pos: Pos, d1: int, d2: int) -> tuple[int, set[Pos]]:
    """side_plays() on positions."""
    us, them = pos
    played, sides = side_plays(us, Steps(closed_points(them)), d1, d2)
    return played, {(u, them) for u in sides}


def cascade(d1: int, d2: int, turn: int, cascade_from_turn: int = 3) -> list[tuple[int, int]]:
    """The groups of dice a roll gives on the mover's turn number `turn`."""
    if d1 != d2 or cascade_from_turn == 0 or turn < cascade_from_turn:
        return [(d1, d2)]
    return [(d, d) for d in range(d1, 7)]


def dice_run(pos: Pos, dice: list[int]) -> tuple[int, set[Pos]]:
    """(dice played, distinct results) of dice played in the given order, one checker step
    each, the longest runs legal (a turn made only of doubles: a cascade, or the dice a
    stopped one leaves)."""
    us, them = pos
    step = Steps(closed_points(them))
    level: set[Side] = {us}
    played = 0
    for die in dice:
        after = {n for u in level for n in step(u, die)}
        if not after:
            break
        level, played = after, played + 1
    return played, ({(u, them) for u in level} if played else set())


def turn_moves(pos: Pos, groups: list[tuple[int, int]]) -> tuple[int, set[Pos]]:
    """(dice played, distinct results) of the whole turn: a group is played only after the
    one before was played in full, and the moves play the most dice over the sequence.

    A turn of one group is played by the roll rules (side_plays). A longer turn (a cascade,
    all doubles) plays its dice in a fixed order, one checker step each: a way to play it is
    a run of steps taking the dice in that order, and the legal moves are the ends of the
    longest runs. So the sides every run of i dice can reach are found for i = 1, 2, ... until
    none can go on; the last ones found are the results."""
    if len(groups) == 1:
        us, them = pos
        step = Steps(closed_points(them))
        played, sides = side_plays(us, step, *groups[0])
        return played, {(u, them) for u in sides}
    assert all(a == b for a, b in groups), "a turn of several groups is made of doubles"
    return dice_run(pos, [a for a, _ in groups for _ in range(4)])


def is_finished(pos: Pos) -> bool:
    return pos[0][25] == 15 or pos[1][25] == 15


def swapped(pos: Pos) -> Pos:
    return (pos[1], pos[0])


ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def perft(pos: Pos, depth: int, first_turn: int = 1, ply: int = 0, carries: bool = False,
          carried: tuple[int, int] | None = None) -> int:
    """Leaves `depth` plies deep over the 21 distinct rolls (a pass is one child; a finished
    game has none); ply p is played on turn first_turn + p // 2. With `carries`, the dice a
    stopped cascade leaves (carry()) are played by the opponent before his roll, as part of
    his ply: each of their results (or the position, when none can be played) is followed by
    his roll."""
    if depth == 0:
        return 1
    if is_finished(pos):
        return 0
    if carried is not None:
        _, results = dice_run(pos, carried_dice(*carried))
        return sum(perft(r, depth, first_turn, ply, carries) for r in (results or {pos}))
    turn = first_turn + ply // 2
    total = 0
    for d1, d2 in ROLLS:
        played, results = turn_moves(pos, cascade(d1, d2, turn))
        if depth == 1:
            total += len(results) or 1
            continue
        left = carry(d1, d2, turn, played) if carries else None
        for r in (results or {pos}):
            total += perft(swapped(r), depth - 1, first_turn, ply + 1, carries, left)
    return total


# -- dice a stopped cascade leaves to the opponent (stopped_cascade="to-opponent") ---------

def carried_dice(die: int, left: int) -> list[int]:
    """The dice of a carried play: those left of the double where the cascade stopped, then
    every higher double in full."""
    return [die] * left + [d for d in range(die + 1, 7) for _ in range(4)]


def carry(d1: int, d2: int, turn: int, played: int,
          cascade_from_turn: int = 3) -> tuple[int, int] | None:
    """(die, left) that a cascade turn playing `played` of its dice leaves to the opponent:
    only a cascade that stopped after at least one die was played."""
    if d1 != d2 or cascade_from_turn == 0 or turn < cascade_from_turn:
        return None  # not a cascade turn
    if played == 0 or played == 4 * (7 - d1):
        return None  # nothing played, or every die
    return (d1 + played // 4, 4 - played % 4)


def perft_carried(pos: Pos, depth: int, first_turn: int) -> int:
    """perft() with stopped_cascade="to-opponent"."""
    return perft(pos, depth, first_turn, carries=True)
