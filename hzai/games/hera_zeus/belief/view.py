"""A player's view (information set, R-INFO): the game as that player can see it.

A view holds no card instance ids: an id would tell the card's type. Every hidden
location names a group instead (`hzai.games.hera_zeus.belief.knowledge`), and groups are numbered by
where they first appear, so two games that look the same to the player give equal
views. Views are plain data: `to_json()` / `View.from_json()`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from hzai.games.hera_zeus.belief.evidence import placement_evidence
from hzai.games.hera_zeus.belief.knowledge import Knowledge
from hzai.games.hera_zeus.cards import PLAYERS
from typing import TYPE_CHECKING

from hzai.core.view import View as CoreView
from hzai.games.hera_zeus.rules.variants import Variants
from hzai.games.hera_zeus.rules.state import FIGURE, State

if TYPE_CHECKING:
    from hzai.games.hera_zeus.rules.game import Game

Identity = tuple[str, int]  # (card name, owner)


@dataclass(frozen=True)
class Slot:
    """One location as the observer sees it: a known card, a group member, or the figure."""

    card: Identity | None = None
    group: int | None = None
    face_up: bool = False
    figure: bool = False
    excluded: tuple[str, ...] = ()  # names this hidden card cannot be

    def to_json(self) -> dict:
        if self.figure:
            return {"card": "figure"}
        out: dict = {"face_up": self.face_up}
        if self.card is not None:
            out.update(card=self.card[0], owner=PLAYERS[self.card[1]])
        else:
            out["group"] = self.group
            if self.excluded:
                out["excluded"] = list(self.excluded)
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Slot":
        if data.get("card") == "figure":
            return cls(figure=True)
        if "group" in data:
            return cls(group=int(data["group"]), excluded=tuple(data.get("excluded", ())))
        return cls(card=(data["card"], PLAYERS.index(data["owner"])), face_up=bool(data.get("face_up", False)))


@dataclass
class GroupView:
    owner: int
    known: dict[str, int]
    wildcards: list[tuple[int, tuple[str, ...]]]  # (count, excluded names)

    def to_json(self) -> dict:
        return {
            "owner": PLAYERS[self.owner],
            "known": dict(sorted(self.known.items())),
            "wildcards": [{"count": n, "excluded": list(ex)} for n, ex in self.wildcards],
        }

    @classmethod
    def from_json(cls, data: dict) -> "GroupView":
        return cls(
            PLAYERS.index(data["owner"]),
            {k: int(v) for k, v in data["known"].items()},
            [(int(w["count"]), tuple(w["excluded"])) for w in data["wildcards"]],
        )


@dataclass(eq=False)
class View(CoreView):
    game: "Game"  # the static game itself: deck, variants, action ids, native twin
    observer: int
    public: dict  # phase, turn, turn_player, to_move, ap, ap_spent, winner, reason
    columns: list[list[list[Slot]]]  # [side][column] front first
    hands: list[list[Slot]]
    deck_sizes: list[int]
    discards: list[list[Identity]]
    pending: list[dict] = field(default_factory=list)
    groups: list[GroupView] = field(default_factory=list)
    # How the opponent's hidden field cards came there (belief/evidence.py), by slot
    # (column, row index): what the opponent model weighs. Not part of to_json (the
    # information set as the sampler reads it); a view read back from JSON has none.
    evidence: dict = field(default_factory=dict)
    # hzai.core.View.history_mark: (moves so far, the last one's text when the observer
    # made it). Not part of to_json either; a view read back from JSON has none.
    mark: tuple | None = None
    # What the observer saw the opponent do (history_of below; docs/learning.md "History
    # in the features"). Not part of to_json either; a view read back from JSON has none.
    history: dict = field(default_factory=dict)

    def __eq__(self, other) -> bool:
        return isinstance(other, View) and self.to_json() == other.to_json()

    # ----- hzai.core.View --------------------------------------------------------------
    @property
    def variants(self) -> Variants:
        return self.game.variants

    @property
    def deck_spec(self) -> str:
        return self.game.deck_spec

    @property
    def seat(self) -> int:
        return self.observer

    @property
    def current_seat(self) -> int | None:
        to_move = self.public["to_move"]
        return None if to_move is None else PLAYERS.index(to_move)

    def legal_moves(self):
        return self.game.search.view_legal_moves(self)

    def sample(self, seed: int) -> State:
        return self.game.search.sample_view(self, seed)

    def history_mark(self) -> tuple[int, str | None] | None:
        return self.mark

    def turn_progress(self) -> tuple[int, int] | None:
        """(AP spent, AP left) while this seat is to act in its own turn with nothing
        pending: each action costs 1 AP (R-TURN-4). The god card (0 AP, R-GOD-2) and
        the pending `place` / `top` decisions are not counted; None for those, for
        the setup and for the other seat's decisions."""
        p = self.public
        if p["phase"] != "play" or self.pending or self.current_seat != self.observer:
            return None
        if p["turn_player"] != p["to_move"] or p["ap_left"] < 1:
            return None
        return p["ap_spent"], p["ap_left"]

    def to_json(self) -> dict:
        return {
            "observer": PLAYERS[self.observer],
            "variants": self.variants.to_dict(),
            "deck": self.deck_spec,
            **self.public,
            "pending": self.pending,
            "sides": {
                PLAYERS[p]: {
                    "columns": [[s.to_json() for s in column] for column in self.columns[p]],
                    "hand": [s.to_json() for s in self.hands[p]],
                    "deck_size": self.deck_sizes[p],
                    "discard": [{"card": n, "owner": PLAYERS[o]} for n, o in self.discards[p]],
                }
                for p in (0, 1)
            },
            "groups": [g.to_json() for g in self.groups],
        }

    @classmethod
    def from_json(cls, data: dict, game: "Game") -> "View":
        """The view `to_json` wrote, of `game` (whose variants and deck it must name)."""
        if data["variants"] != game.variants.to_dict() or data["deck"] != game.deck_spec:
            raise ValueError("the view's variants or deck are not those of the game given")
        public_keys = ("phase", "turn", "turn_player", "to_move", "ap_left", "ap_spent", "winner", "reason")
        sides = [data["sides"][p] for p in PLAYERS]
        return cls(
            game=game,
            observer=PLAYERS.index(data["observer"]),
            public={k: data[k] for k in public_keys},
            columns=[[[Slot.from_json(s) for s in column] for column in side["columns"]] for side in sides],
            hands=[[Slot.from_json(s) for s in side["hand"]] for side in sides],
            deck_sizes=[int(side["deck_size"]) for side in sides],
            discards=[[(d["card"], PLAYERS.index(d["owner"])) for d in side["discard"]] for side in sides],
            pending=list(data["pending"]),
            groups=[GroupView.from_json(g) for g in data["groups"]],
        )


def view_of(state: State, observer: int, knowledge: Knowledge | None = None) -> View:
    """The information set of `observer` in `state` (R-INFO-1..3)."""
    knowledge = knowledge or Knowledge.of(state, observer)
    deck = state.deck
    numbering: dict[int, int] = {}  # knowledge group id -> view group number, by first appearance

    def identity(card: int) -> Identity:
        return deck.cards[card].name, deck.cards[card].owner

    def slot(card: int, face_up: bool = False) -> Slot:
        if card == FIGURE:
            return Slot(figure=True)
        if face_up or card in knowledge.known:
            return Slot(card=identity(card), face_up=face_up)
        gid = knowledge.group_of.get(card)
        if gid is None:
            raise RuntimeError("a hidden card outside every group")  # would be a tracker bug
        excluded = tuple(sorted(knowledge.slot_excluded.get(card, ())))
        return Slot(group=numbering.setdefault(gid, len(numbering)), excluded=excluded)

    columns = [[[slot(x, x in state.face_up) for x in column] for column in state.columns[p]] for p in (0, 1)]
    hands = []
    for p in (0, 1):
        # The hand is listed by what is seen, never by card id: known cards by name,
        # then how many cards of each group it holds.
        known_cards = sorted(identity(x) for x in state.hands[p] if x in knowledge.known)
        slots = [Slot(card=c) for c in known_cards]
        if p == knowledge.opponent:
            for gid in sorted(knowledge.hand_parts):
                number = numbering.setdefault(gid, len(numbering))
                slots += [Slot(group=number)] * knowledge.hand_parts[gid]
        if len(slots) != len(state.hands[p]):
            raise RuntimeError("the hand's known cards and groups do not add up")  # a tracker bug
        hands.append(slots)
    groups = []
    for gid, number in sorted(numbering.items(), key=lambda item: item[1]):
        g = knowledge.groups[gid]
        wild = sorted(((n, tuple(sorted(ex))) for ex, n in g.wildcards.items() if n), key=lambda w: (w[1], w[0]))
        groups.append(GroupView(g.owner, {k: v for k, v in g.known.items() if v}, wild))
    pending = []
    for p in state.pending:
        entry: dict = {"decision": p.kind, "player": PLAYERS[p.player]}
        if p.kind == "place":
            name, owner = identity(p.cards[0])
            entry["card"] = {"card": name, "owner": PLAYERS[owner]}
        elif p.kind == "top":
            pile = state.discards[p.player]
            entry["pile_positions"] = sorted(pile.index(x) for x in p.cards)
        pending.append(entry)
    public = {
        "phase": state.phase,
        "turn": state.turn,
        "turn_player": PLAYERS[state.turn_player],
        "to_move": state.player_to_move,
        "ap_left": state.ap,
        "ap_spent": state.ap_spent,
        "winner": None if state.winner is None else PLAYERS[state.winner],
        "reason": state.reason,
    }
    q = knowledge.opponent
    hidden = {x for column in state.columns[q] for x in column if x != FIGURE and x not in knowledge.known}
    own_last = state.history and state.last_mover == observer
    return View(
        history=history_of(state, knowledge, columns),
        evidence=placement_evidence(state, observer, hidden),
        mark=(len(state.history), str(state.history[-1]) if own_last else None),
        game=state.game,
        observer=observer,
        public=public,
        columns=columns,
        hands=hands,
        deck_sizes=[len(state.decks[0]), len(state.decks[1])],
        discards=[[identity(x) for x in state.discards[p]] for p in (0, 1)],
        pending=pending,
        groups=groups,
    )


def history_of(state: State, knowledge: Knowledge, columns) -> dict:
    """The history part of a view (Knowledge::history_of in knowledge.cpp): for each of
    the opponent's field slots (column, row) holding a card hidden from the observer, a
    tuple (origin, age, covered, moved): origin 0 the setup, 1 a play from the hand, 2
    another move, 3 not seen arriving; age the turns since it arrived; covered the cards
    that arrived in front of it since; moved whether it was moved on the field since.
    `acts`: the opponent's last action kinds, newest first; `counts`: its actions by kind.
    Empty when the game was not followed from the deal."""
    if not knowledge.history_known:
        return {}
    q = knowledge.opponent
    slots = {}
    for c, column in enumerate(state.columns[q]):
        for r, card in enumerate(column):
            if columns[q][c][r].group is None:
                continue
            a = knowledge.arrival.get(card)
            if a is None:
                slots[(c, r)] = (3, 0, 0, False)
                continue
            covered = sum(1 for other in column[:r] if other != FIGURE and other in knowledge.arrival
                          and knowledge.arrival[other][2] > a[2])
            slots[(c, r)] = (a[0], state.turn - a[1], covered, a[3])
    return {"slots": slots, "acts": list(reversed(knowledge.acts)), "counts": dict(knowledge.act_counts)}


def unaccounted(view: View, deck) -> list[Counter]:
    """Per owner, the names of cards not known anywhere and not in a group's known
    part: what wildcards and decks are made of."""
    pools = [Counter(), Counter()]
    for card in deck.cards:
        pools[card.owner][card.name] += 1
    seen: list[Identity] = []
    for p in (0, 1):
        seen += [s.card for column in view.columns[p] for s in column if s.card is not None]
        seen += [s.card for s in view.hands[p] if s.card is not None]
        seen += view.discards[p]
    for pending in view.pending:
        if "card" in pending:
            seen.append((pending["card"]["card"], PLAYERS.index(pending["card"]["owner"])))
    for name, owner in seen:
        pools[owner][name] -= 1
    for group in view.groups:
        for name, n in group.known.items():
            pools[group.owner][name] -= n
    for pool in pools:
        if any(n < 0 for n in pool.values()):
            raise RuntimeError("a view accounts for more cards than the deck has")
    return pools
