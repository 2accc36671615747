"""The native Legends sampler (hzai/games/legends/native/legends_sampler.cpp) against the reference
one (hzai/games/legends/sampler.py): the same state for the same seed, every hard
constraint of the seat's knowledge kept, the same frequencies over many seeds, and
malformed views refused by name."""

from collections import Counter

import pytest

from hzai import _native
from hzai.games.legends.game import LegendsGame
from hzai.games.legends.native.twin import native_view, table_dump, view_spec
from hzai.rng import SplitMix64

HEROES = ["Perseus", "Jason", "Achilles", "Hercules", "Atalanta"]


def positions(missions=range(1, 13), seats=(1, 2, 3, 4, 5), every=9, seed=0):
    """(state, seat) at every `every`-th step of one random game per mission and seat count."""
    for mission in missions:
        for n in seats:
            game = LegendsGame(mission=mission, heroes=HEROES[:n], difficulty=("human", "godlike")[mission % 2])
            state = game.new_state(seed + 100 * mission + n)
            rng = SplitMix64(seed + mission * 7 + n)
            step = 0
            while not state.is_terminal:
                if step % every == every - 1:
                    for seat in range(n):
                        yield state.clone(), seat
                options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
                state.apply(options[rng.below(len(options))])
                step += 1


def test_native_samples_equal_the_reference_samples():
    count = Counter()
    for state, seat in positions(every=12):
        view = state.view(seat)
        spec = native_view(view)
        for seed in (1, 2**63 + 5):
            assert _native.legends_sample(spec, seed).dump() == table_dump(view.sample(seed).t)
            count[state.t.pending] += 1
    assert sum(count.values()) > 500 and count["support_discard"] and count["oracle_return"]


def _kind_at(kinds, places):
    return [kinds[i] for i in places]


def test_native_samples_keep_every_hard_constraint():
    checked = 0
    for state, seat in positions(every=13, seed=5):
        view = state.view(seat)
        known = view.known()
        spec = native_view(view)
        game = view.game
        full = Counter(table_dump(state.t)["kind"])
        for seed in range(3):
            s = _native.legends_sample(spec, seed).dump()
            kinds = s["kind"]
            assert Counter(kinds) == full  # the same cards, DI set aside included
            assert sorted(_kind_at(kinds, s["hands"][seat])) == view.hand  # own hand exact
            assert [len(h) for h in s["hands"]] == view.hand_sizes
            for other in range(game.n):  # what the seat knows of each hand is there
                assert not known.hand[other] - Counter(_kind_at(kinds, s["hands"][other]))
            assert len(s["draw"]) == len(known.draw) and len(s["discard"]) == len(known.discard)
            for places, seen in ((s["draw"], known.draw), ([i for i, _ in s["discard"]], known.discard)):
                for inst, k in zip(places, seen):
                    assert k is None or kinds[inst] == k
            for m, seen in zip(s["monsters"], known.played):
                for (inst, _, _, _), k in zip(m["played"], seen):
                    assert k is None or kinds[inst] == k
            assert _kind_at(kinds, s["oracle"]) == known.oracle
            assert sorted(s["monster_deck"]) == view.monster_deck_left
            public = table_dump(state.t)
            for key in ("disc", "broken", "turn", "pending", "actor", "normals_entered", "result"):
                assert s[key] == public[key]
            checked += 1
    assert checked > 300


def _holdings(dump, seat):
    """(other seat, kind, count held) for every teammate of `seat`."""
    kinds = dump["kind"]
    out = Counter()
    for other, hand in enumerate(dump["hands"]):
        if other != seat:
            for k, n in Counter(kinds[i] for i in hand).items():
                out[(other, k, n)] += 1
    return out


def test_native_frequencies_agree_with_the_reference_sampler():
    """Over 600 seeds each (different seeds for the two samplers), how often each
    teammate holds exactly n cards of each kind agrees within 0.12 (about 4 standard
    deviations of the difference)."""
    picked = []
    for state, seat in positions(missions=(2, 6, 9), seats=(3, 4), every=11, seed=3):
        if state.t.turn >= 3 and state.current_seat is not None:
            picked.append((state, seat))
    picked = picked[::max(1, len(picked) // 4)][:4]
    assert len(picked) == 4
    n = 600
    for state, seat in picked:
        view = state.view(seat)
        spec = native_view(view)
        native, reference = Counter(), Counter()
        for i in range(n):
            native.update(_holdings(_native.legends_sample(spec, i).dump(), seat))
            reference.update(_holdings(table_dump(view.sample(10_000 + i).t), seat))
        assert set(native) | set(reference)
        for key in set(native) | set(reference):
            assert abs(native[key] - reference[key]) / n <= 0.12, key
        spread = [v / n for v in reference.values()]
        assert any(0.05 < p < 0.95 for p in spread)  # the position has real uncertainty


def test_malformed_views_are_refused_by_field():
    game = LegendsGame(mission=3, heroes=HEROES[:3])
    state = game.new_state(4)
    for _ in range(9):
        state.apply(state.legal_moves()[0])
    spec = view_spec(state.view(1))
    native = game.search.native
    assert spec["log"]
    bad_event = list(spec["log"][0])
    cases = [({"seat": 7}, "seat out of range"), ({"start_hands": [4, 4]}, "start_hands"),
             ({"own_start": [9, 9, 9, 9]}, "own_start"), ({"disc": [0, 0]}, "disc and broken"),
             ({"log": [tuple(bad_event[:1] + [9] + bad_event[2:])]}, "log: seat out of range"),
             ({"log": [(42, 0, 0, 0, 0, 0, -1, False, [])]}, "log: unknown event"),
             ({"log": [(0, 0, 0, 2, 0, 0, -1, True, [0])]}, "shown kinds"),
             ({"log": [(1, 0, 0, 0, 30, 0, -1, False, [])]}, "log: monster out of range"),
             ({"monster_deck_left": [99]}, "monster deck card"), ({"pending": "dance"}, "unknown pending"),
             ({"start_pile": 500}, "more cards")]
    for change, message in cases:
        with pytest.raises(ValueError, match=message):
            native.view({**spec, **change})
    with pytest.raises(ValueError, match="missing key"):
        native.view({k: v for k, v in spec.items() if k != "log"})
    # well typed but impossible: p2 plays a card it never held
    impossible = [(1, 1, 0, 0, 0, 0, 0, False, [])] * 9
    with pytest.raises(ValueError, match="view: no determinization"):
        native.view({**spec, "log": impossible})
