"""Does a full state fit a view? The test of both the tracker (the true state must
always fit its players' views: nothing invented) and the sampler (every sample must)."""

from __future__ import annotations

from collections import Counter

from hzai.games.hera_zeus.belief.view import View, unaccounted
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules.state import FIGURE, State

PUBLIC_KEYS = ("phase", "turn", "ap_left", "ap_spent", "reason")


def _wildcards_fit(rest: Counter, classes: list[tuple[int, tuple[str, ...]]]) -> bool:
    """Can these names fill these wildcards? Most restricted wildcards first, each
    taking a name it allows; enough for exclusions of single names."""
    remaining = Counter(rest)
    for count, excluded in sorted(classes, key=lambda c: -len(c[1])):
        for _ in range(count):
            choices = [n for n in sorted(remaining) if remaining[n] > 0 and n not in excluded]
            if not choices:
                return False
            # Use up names that the looser wildcards could not take anyway.
            remaining[choices[0]] -= 1
    return sum(remaining.values()) == 0


def _group_fits(group, cards: Counter) -> bool:
    known = Counter(group.known)
    return not (known - cards) and _wildcards_fit(cards - known, group.wildcards)


def _find_split(view: View, members: dict, names: Counter, parts: list) -> dict | None:
    """Share the hidden hand names among the groups' hand parts so that every group
    fits (a small search: hands hold at most 12 cards)."""
    if not parts:
        return {} if sum(names.values()) == 0 else None
    (g, count), rest = parts[0], parts[1:]
    if not rest:
        share = Counter(names)
        if sum(share.values()) != count or not _group_fits(view.groups[g], members[g] + share):
            return None
        return {g: share}
    for share in _sub_multisets(names, count):
        if _group_fits(view.groups[g], members[g] + share):
            found = _find_split(view, members, names - share, rest)
            if found is not None:
                return {g: share, **found}
    return None


def _sub_multisets(names: Counter, size: int):
    items = sorted(names.items())

    def walk(i: int, left: int, chosen: Counter):
        if left == 0:
            yield Counter(chosen)
            return
        if i == len(items):
            return
        name, available = items[i]
        for k in range(min(available, left), -1, -1):
            if k:
                chosen[name] = k
            yield from walk(i + 1, left - k, chosen)
            chosen.pop(name, None)

    yield from walk(0, size, Counter())


def fit_problems(view: View, state: State) -> list[str]:
    """Every way `state` contradicts `view` (empty: it fits)."""
    problems: list[str] = []
    deck = state.deck

    def identity(card: int) -> tuple[str, int]:
        return deck.cards[card].name, deck.cards[card].owner

    public = view.public
    for key in PUBLIC_KEYS:
        actual = {"ap_left": state.ap}.get(key, getattr(state, key, None))
        if public[key] != actual:
            problems.append(f"{key}: view {public[key]!r}, state {actual!r}")
    members: dict[int, Counter] = {g: Counter() for g in range(len(view.groups))}
    hand_shares: dict[int, tuple[Counter, Counter]] = {}  # side -> (hidden hand names, group counts)
    for p in (0, 1):
        side = PLAYERS[p]
        if [len(c) for c in view.columns[p]] != [len(c) for c in state.columns[p]]:
            problems.append(f"{side}: column lengths differ")
            continue
        for c, column in enumerate(view.columns[p]):
            for r, slot in enumerate(column):
                actual = state.columns[p][c][r]
                where = f"{side} c{c + 1}r{r + 1}"
                if slot.figure != (actual == FIGURE):
                    problems.append(f"{where}: figure mismatch")
                    continue
                if slot.figure:
                    continue
                if slot.face_up != (actual in state.face_up):
                    problems.append(f"{where}: face up/down differs")
                if slot.card is not None and slot.card != identity(actual):
                    problems.append(f"{where}: view says {slot.card}, state has {identity(actual)}")
                if slot.group is not None:
                    members[slot.group][identity(actual)[0]] += 1
                    if identity(actual)[0] in slot.excluded:
                        problems.append(f"{where}: holds {identity(actual)[0]}, which the view excludes there")
                    if identity(actual)[1] != view.groups[slot.group].owner:
                        problems.append(f"{where}: card of the wrong owner for its group")
                    if not deck.cards[actual].type.placeable:
                        problems.append(f"{where}: a card that is never placed")
        hand = Counter(identity(x) for x in state.hands[p])
        if len(view.hands[p]) != len(state.hands[p]):
            problems.append(f"{side} hand: size {len(view.hands[p])} vs {len(state.hands[p])}")
        known = Counter(s.card for s in view.hands[p] if s.card is not None)
        if known - hand:
            problems.append(f"{side} hand: lacks known {dict(known - hand)}")
        parts = Counter(s.group for s in view.hands[p] if s.group is not None)
        unknown = hand - known
        if parts:
            if any(owner != view.groups[g].owner for (_, owner) in unknown for g in parts):
                problems.append(f"{side} hand: card of the wrong owner for its group")
            hand_shares[p] = (Counter({name: n for (name, _), n in unknown.items()}), parts)
        if [identity(x) for x in state.discards[p]] != view.discards[p]:
            problems.append(f"{side} discard pile differs")
        if len(state.decks[p]) != view.deck_sizes[p]:
            problems.append(f"{side} deck size differs")
    pools = unaccounted(view, deck)
    wild_names: list[Counter] = [Counter(), Counter()]
    for names, parts in hand_shares.values():
        # Which hand card belongs to which group is not seen: some split must fit.
        split = _find_split(view, members, names, sorted(parts.items()))
        if split is None:
            problems.append(f"hand cards {dict(names)} fit no split over the groups {dict(parts)}")
        else:
            for g, share in split.items():
                members[g] += share
    for g, group in enumerate(view.groups):
        rest = members[g] - Counter(group.known)
        if Counter(group.known) - members[g]:
            problems.append(f"group {g}: known names {dict(Counter(group.known) - members[g])} are not among its cards")
            continue
        if not _wildcards_fit(rest, group.wildcards):
            problems.append(f"group {g}: its other cards {dict(rest)} break its wildcards {group.wildcards}")
        wild_names[group.owner] += rest
    for p in (0, 1):
        in_deck = Counter(identity(x)[0] for x in state.decks[p])
        if any(deck.cards[x].owner != p for x in state.decks[p]):
            problems.append(f"{PLAYERS[p]} deck holds a card of the other owner")
        if in_deck + wild_names[p] != pools[p]:
            problems.append(f"{PLAYERS[p]}: deck and wildcards are not the unaccounted cards")
    return problems
