"""Building Legends positions for the tests: an exact deal (hands, the top of the draw
pile, the monster deck's order), a small data file whose missions bring final monsters
early, and playing moves by their text."""

from __future__ import annotations

import json
from collections import Counter

from hzai.games.legends import LegendsGame
from hzai.games.legends.data import DATA_DIR
from hzai.games.legends.record import Record
from hzai.games.legends.rules import deck_kinds

HEROES = ("Perseus", "Atalanta", "Hercules", "Jason", "Achilles")  # arms, guile, strength, courage, speed


def game(mission: int = 1, heroes=HEROES[:2], **options) -> LegendsGame:
    return LegendsGame(mission=mission, heroes=list(heroes), **options)


def setup(g: LegendsGame, hands: dict, top: list[str] = (), monsters: list[str] = ()) -> tuple:
    """A deal: the named hands (missing seats get whatever comes next), the draw pile
    starting with `top`, the rest of it in name order; the monster deck starting with
    `monsters`, then the others in data order."""
    kinds = g.data.kinds
    left = Counter(deck_kinds(g)[0])
    out_hands = []
    for seat in g.seats:
        hand = [kinds.index(c) for c in hands.get(seat, [])]
        left.subtract(hand)
        out_hands.append(hand)
    pile = [kinds.index(c) for c in top]
    left.subtract(pile)
    assert all(n >= 0 for n in left.values()), f"more cards named than the game has: {left}"
    rest = sorted(left.elements(), key=lambda k: kinds[k])
    for hand in out_hands:
        while len(hand) < 4:
            hand.append(rest.pop(0))
    pile += rest
    order = [g.data.monster_index(m) for m in monsters]
    order += [i for i in range(len(g.data.monsters)) if i not in order]
    return out_hands, pile, order


def start(g: LegendsGame, hands: dict, top=(), monsters=(), moves=()):
    state = g.state_from_deal(*setup(g, hands, list(top), list(monsters)))
    play(state, *moves)
    return state


def play(state, *texts: str):
    for text in texts:
        state.apply(state.game.parse_move(text))
    return state


def legal(state) -> set[str]:
    return {state.game.move_text(m) for m in state.legal_moves()}


def record_of(g: LegendsGame, hands: dict, top=(), monsters=(), moves=()) -> dict:
    return Record(g, setup=setup(g, hands, list(top), list(monsters)), moves=list(moves)).to_json()


def quick_data(tmp_path) -> str:
    """The classic data with five more missions whose final monsters come at once:
    21 chimera at the 1st defeat, 22 two chimeras, 23 Hades, 24 mission 5's rule with
    a new monster at the 1st defeat and the chimera at the 3rd, 25 a chimera at the
    1st defeat while a second normal monster stays."""
    raw = json.loads((DATA_DIR / "classic.json").read_text(encoding="utf-8"))
    extra = [(21, 1, {"1": "C"}, None), (22, 1, {"1": "2C"}, None), (23, 1, {"1": "H"}, None),
             (24, 2, {"1": "+1", "3": "C"}, "di_recover"), (25, 2, {"1": "C"}, None)]
    for mid, begin, triggers, special in extra:
        raw["missions"].append({"id": mid, "name": f"Test {mid}", "start": begin, "triggers": triggers, "special": special})
    path = tmp_path / "quick.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return str(path)


def json_of(state) -> dict:
    return state.to_json()


def monster(state, mid: str) -> dict:
    return next(m for m in state.to_json()["monsters"] if m["id"] == mid)


def random_game(g: LegendsGame, seed: int, upto: int | None = None):
    """Uniformly random moves and chance outcomes from `new_state(seed)`, until the end or
    `upto` moves in the history."""
    from hzai.rng import SplitMix64

    s = g.new_state(seed)
    rng = SplitMix64(seed)
    while not s.is_terminal and (upto is None or len(s.t.history) < upto):
        options = [o for o, _ in s.chance_outcomes()] if s.is_chance else s.legal_moves()
        s.apply(options[rng.below(len(options))])
    return s
