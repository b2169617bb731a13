"""Games and matches to and from the formats that carry game state (XGID, gnubg IDs, FIBS
board, nardy text, JSON, records): a game or match read back from what it wrote is in the
same state and, driven by the same choices and dice, plays on exactly as the original to the
end (cube owner, score, Crawford game, dice on roll included)."""

from __future__ import annotations

import random

import pytest

import nardy
from nardy import Game, Match, Phase
from nardy.formats import (MatchState, decode_match_id, decode_xgid, encode_match_id,
                           parse_fibs_board)

BOARD_FORMATS = ("text", "xgid", "gnubg_id", "fibs")
SLOW = False


def _dice(rng: random.Random, opening: bool) -> tuple[int, int]:
    while True:
        d = (rng.randint(1, 6), rng.randint(1, 6))
        if not opening or d[0] != d[1]:
            return d


def step(g: Game, rng: random.Random) -> None:
    """One random action the game allows now; the choice depends only on the game's state
    and the generator, so equal games driven by equal generators stay equal."""
    p = g.phase
    if p is Phase.OPENING:
        g.roll(_dice(rng, True))
    elif p is Phase.ROLL:
        if g.can_double() and rng.random() < 0.2:
            g.double()
        else:
            g.roll(_dice(rng, False))
    elif p is Phase.DOUBLED:
        g.take() if rng.random() < 0.7 else g.drop()
    elif p in (Phase.BEAVERED, Phase.RACCOONED):
        g.take()
    elif p is Phase.MOVE:
        n = g.move_count()
        if n:
            g.play(rng.randrange(n))
        else:
            g.pass_turn()
    elif p is Phase.RESIGNED:
        g.decline()
    else:  # pragma: no cover - the drivers stop at OVER
        raise AssertionError(p)


def game_state(g: Game) -> tuple:
    dice = None if g.dice is None else tuple(sorted(g.dice))
    return (g.variant, g.position, g.phase, dice, g.turn, g.to_act, g.crawford,
            g.cube_in_play, g.cube_value if g.cube_in_play else None,
            g.cube_owner if g.cube_in_play else None,
            g.phase is Phase.ROLL and g.can_double(),
            None if g.result() is None else (g.result().winner, g.result().kind,
                                            g.result().points))


def match_state(m: Match) -> tuple:
    return (m.length, m.score, m.is_crawford, m.is_post_crawford, m.crawford_rule,
            m.is_over(), game_state(m.game))


def _writable(g: Game, fmt: str) -> bool:
    p = g.phase
    if p in (Phase.OPENING, Phase.OVER, Phase.RESIGNED):
        return fmt == "text" and p is not Phase.OVER
    if p in (Phase.BEAVERED, Phase.RACCOONED):
        return False
    if p is Phase.DOUBLED and fmt == "fibs":
        return False
    return True


def _game_at(seed: int, variant: str = "backgammon", **rules) -> tuple[Game, random.Random]:
    rng = random.Random(seed)
    g = Game(variant, seed=seed, **rules)
    for _ in range(rng.randrange(1, 80)):
        if g.is_game_over():
            break
        step(g, rng)
    return g, rng


def _play_on_together(a, b, rng: random.Random, state, advance) -> None:
    """Drives both objects with copies of one generator, comparing at every step."""
    r1, r2 = random.Random(), random.Random()
    r1.setstate(rng.getstate())
    r2.setstate(rng.getstate())
    for _ in range(3000):
        assert state(a) == state(b)
        if not advance(a, r1):
            assert not advance(b, r2)
            return
        assert advance(b, r2)
    raise AssertionError("did not end")


def _advance_game(g: Game, rng: random.Random) -> bool:
    if g.is_game_over():
        return False
    step(g, rng)
    return True


def _advance_match(m: Match, rng: random.Random) -> bool:
    if m.is_over():
        return False
    if m.game.is_game_over():
        m.next_game()
    else:
        step(m.game, rng)
    return True


@pytest.mark.parametrize("fmt", BOARD_FORMATS)
def test_game_round_trip_and_play_on(fmt):
    seen = 0
    for seed in range(120):
        g, rng = _game_at(seed)
        if not _writable(g, fmt):
            continue
        s = getattr(g, f"to_{fmt}")()
        h = getattr(Game, f"from_{fmt}")(s)
        assert game_state(h) == game_state(g), s
        assert getattr(h, f"to_{fmt}")() == s
        _play_on_together(g, h, rng, game_state, _advance_game)
        seen += 1
    assert seen >= 50


@pytest.mark.parametrize("fmt", BOARD_FORMATS)
def test_match_round_trip_and_play_on(fmt):
    kinds = set()
    for seed in range(150):
        rng = random.Random(1000 + seed)
        length = rng.choice((1, 2, 3, 5, 7))
        score = (rng.randrange(length), rng.randrange(length))
        post = max(score) == length - 1 and rng.random() < 0.5
        m = Match(length, "backgammon", seed=seed, score=score, post_crawford=post)
        for _ in range(rng.randrange(1, 300)):
            if m.is_over():
                break
            _advance_match(m, rng)
        if m.is_over() or not _writable(m.game, fmt):
            continue
        s = getattr(m, f"to_{fmt}")()
        n = getattr(Match, f"from_{fmt}")(s)
        assert match_state(n) == match_state(m), s
        assert getattr(n, f"to_{fmt}")() == s
        kinds.add((m.is_crawford, m.is_post_crawford, m.game.cube_owner is not None))
        _play_on_together(m, n, rng, match_state, _advance_match)
    # the sample reaches the Crawford game, post-Crawford games and owned cubes
    assert (True, False, False) in kinds
    assert any(k[1] for k in kinds)
    assert any(k[2] for k in kinds)


def test_money_match_and_rules_from_xgid():
    g, _ = _game_at(5, jacoby=True, beaver=True)
    while not _writable(g, "xgid"):
        g, _ = _game_at(g.seed + 1, jacoby=True, beaver=True)
    s = g.to_xgid()
    assert s.split(":")[-3] == "3"                  # rules field: Jacoby and beaver bits
    h = Game.from_xgid(s)
    assert h.rules.jacoby and h.rules.beaver
    assert not Game.from_xgid(s, rules={}).rules.jacoby   # rules given: the ID's flags unused
    m = Match(0, "backgammon", seed=2, score=(3, 5))
    step(m.game, random.Random(0))
    assert Match.from_xgid(m.to_xgid()).score == (3, 5)


def test_known_ids():
    # gnubg's own opening: player 1 (white, bottom) on roll with 5-2 in a 7-point match at 2-4
    # white is gnubg's player 1: score (black's, white's) in the Match ID's order
    mid = encode_match_id(MatchState(dice_owner=1, turn=1, dice=(5, 2), match_length=7,
                                     score=(4, 2)))
    ids = "4HPwATDgc/ABMA:" + mid
    ms = decode_match_id(mid)
    m = Match.from_gnubg_id(ids)
    assert m.length == ms.match_length
    assert m.score == (ms.score[1], ms.score[0])
    assert m.game.turn == (nardy.WHITE if ms.dice_owner == 1 else nardy.BLACK)
    assert m.to_gnubg_id() == ids
    x = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:2:4:0:7:10"
    rec = decode_xgid(x)
    m = Match.from_xgid(x)
    assert (m.length, m.score, m.game.dice) == (7, (2, 4), (5, 2))
    assert m.game.cube_value == 2 and m.game.cube_owner == nardy.BLACK
    assert m.game.position.side(nardy.WHITE) == rec.mover
    assert m.to_xgid() == x


def test_crawford_states():
    x = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:4:2:1:5:10"
    m = Match.from_xgid(x)
    assert m.is_crawford and not m.game.cube_in_play
    assert m.to_xgid() == x
    post = Match.from_xgid(x.replace(":1:5:10", ":0:5:10"))
    assert post.is_post_crawford and post.game.cube_in_play
    with pytest.raises(nardy.Error, match="Crawford"):
        Match.from_xgid(x.replace(":4:2:1:5", ":3:2:1:5"))   # nobody one point away
    with pytest.raises(nardy.Error, match="Crawford"):
        Match.from_xgid(x, crawford=False)
    for fmt in BOARD_FORMATS:                                 # a lone Crawford game
        with pytest.raises(nardy.Error, match="match"):
            getattr(Game.from_xgid(x), f"to_{fmt}")()
    fibs = m.to_fibs()
    assert parse_fibs_board(fibs).did_crawford == 0
    assert Match.from_fibs(fibs).is_crawford


# Gul bara's doubles cascade from its third turn by default, and a low double then lists up to
# millions of moves: random games here cascade from the ninth (the rule option travels with
# the variant, so the round trip covers it too).
_ROUND_TRIP_VARIANTS = {"gul-bara": nardy.find_variant("gul-bara")(cascade_from_turn=9)}
# Seed 4's Gul bara game meets a cascade with millions of moves, which Game lists whole (minutes
# of CPU); the seeds kept play 4 to 7 cascades each.
_ROUND_TRIP_SEEDS = {"gul-bara": (0, 1, 2, 3, 5, 8)}


@pytest.mark.parametrize("name", [c.name for c in nardy.VARIANTS])
def test_text_and_json_every_variant(name):
    variant = _ROUND_TRIP_VARIANTS.get(name, name)
    for seed in _ROUND_TRIP_SEEDS.get(name, range(6)):
        g, rng = _game_at(seed, variant)
        for fmt in ("text", "json"):
            if fmt == "text" and not _writable(g, "text"):
                continue
            try:
                s = getattr(g, f"to_{fmt}")()
            except nardy.Error:
                # the text form refuses what it cannot hold (stated in its message)
                assert fmt == "text"
                continue
            h = getattr(Game, f"from_{fmt}")(s)
            assert game_state(h) == game_state(g)
            _play_on_together(g, h, rng, game_state, _advance_game)
            g, rng = _game_at(seed, variant)


def test_text_form_carries_the_turn_number_where_moves_depend_on_it():
    v = nardy.find_variant("gul-bara")(cascade_from_turn=9)
    g = Game(v, seed=3)
    while g.turn_number < 5 or g.phase is not Phase.ROLL:
        step(g, random.Random(len(g.history)))
    text = g.to_text()
    assert f" turn={g.turn_number}" in text
    h = Game.from_text(text)
    assert h.turn_number == g.turn_number
    # a double before the ninth turn does not cascade: four dice, not sixteen or more
    h.roll((3, 3))
    assert max(len(m.steps) for m in h.legal_moves()) <= 4
    # other variants' moves do not depend on it: no turn= written, and it is refused
    b = Game("backgammon", seed=3)
    b.roll((3, 1))
    assert "turn=" not in b.to_text()
    with pytest.raises(nardy.InvalidIdError, match="turn="):
        Game.from_text(b.to_text() + " turn=2")
    with pytest.raises(nardy.InvalidIdError, match="turn="):
        Game.from_text(text.replace(f"turn={g.turn_number}", "turn=0"))


def test_records_make_matches():
    rng = random.Random(4)
    m = Match(3, "backgammon", seed=4)
    while not m.is_over():
        _advance_match(m, rng)
    for fmt in ("mat", "sgf", "record", "json"):
        n = getattr(Match, f"from_{fmt}")(getattr(m, f"to_{fmt}")())
        assert n.score == m.score and len(n.games) == len(m.games)
        assert [g.position for g in n.games] == [g.position for g in m.games]


def test_parse_game_and_match_recognise_every_format():
    g, _ = _game_at(11)
    while not _writable(g, "fibs"):
        g, _ = _game_at(g.seed + 1)
    for fmt in BOARD_FORMATS + ("json",):
        s = getattr(g, f"to_{fmt}")()
        assert game_state(nardy.parse_game(s)) == game_state(g)
    m = Match(5, seed=1)
    step(m.game, random.Random(1))
    step(m.game, random.Random(1))
    for fmt in BOARD_FORMATS + ("json",):
        assert match_state(nardy.parse_match(getattr(m, f"to_{fmt}")())) == match_state(m)


BAD = [
    ("xgid", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0"),      # a field short
    ("xgid", "XGID=-b----E-C---eE---c-e----B-:1:0:1:00:0:0:1:5:10"),    # Crawford with a cube
    ("xgid", "XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10"),     # a pending beaver
    ("xgid", "XGID=\ud800-b----E-C---eE---c-e----B-:1:-1:1:52:2:4:0:7:10"),  # not Unicode
    ("gnubg_id", "4HPwATDgc/ABMA"),                                      # no Match ID
    ("gnubg_id", "4HPwATDgc/ABMA:cIkp"),
    ("gnubg_id", "4HPwATDgc/ABMA:!!!!!!!!!!!!"),
    ("fibs", "board:You:someplayer:3:0:0"),
    ("text", "backgammon W:24x2,13x5,8x3,6x5 B:24x2,13x5,8x3,6x5 w dice=77"),
    ("text", "backgammon W:24x2,13x5,8x3,6x5 B:24x2,13x5,8x3,6x5 w crawford"),
    ("json", "{not json"),
    ("json", '{"format": "nardy/1", "type": "position"}'),
]


@pytest.mark.parametrize("fmt, text", BAD)
def test_bad_strings_raise_nardy_errors(fmt, text):
    for cls in (Game, Match):
        with pytest.raises(nardy.Error) as e:
            getattr(cls, f"from_{fmt}")(text)
        assert str(e.value)
    with pytest.raises(nardy.Error):
        nardy.parse_game(text)


def test_unwritable_states_are_refused():
    g = Game(seed=1)
    for fmt in ("xgid", "gnubg_id", "fibs"):
        with pytest.raises(nardy.Error, match="opening"):
            getattr(g, f"to_{fmt}")()
    g = Game("long-nardy", seed=1)
    g.roll()
    while g.phase is not Phase.MOVE:
        g.roll()
    with pytest.raises(nardy.Error, match="backgammon board"):
        g.to_xgid()
    assert Game.from_text(g.to_text()).position == g.position
