"""LegendsView: one seat's information set (L-INFO), as hzai.core's View.

It holds the public position (monsters, discs, turn, pending, sizes), the seat's own
hand, the seat's log (knowledge.observed: no card instances, hidden kinds as None), the
moves as the seat may know them, and the knowledge tracker's picture. It never holds
the referee's Table. `sample(seed)` draws a full State consistent with all of it
(sampler.py); `to_json()` is `hzai view --seat pX`.
"""

from __future__ import annotations

from hzai.core import View
from hzai.games.legends.knowledge import Known, observed, redact
from hzai.games.legends.moves import HIDDEN
from hzai.games.legends.rules import deck_kinds
from hzai.games.legends.sampler import replay_for
from hzai.games.legends.state import LegendsState, monster_json, seat_json
from hzai.games.legends.table import Monster, Table
from hzai.rng import SplitMix64, mix_seed

PUBLIC = ("turn", "turn_seat", "pending", "actor", "placed", "giver", "forced", "after_fight", "normals_entered",
          "normals_defeated", "finals_defeated", "result", "reason")


class LegendsView(View):
    def __init__(self):  # built by `of`
        self._shell = None
        self._tight = None  # sampler.tight: whether the rejection draw fails here for seed 0

    @classmethod
    def of(cls, state: LegendsState, o: int) -> LegendsView:
        game, t = state.game, state.t
        v = cls()
        v.game, v._seat = game, o
        v.public = {key: getattr(t, key) for key in PUBLIC}
        v.disc, v.broken = list(t.disc), list(t.broken)
        v.monsters = [(m.id, m.cards, m.req, m.size, m.final, m.defeated, [(a, f, by) for _, a, f, by in m.played])
                      for m in t.monsters]
        v.monster_deck_left = sorted(t.monster_deck)  # what it still holds, not its order (L-INFO-4)
        v.aside = len(t.aside)
        v.discard_by = [by for _, by in t.discard]
        hands0, pile0 = t.initial
        v.start_hands = [len(h) for h in hands0]
        v.start_pile = len(pile0)
        v.own_start = tuple(t.kind[i] for i in hands0[o])
        v.deck = tuple(deck_kinds(game)[0])
        v.hand = sorted(t.kind[i] for i in t.hands[o])
        v.hand_sizes = [len(h) for h in t.hands]
        v.log = observed(t, o)
        v.history = [(seat, redact(seat, move, pending, o), pending) for seat, move, pending in t.history]
        return v

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def current_seat(self) -> int | None:
        p = self.public
        return None if p["result"] is not None or p["pending"] == "chance" else p["actor"]

    def history_mark(self) -> tuple[int, str | None]:
        if not self.history:
            return 0, None
        seat, move, _ = self.history[-1]
        return len(self.history), self.game.move_text(move) if seat == self._seat else None

    def legal_moves(self) -> list:
        """The moves of the seat to act, when that is this seat (they follow from its hand
        and the public position); empty otherwise."""
        if self.current_seat != self._seat:
            return []
        return self.shell().legal_moves()

    def shell(self) -> LegendsState:
        """One fixed sample (seed 0), for what follows from the seat's own knowledge."""
        if self._shell is None:
            self._shell = self.sample(0)
        return self._shell

    def known(self) -> Known:
        """The knowledge tracker's picture after the whole log."""
        k = Known(self.game.n, self._seat, self.own_start, self.start_pile, len(self.monsters))
        for e in self.log:
            k.apply(e)
        return k

    # ----- a determinization ----------------------------------------------------------
    def sample(self, seed: int) -> LegendsState:
        game = self.game
        r = replay_for(self, seed)
        kind = list(r.kind)
        aside = list(range(len(kind), len(kind) + self.aside))
        kind.extend([game.data.di] * self.aside)
        t = Table(kind=kind, hands=[list(h) for h in r.hands], draw=list(r.draw), discard=list(r.discard),
                  aside=aside, oracle=list(r.oracle), monster_deck=list(self.monster_deck_left))
        SplitMix64(mix_seed(seed, 0x3D)).shuffle(t.monster_deck)
        for key, value in self.public.items():
            setattr(t, key, value)
        t.disc, t.broken = list(self.disc), list(self.broken)
        for (mid, cards, req, size, final, defeated, played), toks in zip(self.monsters, r.played):
            m = Monster(mid, cards, req, size, final)
            m.defeated = defeated
            m.played = [(tok, a, f, by) for tok, (a, f, by) in zip(toks, played)]
            for a, _, _ in played:
                if a >= 0:
                    m.cnt[a] += 1
            t.monsters.append(m)
        t.initial, t.events, t.history = r.initial, list(r.events), list(self.history)
        return LegendsState(game, t)

    # ----- JSON -------------------------------------------------------------------------
    def to_json(self) -> dict:
        game, p = self.game, self.public
        names = game.data.kinds
        k = self.known()

        def nm(x):
            return HIDDEN if x is None else names[x]

        seats = {}
        for s in range(game.n):
            t_like = _Discs(self.disc, self.broken, self.monsters)
            if s == self._seat:
                entry = seat_json(game, t_like, s, sorted(names[x] for x in self.hand))
            else:
                entry = seat_json(game, t_like, s, self.hand_sizes[s])
                entry["known_in_hand"] = sorted(names[x] for x in k.hand[s].elements())
            seats[game.seats[s]] = entry
        monsters = []
        for i, (mid, cards, req, size, final, defeated, played) in enumerate(self.monsters):
            m = Monster(mid, cards, req, size, final)
            m.defeated = defeated
            known = k.played[i] if i < len(k.played) else []
            m.played = [(pos, a, f, by) for pos, (a, f, by) in enumerate(played)]
            monsters.append(monster_json(game, m, lambda pos, face, by, known=known: nm(known[pos])))
        return {
            "game": "legends",
            "seat": game.seats[self._seat],
            "result": p["result"],
            "reason": p["reason"],
            "to_move": None if self.current_seat is None else game.seats[self.current_seat],
            "turn": p["turn"],
            "pending": None if p["result"] is not None else p["pending"],
            "mission": game.mission.id,
            "difficulty": game.difficulty,
            "normals_entered": p["normals_entered"],
            "normals_defeated": p["normals_defeated"],
            "monsters": monsters,
            "monster_deck": len(self.monster_deck_left),
            "monster_deck_holds": sorted(game.data.monsters[c][0] for c in self.monster_deck_left),
            "seats": seats,
            "draw_pile": _runs([nm(x) if x is not None else None for x in reversed(k.draw)]),
            "draw_pile_size": len(k.draw),
            "discard_pile": [{"card": nm(x), "by": game.seats[by]} for x, by in zip(k.discard, self.discard_by)],
            "set_aside_di": self.aside,
            "oracle_revealed": [names[x] for x in k.oracle],
            "moves": [game.move_text(m) for _, m, _ in self.history],
        }


class _Discs:
    """The little of a Table that seat_json reads (discs, broken, monsters' status)."""

    def __init__(self, disc, broken, monsters):
        self.disc, self.broken = disc, broken
        self.monsters = [_Status(m[5]) for m in monsters]


class _Status:
    def __init__(self, defeated: bool):
        self.defeated = defeated


def _runs(places: list) -> list:
    """Known places by name, each run of unknown places as its count (top first)."""
    out: list = []
    for x in places:
        if x is None:
            if out and isinstance(out[-1], int):
                out[-1] += 1
            else:
                out.append(1)
        else:
            out.append(x)
    return out

