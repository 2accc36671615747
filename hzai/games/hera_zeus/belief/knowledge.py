"""What one player knows about every card, followed through the engine's event log.

The model (docs/belief.md). Every card of the opponent whose identity the observer does
not know belongs to a *group*: some locations, a multiset of names known to lie among
them, and *wildcards* — the rest, drawn from the owner's cards that are accounted for
nowhere. A wildcard may exclude names: the opponent's starting hand holds no hostage
(R-SETUP-1). A deck is the owner's unaccounted rest, in an order nobody knows.

The opponent's hand is a count of cards per group (`hand_parts`): the observer can tell
how many hand cards came from the deal, were drawn since, or were seen by Pythia, but
not which physical card is which (R-INFO-3). So no hand card is ever pinned to an
identity or a group, and every decision below uses only what the observer saw:
- a card leaving the hand face down could be any of it: the hand's groups merge and
  the field slot joins the merged group; if the hand could not hold the hostage then,
  the slot never can (a slot exclusion);
- a hand card shown (played as a myth, drawn by Pegasus, discarded) is taken from the
  group that names it, else from the most restricted group that allows it — the
  choice that keeps every world the observer cannot rule out;
- Pythia's spy turns the whole hand into one exact group.
Updates are exact in the common cases and otherwise may forget, never invent.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import logging

from hzai.games.hera_zeus.cards import Deck
from hzai.games.hera_zeus.rules.state import Event

NO_EXCLUSION: frozenset[str] = frozenset()
HISTORY_ACTS = 4  # the opponent's last actions the view keeps (hera_zeus.hpp)
log = logging.getLogger(__name__)


class BeliefError(RuntimeError):
    """The knowledge model met an event it cannot explain (a bug, not bad input)."""


@dataclass
class Group:
    owner: int
    known: Counter = field(default_factory=Counter)  # names known to lie among the group's cards
    wildcards: Counter = field(default_factory=Counter)  # excluded-name set -> count

    def add_wildcard(self, excluded: frozenset[str] = NO_EXCLUSION) -> None:
        self.wildcards[excluded] += 1

    def allows(self, name: str) -> bool:
        return self.known[name] > 0 or any(n > 0 and name not in ex for ex, n in self.wildcards.items())

    def restriction(self, name: str) -> int:
        """How restricted the tightest wildcard that could be `name` is (-1: none)."""
        return max((len(ex) for ex, n in self.wildcards.items() if n > 0 and name not in ex), default=-1)

    def take_out(self, name: str) -> None:
        """A card of this group showed `name`: account for it. A known name first;
        else the most restricted wildcard that could be it (a looser one left behind
        allows more, never less)."""
        if self.known[name] > 0:
            self.known[name] -= 1
            if not self.known[name]:
                del self.known[name]
            return
        classes = [ex for ex, n in self.wildcards.items() if n > 0 and name not in ex]
        if not classes:
            raise BeliefError(f"a card showed {name}, which its group cannot hold")
        chosen = max(classes, key=lambda ex: (len(ex), sorted(ex)))
        self.wildcards[chosen] -= 1
        if not self.wildcards[chosen]:
            del self.wildcards[chosen]

    def absorb(self, other: "Group") -> None:
        self.known += other.known
        self.wildcards += other.wildcards
        other.known.clear()
        other.wildcards.clear()


class Knowledge:
    """The observer's knowledge after a sequence of engine events."""

    def __init__(self, deck: Deck, observer: int):
        self.deck = deck
        self.observer = observer
        self.opponent = 1 - observer
        self.hostage = deck.cards[deck.hostage_id[self.opponent]].name
        self.placeable = {c.name: c.type.placeable for c in deck.cards}
        self.known: set[int] = set()  # cards whose identity the observer knows for itself
        self.group_of: dict[int, int] = {}  # the opponent's hidden cards off the hand
        self.slot_excluded: dict[int, frozenset[str]] = {}  # names such a card cannot be
        self.groups: dict[int, Group] = {}
        self.hand_parts: Counter = Counter()  # group -> cards of the opponent's hand
        self.fresh: int | None = None  # group of cards that joined the hand since it last merged
        self.zone_of: dict[int, tuple[str, int]] = {c.id: ("deck", c.owner) for c in deck.cards}
        self._spy_group: int | None = None
        self._unseen_leaving: set[int] = set()  # opponent's hand cards in limbo, not yet seen
        self.events_seen = 0  # how much of a state's event log has been read (`update`)
        self.degraded = False  # True once the history had to be forgotten (see `update`)
        # What the observer saw the opponent do, for the features (view.history_of;
        # docs/learning.md "History in the features"): per card, how and when it last
        # arrived on the opponent's field, (origin, turn, serial, moved) with origin 0
        # setup, 1 play, 2 another move; the opponent's action kinds (last few; counts).
        self.arrival: dict[int, list] = {}
        self._from_field: set[int] = set()
        self.arrivals = 0
        self.history_known = False  # followed from the deal
        self.acts: list[str] = []
        self.act_counts: Counter = Counter()

    def _new_group(self) -> int:
        gid = len(self.groups)
        self.groups[gid] = Group(self.opponent)
        return gid

    def name(self, card: int) -> str:
        return self.deck.cards[card].name

    def owner(self, card: int) -> int:
        return self.deck.cards[card].owner

    def is_hidden_hand_card(self, card: int) -> bool:
        return self.zone_of[card] == ("hand", self.opponent) and self.owner(card) == self.opponent and card not in self.known

    # ----- the opponent's hand ---------------------------------------------------------
    def _fresh_group(self) -> int:
        if self.fresh is None:
            self.fresh = self._new_group()
        return self.fresh

    def _hand_gains(self, known_name: str | None) -> None:
        gid = self._fresh_group()
        if known_name is None:
            self.groups[gid].add_wildcard()
        else:
            self.groups[gid].known[known_name] += 1
        self.hand_parts[gid] += 1

    def _hand_shows(self, name: str) -> None:
        """A hand card showed `name`. If only one part of the hand could have held it,
        it came from there; otherwise the observer cannot tell which, and the parts
        merge first (taking it from one of them could rule out the truth)."""
        parts = [g for g, n in self.hand_parts.items() if n > 0]
        givers = [g for g in parts if self.groups[g].allows(name) and self._can_give(g, name)]
        if len(givers) != 1:
            if len(parts) > 1:
                self._merge_hand()
                return self._hand_shows(name)
            raise BeliefError(f"the opponent's hand showed {name}, which none of its groups can hold")
        (giver,) = givers
        self.groups[giver].take_out(name)
        self.hand_parts[giver] -= 1
        if not self.hand_parts[giver]:
            del self.hand_parts[giver]

    def _can_give(self, g: int, name: str) -> bool:
        """Could the hand part of group g have been this card? Only if the group's
        myth-only names (never on a side) still fit in its hand part afterwards."""
        group = self.groups[g]
        myth_only = sum(n for known, n in group.known.items() if not self.placeable[known])
        if group.known[name] > 0 and not self.placeable[name]:
            myth_only -= 1
        return myth_only <= self.hand_parts[g] - 1

    def _hand_could_hold(self, name: str) -> bool:
        return any(self.groups[g].allows(name) for g, n in self.hand_parts.items() if n > 0)

    def _merge_hand(self) -> int:
        """One group for the whole hand (a card is about to leave it unseen)."""
        parts = sorted(g for g, n in self.hand_parts.items() if n > 0)
        if not parts:
            raise BeliefError("a card left an empty hand")
        target = parts[0]
        for g in parts[1:]:
            self.groups[target].absorb(self.groups[g])
            for card, gid in self.group_of.items():
                if gid == g:
                    self.group_of[card] = target
            self.hand_parts[target] += self.hand_parts.pop(g)
        self.fresh = None
        return target

    def _leaves_hand_unseen(self, card: int) -> None:
        excluded = NO_EXCLUSION if self._hand_could_hold(self.hostage) else frozenset({self.hostage})
        target = self._merge_hand()
        self.hand_parts[target] -= 1
        if not self.hand_parts[target]:
            del self.hand_parts[target]
        self.group_of[card] = target
        if excluded:
            self.slot_excluded[card] = excluded

    # ----- the updates ---------------------------------------------------------------
    def reveal(self, card: int) -> None:
        """The observer now knows this card for itself."""
        if card in self.known:
            return
        if self.is_hidden_hand_card(card) or (self.zone_of[card][0] == "limbo" and card in self._unseen_leaving):
            self._unseen_leaving.discard(card)
            self._hand_shows(self.name(card))
        else:
            gid = self.group_of.pop(card, None)
            self.slot_excluded.pop(card, None)
            if gid is not None:
                self.groups[gid].take_out(self.name(card))
        self.known.add(card)

    def _note(self, event: Event) -> None:
        """The history the features read (Knowledge::note in knowledge.cpp)."""
        if event.first and event.mover == self.opponent and event.act:
            self.act_counts[event.act] += 1
            self.acts = (self.acts + [event.act])[-HISTORY_ACTS:]
        if event.kind != "move" or event.card < 0:
            return
        card, src, dst = event.card, event.src, event.dst
        if src is not None and src[0] == "field":
            self._from_field.add(card)
        if dst[0] == "field":
            if dst[1] != self.opponent:
                self.arrival.pop(card, None)
            else:
                self.arrivals += 1
                if card in self._from_field and card in self.arrival:
                    self.arrival[card][2] = self.arrivals
                    self.arrival[card][3] = True
                else:
                    origin = 0 if event.act == "setup" else 1 if event.act == "play" else 2
                    self.arrival[card] = [origin, event.turn, self.arrivals, False]
            self._from_field.discard(card)
        elif dst[0] != "limbo":
            self._from_field.discard(card)
            self.arrival.pop(card, None)

    def observe(self, event: Event) -> None:
        self._note(event)
        if event.kind == "act":  # a move's stamp alone: counted by _note, nothing moved
            return
        if event.kind != "reveal":
            self._spy_group = None
        handler = {"dealt": self._dealt, "move": self._moved, "reveal": self._revealed, "show_hand": self._shown}
        handler[event.kind](event)

    def _dealt(self, event: Event) -> None:
        owner = event.src[1]
        if owner == self.opponent:
            gid = self._new_group()
        for card in event.cards:
            self.zone_of[card] = ("hand", owner)
            if owner == self.observer:
                self.known.add(card)
            else:  # R-SETUP-1: the hostage never starts in a hand
                self.groups[gid].add_wildcard(frozenset({self.hostage}))
                self.hand_parts[gid] += 1
        self.history_known = True

    def _moved(self, event: Event) -> None:
        card, src, dst = event.card, event.src, event.dst
        was_hidden_in_hand = self.is_hidden_hand_card(card)
        self.zone_of[card] = dst
        if was_hidden_in_hand:  # it leaves the hand; where it goes decides what is seen
            self._unseen_leaving.add(card)
            return
        if card in self._unseen_leaving:
            self._unseen_leaving.discard(card)
            if dst[0] == "field":
                self._leaves_hand_unseen(card)
            else:  # onto a pile: public (R-INFO-1)
                self._hand_shows(self.name(card))
                self.known.add(card)
            return
        if dst[0] == "discard":
            self.reveal(card)
        elif dst[0] == "hand":
            if dst[1] == self.opponent and self.owner(card) == self.opponent:
                # From the deck: unseen. From a pile (Hades, Persephone): public, but from
                # now on only one of the hand.
                self._hand_gains(None if src[0] == "deck" else self.name(card))
                self.known.discard(card)
            else:
                self.known.add(card)  # the observer's own cards, and its cards' backs (R-SIR-1)

    def _shown(self, event: Event) -> None:
        if event.to == self.observer and event.src == ("hand", self.opponent):
            if sum(1 for n in self.hand_parts.values() if n > 0) > 1:
                self._merge_hand()  # each shown card could come from any part
            self._spy_group = self._new_group()

    def _revealed(self, event: Event) -> None:
        card = event.card
        if event.to is None:
            self.reveal(card)
        elif event.to == self.observer:
            if self._spy_group is not None and self.is_hidden_hand_card(card):
                # R-PYT-1: the hand is seen whole; its names form a fresh, exact group
                name = self.name(card)
                spy = self._spy_group
                old_parts = [g for g, n in self.hand_parts.items() if g != spy and n > 0]
                if len(old_parts) != 1:  # merged when the spy began
                    raise BeliefError("a spied card the hand did not hold")
                old = old_parts[0]
                self.groups[old].take_out(name)
                self.hand_parts[old] -= 1
                if not self.hand_parts[old]:
                    del self.hand_parts[old]
                self.groups[spy].known[name] += 1
                self.hand_parts[self._spy_group] += 1
                self.fresh = None
            else:
                self.reveal(card)

    # ----- building -------------------------------------------------------------------
    @classmethod
    def of(cls, state, observer: int) -> "Knowledge":
        """Follow a game from its deal; a position built without a history is taken
        as first seen now (`at_first_sight`)."""
        if not any(event.kind == "dealt" for event in state.events):
            return cls.at_first_sight(state, observer)
        knowledge = cls(state.deck, observer)
        return knowledge.update(state)

    def update(self, state) -> "Knowledge":
        """Read the events the state logged since the last update (a game in progress
        is followed move by move without reading its log again)."""
        try:
            for event in state.events[self.events_seen :]:
                self.observe(event)
        except BeliefError as exc:
            # A gap in the model must not stop a game: forget the history and go on
            # from what is on the table (less exact, never wrong). Tests assert that
            # this never happens in the games they play.
            log.warning("knowledge of %s reset to first sight: %s", self.observer, exc)
            fresh = Knowledge.at_first_sight(state, self.observer)
            self.__dict__.update(fresh.__dict__)
            self.degraded = True
        self.events_seen = len(state.events)
        return self

    @classmethod
    def at_first_sight(cls, state, observer: int) -> "Knowledge":
        """What a player knows of a position with no history: the own cards, public
        cards and own cards the opponent holds (R-SIR-1); the opponent's hand is one
        group and every face-down card of the opponent's a group of its own."""
        knowledge = cls(state.deck, observer)
        q = knowledge.opponent
        for card in state.deck.cards:
            location = state.find_on_field(card.id)
            if location is not None:
                knowledge.zone_of[card.id] = ("field", location[0])
        for p in (0, 1):
            for card in state.hands[p]:
                knowledge.zone_of[card] = ("hand", p)
            for card in state.discards[p]:
                knowledge.zone_of[card] = ("discard", p)
        for card in state.limbo:
            knowledge.zone_of[card] = ("limbo", q)
        for card in state.deck.cards:
            zone = knowledge.zone_of[card.id]
            if zone[0] == "deck":
                continue
            if knowledge.is_hidden_hand_card(card.id):
                knowledge._hand_gains(None)
            elif card.owner == q and zone == ("field", q) and card.id not in state.face_up:
                gid = knowledge._new_group()
                knowledge.groups[gid].add_wildcard()
                knowledge.group_of[card.id] = gid
            else:
                knowledge.known.add(card.id)
        knowledge.events_seen = len(state.events)
        return knowledge
