"""The engine's move list against a second, independent reading of the rules, over the
positions of random games (R-ACT-1, R-ACT-2, R-ACT-5, R-CH-1, R-CH-2, R-TURN-6,
R-PEG-H1, R-PEG-F1, R-PYT-1, R-PYT-2, R-SIR-1, R-HAD-1, R-PER-1, R-DIO-1, R-GOD-1)."""

from __future__ import annotations

import pytest

from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import FIGURE, Game, Record
from hzai.games.hera_zeus.rules.playout import random_step


def ref(state, card, zone, mover):
    """docs/notation.md: NAME@owner only where the plain name would mean another card."""
    c = state.card(card)
    if c.owner != mover and any(state.card(x).owner == mover and state.card(x).name == c.name for x in zone):
        return f"{c.name}@{('hera', 'zeus')[c.owner]}"
    return c.name


def expected_moves(state) -> set[str]:
    p, o = state.turn_player, 1 - state.turn_player
    hand, mine, theirs = state.hands[p], state.columns[p], state.columns[o]
    types = [state.card(x).type for x in hand]
    powers = {t.power for t in types}
    figure_at = [c for c in range(3) if mine[c] and mine[c][0] == FIGURE]
    out: set[str] = set()
    if state.decks[p] and len(hand) < 12:
        out.add("draw")
    for card in hand:
        t = state.card(card).type
        if t.strength is None and t.kind != "hostage":
            continue
        for c in range(3):
            if len(mine[c]) == 4:
                continue
            first = 2 if c in figure_at else 1
            for r in range(first, len(mine[c]) + 2):
                out.add(f"play {ref(state, card, hand, p)} c{c + 1}r{r}")
    if state.turn > 2:
        for c in range(3):
            if mine[c] and theirs[c] and FIGURE not in (mine[c][0], theirs[c][0]):
                t = state.card(mine[c][0]).type
                if t.kind != "hostage" and t.power not in ("medusa", "pandora"):
                    out.add(f"challenge c{c + 1}")
        if "pegasus" in powers:
            if state.hands[o]:
                out.add("pegasus hand")
            out |= {f"pegasus c{c + 1}" for c in range(3) if theirs[c]}
    if "pythia" in powers:
        out.add("pythia spy")
        out |= {f"pythia c{c + 1}" for c in range(3) if theirs[c]}
    pile_o = state.discards[o]
    if "sirens" in powers and pile_o:
        s = state.card(pile_o[-1]).type.strength
        if s is not None and 1 <= s <= 7:
            out.add("sirens")
    if "hades" in powers:
        out |= {f"hades {ref(state, x, state.discards[p], p)}" for x in state.discards[p]}
    if "persephone" in powers:
        out.add("persephone")
    if "dionysus" in powers:
        for c in range(3):
            for r, occupant in enumerate(mine[c]):
                if occupant == FIGURE:
                    continue
                for c2 in range(3):
                    rest = [x for i, x in enumerate(mine[c2]) if not (c2 == c and i == r)]
                    if len(rest) >= 4:
                        continue
                    for r2 in range(len(rest) + 1):
                        if (c2, r2) == (c, r) or (r2 == 0 and rest and rest[0] == FIGURE):
                            continue
                        out.add(f"dionysus c{c + 1}r{r + 1} c{c2 + 1}r{r2 + 1}")
    if state.deck.god_id[p] in hand and not figure_at:
        out |= {f"god c{c + 1}" for c in range(3) if 0 < len(mine[c]) < 4}
    if figure_at and (state.game.variants.figure_removal == "action" or "pegasus" in powers):
        out.add("recall")
    return out


@pytest.mark.parametrize("variants", [{}, {"figure_removal": "pegasus", "first_player": "zeus"}])
def test_legal_moves_match_an_independent_reading(variants):
    """R-ACT-1, R-ACT-2, R-ACT-5, R-CH-1, R-CH-2, R-TURN-6, R-PEG-H1, R-PEG-F1, R-PYT-1, R-PYT-2,
    R-SIR-1, R-HAD-1, R-PER-1, R-DIO-1, R-GOD-1 over random games."""
    checked = 0
    for seed in range(12):
        state = Record(Game.create({**variants, "turn_limit": 80}), seed=seed).start()
        rng = SplitMix64(1000 + seed)
        while not state.is_over:
            if state.phase == "play" and not state.pending:
                assert {str(m) for m in state.legal_moves()} == expected_moves(state), (seed, state.turn)
                checked += 1
            random_step(state, rng)
    assert checked > 500


def expected_challenge(state, col: int, pegasus: bool):
    """What R-CH-3 (field) or R-PEG-F2 (Pegasus from the hand) does to column `col`:
    ('win', player) or (own column after, opponent column after) as id lists."""
    p, o = state.turn_player, 1 - state.turn_player
    mine, theirs = list(state.columns[p][col]), list(state.columns[o][col])
    d = theirs[0]
    if d == FIGURE:  # only a Pegasus can reach it
        return mine, theirs[1:]
    dt = state.card(d).type
    if dt.kind == "hostage":
        return ("win", p)
    if dt.power == "pandora":
        lost = [x for x in mine + theirs if x != FIGURE]
        hostages = {state.card(x).owner for x in lost if state.card(x).type.kind == "hostage"}
        if len(hostages) == 2:
            return ("win", o)
        if len(hostages) == 1:
            return ("win", 1 - hostages.pop())
        return [x for x in mine if x == FIGURE], []
    if pegasus:
        if dt.power == "medusa" or dt.strength >= 2:
            return mine, theirs
        return mine, theirs[1:]
    at = state.card(mine[0]).type
    if dt.power == "medusa":
        return (mine, theirs[1:]) if at.name in ("Hero", "Amazon") else (mine[1:], theirs)
    if at.power == "pythia" and dt.name in ("Poseidon", "Nemesis"):
        return mine, theirs[1:]
    if dt.power == "pythia" and state.game.variants.pythia_defence == "always_loses":
        return mine, theirs[1:]
    if at.strength > dt.strength:
        return mine, theirs[1:]
    if at.strength < dt.strength:
        return mine[1:], theirs
    return mine[1:], theirs[1:]


@pytest.mark.parametrize("variants", [{}, {"pythia_defence": "always_loses"}])
def test_challenge_results_match_an_independent_reading(variants):
    """R-CH-3, R-CH-4, R-MED-1, R-MED-2, R-PAN-1, R-PYT-3, R-PEG-F2, R-END-3, R-END-5 over random games."""
    checked = 0
    for seed in range(40):
        state = Record(Game.create({**variants, "turn_limit": 120}), seed=seed).start()
        rng = SplitMix64(7 + seed)
        while not state.is_over:
            fights = [m for m in state.legal_moves() if str(m).startswith(("challenge", "pegasus c"))]
            if state.phase == "play" and not state.pending and fights and rng.below(2):
                move = fights[rng.below(len(fights))]
                col = move.col - 1
                p = state.turn_player
                expected = expected_challenge(state, col, str(move).startswith("pegasus"))
                state.push(move)
                if expected[0] == "win":
                    assert (state.winner, state.reason in ("hostage_found", "pandora")) == (expected[1], True)
                else:
                    assert state.columns[p][col] == expected[0], (seed, str(move))
                    assert state.columns[1 - p][col] == expected[1], (seed, str(move))
                checked += 1
                continue
            random_step(state, rng)
    assert checked > 100


def test_action_points_follow_the_rules_in_random_games():
    """R-TURN-3, R-TURN-4, R-GOD-2, R-TURN-8 counted independently over random games."""
    checked = 0
    for seed in range(30):
        state = Record(Game.create({"turn_limit": 100}), seed=seed).start()
        rng = SplitMix64(99 + seed)
        spent, turn = 0, None
        while not state.is_over:
            if state.phase == "play" and state.turn != turn:
                turn, spent = state.turn, 0
                p = state.turn_player
                figure = any(c and c[0] == FIGURE for c in state.columns[p])
                assert state.ap == (4 if figure else sum(1 for c in state.columns[p] if c)), (seed, turn)
            before, mover_turn, was_chance = state.ap, state.turn, state.is_chance
            random_step(state, rng)
            last = str(state.history[-1])
            if state.is_over or state.turn != mover_turn or state.phase != "play" or was_chance:
                continue
            kind = last.split()[0]
            if kind in ("place", "top", "chance", "setup"):
                assert state.ap == before
            elif kind == "god":
                assert state.ap == 4 - spent
            else:
                spent += 1
                assert state.ap == before - 1
            checked += 1
    assert checked > 1000
