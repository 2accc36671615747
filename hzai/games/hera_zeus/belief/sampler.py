"""Determinization: a full game state drawn from a player's view.

Every sample agrees with the view: known cards where they are, each group's known
names among its locations, wildcards and decks from the owner's unaccounted cards.
Wildcards that exclude a name are filled first, uniformly from the cards they allow;
the rest of the pool is then dealt at random over the unrestricted wildcards and the
deck. Within a group, each face-down field slot takes a random one of the group's
placeable names that it allows (a myth-only card is never on a side; a slot filled
from a hostage-free hand is never the hostage), and the hand the rest; a draw that
leaves some slot without a name is drawn again. Flat loops over lists, so the same
algorithm ports to the native core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hzai.games.hera_zeus.belief.view import Slot, View, unaccounted
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules.state import FIGURE, Pending, State

if TYPE_CHECKING:
    from hzai.games.hera_zeus.rules.game import Game


MAX_ATTEMPTS = 50  # rejection draws before the fitted draw; either sampler stops there
PROBE_SEED = 0x7469676874  # the construction-time probe's own stream (as the native core)


class Determinizer:
    """Samples states from one view; reuse it for many samples of the same view."""

    def __init__(self, view: View, game: Game | None = None):
        self.view = view
        self.game = game or view.game
        self.pools = unaccounted(view, self.game.deck)
        # Group locations in a fixed order: columns, then hands.
        self.group_slots: dict[int, list[tuple]] = {g: [] for g in range(len(view.groups))}
        for p in (0, 1):
            for c, column in enumerate(view.columns[p]):
                for r, s in enumerate(column):
                    if s.group is not None:
                        self.group_slots[s.group].append(("field", p, c, r))
            for i, s in enumerate(view.hands[p]):
                if s.group is not None:
                    self.group_slots[s.group].append(("hand", p, i))
        for g, group in enumerate(view.groups):
            if len(self.group_slots[g]) != sum(group.known.values()) + sum(n for n, _ in group.wildcards):
                raise ValueError(f"view group {g}: its locations and its cards do not add up")
        # Per group, the exclusions of each location, and the field slots in the order
        # they choose: the most constrained first.
        self.slot_excluded: dict[int, list[frozenset[str]]] = {g: [] for g in self.group_slots}
        for g, slots in self.group_slots.items():
            for where in slots:
                if where[0] == "field":
                    _, p, c, r = where
                    self.slot_excluded[g].append(frozenset(view.columns[p][c][r].excluded))
                else:
                    self.slot_excluded[g].append(frozenset())
        self.field_order = {
            g: sorted((i for i, where in enumerate(slots) if where[0] == "field"), key=lambda i: (-len(self.slot_excluded[g][i]), i))
            for g, slots in self.group_slots.items()
        }
        self.placeable = {c.name: c.type.placeable for c in self.game.deck.cards}
        for owner in (0, 1):
            wild = sum(n for g in view.groups if g.owner == owner for n, _ in g.wildcards)
            if sum(self.pools[owner].values()) != wild + view.deck_sizes[owner]:
                raise ValueError(f"view: {PLAYERS[owner]}'s unaccounted cards do not fill the wildcards and the deck")
        # The probe, on a stream of its own: if no rejection draw fits, every sample takes
        # the fitted draw at once instead of failing MAX_ATTEMPTS draws first.
        probe = SplitMix64(PROBE_SEED)
        self.tight = not any(self._place_in_groups(self._draw(probe)[0], probe) is not None for _ in range(MAX_ATTEMPTS))

    def sample(self, seed: int) -> State:
        return self.sample_with(SplitMix64(seed))

    def sample_with(self, rng: SplitMix64) -> State:
        for _ in range(0 if self.tight else MAX_ATTEMPTS):
            contents, decks = self._draw(rng)
            placed = self._place_in_groups(contents, rng)
            if placed is not None:
                return self._build(placed, decks)
        return self.sample_fitted_with(rng)

    def sample_fitted(self, seed: int) -> State:
        """The fitted draw alone (what `sample` falls back to in a tight view)."""
        return self.sample_fitted_with(SplitMix64(seed))

    def sample_fitted_with(self, rng: SplitMix64) -> State:
        for _ in range(MAX_ATTEMPTS):
            fitted = self._draw_fitted(rng)
            if fitted is not None:
                return self._build(*fitted)
        raise ValueError("no state fits this view: its face-down slots cannot all take a placeable card they allow")

    def _draw(self, rng: SplitMix64) -> tuple[dict[int, list[str]], list[list[str]]]:
        """The names of each group and the deck orders."""
        view = self.view
        contents = {g: [name for name, n in sorted(gr.known.items()) for _ in range(n)] for g, gr in enumerate(view.groups)}
        decks: list[list[str]] = [[], []]
        for owner in (0, 1):
            pool = sorted(self.pools[owner].elements())
            # Restricted wildcards first, each from the names it allows.
            for g, group in enumerate(view.groups):
                if group.owner != owner:
                    continue
                for count, excluded in group.wildcards:
                    if not excluded:
                        continue
                    for _ in range(count):
                        allowed = [i for i, name in enumerate(pool) if name not in excluded]
                        contents[g].append(pool.pop(allowed[rng.below(len(allowed))]))
            rng.shuffle(pool)
            for g, group in enumerate(view.groups):
                if group.owner != owner:
                    continue
                for count, excluded in group.wildcards:
                    if not excluded:
                        contents[g] += [pool.pop() for _ in range(count)]
            decks[owner] = pool  # what is left, in random order
        return contents, decks

    def _place_in_groups(self, contents: dict[int, list[str]], rng: SplitMix64) -> dict[int, list[str]] | None:
        """Each group's names over its locations, face-down field slots first: each
        takes a random placeable name it allows (the opponent put a card there, so
        it was one it could place; the most constrained slots choose first); the hand
        takes the rest in random order. None when some slot is left without a name."""
        placed = {}
        for g, names in contents.items():
            names = list(names)
            rng.shuffle(names)
            slots = self.group_slots[g]
            chosen: dict[int, str] = {}
            for i in self.field_order[g]:
                excluded = self.slot_excluded[g][i]
                options = [k for k, n in enumerate(names) if self.placeable[n] and n not in excluded]
                if not options:
                    return None
                chosen[i] = names.pop(options[rng.below(len(options))])
            # names is already shuffled, so the hand takes the rest in random order
            placed[g] = [chosen[i] if i in chosen else names.pop() for i in range(len(slots))]
        return placed

    def _draw_fitted(self, rng: SplitMix64) -> tuple[dict[int, list[str]], list[list[str]]] | None:
        """A draw built to fit: per owner, group by group, each face-down field slot (most
        constrained first) picks one of the group's known names or wildcards that can give
        it a placeable name it allows, a wildcard then drawing such a name from the pool;
        the wildcards left are dealt as in `_draw` (restricted first), the hand takes the
        group's rest in random order and the deck what the pool keeps. None on a dead end
        (a restricted wildcard left with nothing it allows, or a slot with no option)."""
        view = self.view
        placed: dict[int, list[str]] = {}
        decks: list[list[str]] = [[], []]
        for owner in (0, 1):
            pool = sorted(self.pools[owner].elements())
            groups = [g for g, group in enumerate(view.groups) if group.owner == owner]
            known = {g: [name for name, n in sorted(view.groups[g].known.items()) for _ in range(n)] for g in groups}
            wild = {g: [frozenset(ex) for count, ex in view.groups[g].wildcards for _ in range(count)] for g in groups}
            chosen: dict[int, dict[int, str]] = {g: {} for g in groups}
            for g in groups:
                for i in self.field_order[g]:
                    slot_ex = self.slot_excluded[g][i]
                    options = [(False, k) for k, name in enumerate(known[g]) if self._fits(name, slot_ex)]
                    options += [(True, j) for j, ex in enumerate(wild[g]) if any(self._fits(name, slot_ex, ex) for name in pool)]
                    if not options:
                        return None
                    from_pool, k = options[rng.below(len(options))]
                    if not from_pool:
                        chosen[g][i] = known[g].pop(k)
                        continue
                    ex = wild[g].pop(k)
                    allowed = [m for m, name in enumerate(pool) if self._fits(name, slot_ex, ex)]
                    chosen[g][i] = pool.pop(allowed[rng.below(len(allowed))])
            filled: dict[int, list[str]] = {g: [] for g in groups}
            for g in groups:
                for ex in wild[g]:
                    if ex:
                        allowed = [m for m, name in enumerate(pool) if name not in ex]
                        if not allowed:
                            return None
                        filled[g].append(pool.pop(allowed[rng.below(len(allowed))]))
            rng.shuffle(pool)
            for g in groups:
                filled[g] += [pool.pop() for ex in wild[g] if not ex]
            decks[owner] = pool
            for g in groups:
                rest = known[g] + filled[g]
                rng.shuffle(rest)
                placed[g] = [chosen[g][i] if i in chosen[g] else rest.pop() for i in range(len(self.group_slots[g]))]
        return placed, decks

    def _fits(self, name: str, slot_excluded: frozenset[str], excluded: frozenset[str] = frozenset()) -> bool:
        """Whether a face-down slot can hold `name` drawn into a wildcard excluding `excluded`."""
        return self.placeable[name] and name not in slot_excluded and name not in excluded

    def _build(self, contents: dict[int, list[str]], decks: list[list[str]]) -> State:
        view, deck = self.view, self.game.deck
        free: dict[tuple[str, int], list[int]] = {}
        for card in reversed(deck.cards):
            free.setdefault((card.name, card.owner), []).append(card.id)

        def take(name: str, owner: int) -> int:
            return free[(name, owner)].pop()

        filled: dict[tuple, tuple[str, int]] = {}
        for g, where in self.group_slots.items():
            owner = view.groups[g].owner
            for location, name in zip(where, contents[g]):
                filled[location] = (name, owner)

        def resolve(slot: Slot, location: tuple) -> tuple[str, int]:
            return slot.card if slot.card is not None else filled[location]

        state = State(self.game)
        for p in (0, 1):
            for c, column in enumerate(view.columns[p]):
                for r, s in enumerate(column):
                    if s.figure:
                        state.columns[p][c].append(FIGURE)
                        continue
                    card = take(*resolve(s, ("field", p, c, r)))
                    state.columns[p][c].append(card)
                    if s.face_up:
                        state.face_up.add(card)
            state.hands[p] = sorted(take(*resolve(s, ("hand", p, i))) for i, s in enumerate(view.hands[p]))
            state.discards[p] = [take(n, o) for n, o in view.discards[p]]
        for p in (0, 1):
            state.decks[p] = [take(name, p) for name in decks[p]]
        public = view.public
        state.phase = public["phase"]
        state.turn = public["turn"]
        state.turn_player = PLAYERS.index(public["turn_player"])
        state.to_move = None if public["to_move"] is None else PLAYERS.index(public["to_move"])
        state.ap, state.ap_spent = public["ap_left"], public["ap_spent"]
        state.winner = None if public["winner"] in (None, "draw") else PLAYERS.index(public["winner"])
        state.reason = public["reason"]
        for entry in view.pending:
            player = PLAYERS.index(entry["player"])
            cards: tuple[int, ...] = ()
            if entry["decision"] == "place":
                card = take(entry["card"]["card"], PLAYERS.index(entry["card"]["owner"]))
                state.limbo.append(card)
                cards = (card,)
            elif entry["decision"] == "top":
                cards = tuple(state.discards[player][i] for i in entry["pile_positions"])
            state.pending.append(Pending(entry["decision"], player, cards))
        return state


def determinize(view: View, seed: int) -> State:
    """One full state consistent with `view`, the same for the same view and seed."""
    return Determinizer(view).sample(seed)


