"""An independent reading of the legal moves, checked along seeded random games.

After every move of a seeded random game (the engine's state stepped through hzai.core,
and every few moves through `hzai replay` / `hzai legal` too), the legal moves are
compared with the moves this file computes from the referee's state JSON alone, following the rules text: placement, the five
actions with L-FIGHT-3's count rule, the DI and the ability, Move under both
relocations, Recover's bounds, Support's multisets, the Oracle, and every interrupt.
Along the way the cards stay where L-COMP-6 puts them and no turn starts with a hand
above four (L-TURN-5)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations

import pytest

from tests.legends.rules.contract import (
    ATTRS, HEROES, MONSTERS, action_cards, all_action_cards, di_count, moves, seen, state, view_claims_are_true,
)

HAND_MAX, RECOVER_TO, LOOK = 4, 5, 6


def _multisets(cards: list[str], size: int | None = None) -> set[str]:
    cards = sorted(cards)
    sizes = [size] if size is not None else range(1, len(cards) + 1)
    return {",".join(c) for n in sizes for c in combinations(cards, n)}


def _recovers(h: int, p: int) -> set[str]:
    return {f"recover {k}" for k in range(0, min(RECOVER_TO - h, p) + 1) if h + k >= 1}


def expected_moves(st: dict, relocation: str) -> set[str]:
    """The legal moves of the seat to decide, read from the rules text."""
    if st["result"] is not None or st["pending"] in (None, "chance"):
        return set()
    seat = st["to_move"]
    hand = st["seats"][seat]["hand"]
    pending = st["pending"]
    in_play = [m for m in st["monsters"] if m["status"] == "in_play"]
    if pending == "place":
        return {f"place {m['id']}" for m in in_play}
    if pending == "recover_discard":
        return {f"discard {c}" for c in hand}
    if pending == "support_discard":
        return {f"discard {c}" for c in _multisets(hand, max(1, len(hand) - HAND_MAX))}
    if pending == "oracle_return":
        shown = st["oracle_revealed"]
        out = set()
        for d in set(shown):
            rest = list(shown)
            rest.remove(d)
            out |= {f"discard {d}" + (f" order {','.join(o)}" if o else "") for o in set(permutations(rest))}
        return out
    p = len(st["draw_pile"])
    if pending == "forced_recover":
        return _recovers(len(hand), p)
    assert pending == "action", pending
    out = _recovers(len(hand), p)
    me = st["seats"][seat]
    on = next(m for m in st["monsters"] if m["id"] == me["disc"])
    stranded = on["status"] == "defeated"
    if not stranded and hand:
        need = Counter(on["requires"])
        cnt = Counter(x["as"] for x in on["played"] if x["as"] is not None)
        c = len(on["played"])
        d = sum(max(0, need[a] - cnt[a]) for a in need)

        def fits(a):
            return need[a] > 0 and (cnt[a] < need[a] or c + 1 + d <= on["size"])

        out |= {f"fight {x}" for x in set(hand) if x != "di" and fits(x)}
        if "di" in hand:
            out |= {f"fight di {a}" for a in ATTRS if fits(a)}
            if d == 0:
                out.add("fight di-slay")
        if not me["broken"] and fits(HEROES[me["hero"]]):
            out |= {f"fight ability {x}" for x in set(hand)}
    for m in in_play:
        if m["id"] == on["id"]:
            continue
        if stranded and relocation == "free":
            out.add(f"move {m['id']}")
        else:
            out |= {f"move {m['id']} {x}" for x in set(hand)}
    if len(st["seats"]) > 1 and hand:
        for other in st["seats"]:
            if other != seat:
                out |= {f"support {other} {c}" for c in _multisets(hand)}
    if p >= 1:
        out.add("oracle")
    return out


def shuffled_record(mission: int, heroes: list[str], difficulty: str, relocation: str, rng: random.Random) -> dict:
    """A setup record dealt by the test's own shuffle (chance orders are then written by
    the test, as moves)."""
    pool = list(action_cards(len(heroes), difficulty).elements())
    rng.shuffle(pool)
    deck = list(MONSTERS)
    rng.shuffle(deck)
    n = len(heroes)
    hands = {f"p{i + 1}": pool[4 * i: 4 * i + 4] for i in range(n)}
    return {"format": "legends-record/1", "mission": mission, "heroes": heroes, "difficulty": difficulty,
            "variants": {"relocation": relocation},
            "setup": {"monster_deck": deck, "hands": hands, "draw_pile": pool[4 * n:]}, "moves": []}


GAMES = [  # mission, heroes, difficulty, relocation, seed (each reaches its final monsters; three are won)
    (1, ["Perseus", "Atalanta"], "human", "paid", 1),
    (2, ["Achilles", "Jason", "Hercules", "Perseus"], "human", "paid", 1),
    (5, ["Achilles", "Jason", "Hercules"], "heroic", "paid", 1),
    (6, ["Atalanta", "Perseus"], "human", "free", 19),
    (7, ["Hercules", "Achilles", "Jason", "Perseus"], "human", "paid", 1),
    (8, list(HEROES), "human", "paid", 12),
    (10, ["Jason"], "godlike", "free", 1),
    (12, ["Perseus", "Hercules", "Atalanta"], "human", "free", 2),
]
CHECK_EVERY = 7  # positions between two checks through the command line as well
VIEW_EVERY = 11  # positions between two checks that every seat's view states only what is true


def play_checked(mission, heroes, difficulty, relocation, seed) -> dict:
    """One game, checked at each position; its last state."""
    from hzai.core import Limits, make_game
    from hzai.search.bot import make_bot

    team = make_bot("heuristic")
    rng = random.Random(seed)
    rec = shuffled_record(mission, heroes, difficulty, relocation, rng)
    game_state = make_game("legends").records.from_json(rec).replay()
    game = game_state.game
    total = Counter({**{a: 11 for a in ATTRS}, "di": 6})
    turns = 0
    for step in range(600):
        st = game_state.to_json()
        assert all_action_cards(st) == total
        if st["pending"] == "action":
            assert max(len(s["hand"]) for s in st["seats"].values()) <= HAND_MAX
            assert st["turn"] >= turns
            turns = st["turn"]
        offered = sorted(game.move_text(m) for m in game_state.legal_moves())
        assert set(offered) == expected_moves(st, relocation), (rec["moves"][-6:], st["pending"], st["to_move"])
        assert len(offered) == len(set(offered))
        if step % CHECK_EVERY == 0 or st["result"] is not None:
            assert state(rec) == st and moves(rec) == offered
        if step % VIEW_EVERY == 0:  # L-INFO-3: whatever a view names is so
            for seat in st["seats"]:
                assert view_claims_are_true(seen(rec, seat), st, seat) == [], (seat, rec["moves"][-6:])
        if st["result"] is not None:
            break
        if game_state.is_chance:
            move = rng.choice([m for m, _ in game_state.chance_outcomes()])
        elif rng.random() < 0.9:  # the project's heuristic team reaches chimeras and Hades
            move = team.decide(game_state.view(game_state.current_seat), Limits.parse("1"), rng.randrange(2**30)).move
        else:
            move = game.parse_move(rng.choice(offered))
        rec["moves"].append(game.move_text(move))
        game_state.apply(move)
    assert st["result"] in ("won", "lost"), "a mission always ends (L-END-5)"
    return st


@pytest.mark.parametrize("mission, heroes, difficulty, relocation, seed", GAMES)
def test_L_TURN_3_L_FIGHT_3_L_TURN_5_L_COMP_6_L_INFO_3_L_END_5_legal_moves_match_an_independent_reading(
        mission, heroes, difficulty, relocation, seed):
    """Each position: the engine's moves equal the independent reading; every few
    positions the same through `hzai replay` and `hzai legal`, and every seat's view
    claims nothing the referee's state contradicts (L-INFO-3). The seeds are chosen so
    that each game gets as far as its final monsters."""
    st = play_checked(mission, heroes, difficulty, relocation, seed)
    assert any(m["final"] for m in st["monsters"]), "the game never reached a final monster"
    # L-END-5: every action removes a card for good (paid relocation), so the mission ends
    # by turn 55 + k + 1; with free relocation within 100
    bound = 55 + di_count(len(heroes), difficulty) + 1 if relocation == "paid" else 100
    assert st["turn"] <= bound
