"""Determinization: one full Table consistent with everything a seat has seen.

The seat's log (knowledge.observed) is replayed on tokens. A token is one card whose
kind may still be open (a joker); the seat's own cards start known, everything else
open. Whenever the log shows a kind (a card the seat drew, a face-up fight, the Oracle,
a handover the seat took part in) the token there must be of that kind: an open token
is fixed to it, taken from the cards not yet fixed. Where the log hides which card a
teammate used (a face-down fight, a discard, a gift to a third seat), a token of that
hand is chosen uniformly; the orders of missions 6-7 are shuffled. A replay that runs
into a contradiction (a hand that must show a kind it cannot hold) is started again
from another sub-seed; at the end the open tokens get the remaining kinds, shuffled.

So a sample is a history the seat could not tell from the real one: the same public
moves, the same cards wherever the seat saw them (L-INFO-6), drawn as if teammates
chose their hidden cards at random.
"""

from __future__ import annotations

from collections import Counter

from hzai.rng import SplitMix64, mix_seed

OPEN = -1
ATTEMPTS = 200
UNIFORM_ATTEMPTS = 8  # attempts with uniform hidden choices before the biased modes (_Replay.mode)
MODES = ("fixed", "open", "fixed", "mixed")  # the later attempts' modes, in turn


class Contradiction(Exception):
    pass


class _Replay:
    def __init__(self, view, rng: SplitMix64, keep_open: bool = False, mode: str | None = None):
        # mode of the hidden removals: "uniform", "fixed" (fixed cards leave first, open
        # ones stay flexible), "open" (open cards leave first, the fixed ones stay where
        # the seat last saw them) or "mixed" (one of the two, removal by removal)
        self.rng = rng
        self.mode = mode or ("fixed" if keep_open else "uniform")
        self.kind: list[int] = []
        n = view.game.n
        self.hands: list[list[int]] = []
        for s in range(n):
            known = view.own_start if s == view.seat else (OPEN,) * view.start_hands[s]
            self.hands.append([self._token(k) for k in known])
        self.draw = [self._token(OPEN) for _ in range(view.start_pile)]  # top last
        self.initial = (tuple(tuple(h) for h in self.hands), tuple(self.draw))
        self.pool = Counter(view.deck) - Counter(view.own_start)
        self.discard: list[tuple[int, int]] = []
        self.played: list[list[int]] = [[] for _ in view.monsters]
        self.oracle: list[int] = []
        self.events: list[tuple] = []
        self.at = 0  # the log index being replayed
        self.moved = [-1] * len(self.kind)  # token -> log index of its last move
        self.hidden: list[list] = []  # [log index, seat, token, its arrival in the hand, where it went, event]

    def _token(self, k: int) -> int:
        self.kind.append(k)
        return len(self.kind) - 1

    def _moved(self, toks) -> None:
        for tok in toks:
            self.moved[tok] = self.at

    def fix(self, tok: int, k: int) -> None:
        if self.kind[tok] == k:
            return
        if self.kind[tok] != OPEN or self.pool[k] <= 0:
            raise Contradiction
        self.kind[tok] = k
        self.pool[k] -= 1

    def take(self, seat: int, k: int | None) -> int:
        """A card leaving `seat`'s hand: of kind k (a token of that kind, else an open
        one fixed to it), or any card when the kind is hidden."""
        hand = self.hands[seat]
        if not hand:
            raise Contradiction
        if k is None:
            pos = self.rng.below(len(hand))
            prefer = self._prefer()
            if prefer is not None:  # a later attempt: see `mode`
                chosen = [p for p, tok in enumerate(hand) if (self.kind[tok] != OPEN) == (prefer == "fixed")]
                if chosen:
                    pos = chosen[self.rng.below(len(chosen))]
            tok = hand.pop(pos)
            self.hidden.append([self.at, seat, tok, self.moved[tok], None, len(self.events)])
            self.moved[tok] = self.at
            return tok
        for pos, tok in enumerate(hand):
            if self.kind[tok] == k:
                self.moved[tok] = self.at
                return hand.pop(pos)
        # A card of kind k that this hand gave up unseen is taken back first (so no
        # further card of kind k is fixed while one sits in a hidden place), then an
        # open card, then an open card given up unseen.
        tok = self._repair(seat, k, True)
        if tok is None:
            opened = [pos for pos, tok in enumerate(hand) if self.kind[tok] == OPEN]
            if opened and self.pool[k] > 0:
                tok = hand.pop(opened[self.rng.below(len(opened))])
            else:
                tok = self._repair(seat, k, False)
        if tok is None:
            raise Contradiction
        self.fix(tok, k)
        self.moved[tok] = self.at
        return tok

    def _prefer(self) -> str | None:
        """Which cards a hidden removal takes first: "fixed", "open" or None (any)."""
        if self.mode == "mixed":
            return ("fixed", "open")[self.rng.below(2)]
        return None if self.mode == "uniform" else self.mode

    def _went(self, where) -> None:
        """Note where the last hidden removal's card went (for _repair)."""
        if self.hidden and self.hidden[-1][0] == self.at and self.hidden[-1][4] is None:
            self.hidden[-1][4] = where

    def _repair(self, seat: int, k: int, fixed_only: bool) -> int | None:
        """The hand must show kind k but holds none: rewrite one earlier hidden removal
        from it so that the card of kind k stayed and another card, in the hand since
        before that removal and unmoved, left instead. Neither card has moved since, and
        the seat saw neither, so nothing it observed changes. Returns the token (of kind
        k, or open when not `fixed_only`), removed from the hand; None if none fits."""
        hand = self.hands[seat]
        for record in reversed(self.hidden):
            at, s, x, arrived, where, event = record
            if s != seat or self.moved[x] != at or where is None:
                continue
            if not (self.kind[x] == k or (not fixed_only and self.kind[x] == OPEN and self.pool[k] > 0)):
                continue
            stayed = [y for y in hand if self.moved[y] < at]
            if not stayed:
                continue
            prefer = self._prefer()
            if prefer is not None:  # the card that leaves instead, as `mode` prefers
                stayed = [y for y in stayed if (self.kind[y] != OPEN) == (prefer == "fixed")] or stayed
            y = stayed[self.rng.below(len(stayed))]
            if where[0] == "discard":
                self.discard = [(y if tok == x else tok, by) for tok, by in self.discard]
            elif where[0] == "played":
                self.played[where[1]] = [y if tok == x else tok for tok in self.played[where[1]]]
            else:
                self.hands[where[1]] = [y if tok == x else tok for tok in self.hands[where[1]]]
            e = self.events[event]
            if e[0] == "give":
                self.events[event] = e[:3] + (tuple(y if tok == x else tok for tok in e[3]),)
            else:  # play or discard: the token is the third item
                self.events[event] = e[:2] + (y,) + e[3:]
            hand.remove(y)
            record[2], record[3] = y, self.moved[y]
            self.moved[y], self.moved[x] = at, arrived
            return x
        return None

    def step(self, e: tuple) -> None:
        typ = e[0]
        if typ == "draw":
            _, seat, n, kinds = e
            taken = [self.draw.pop() for _ in range(n)]
            if kinds is not None:
                for tok, k in zip(taken, kinds):
                    self.fix(tok, k)
            self.hands[seat].extend(taken)
            self._moved(taken)
            self.events.append(("draw", seat, tuple(taken)))
        elif typ == "play":
            _, seat, mon, face, k = e
            tok = self.take(seat, k)
            self._went(("played", mon))
            self.played[mon].append(tok)
            self.events.append(("play", seat, tok, mon, face))
        elif typ == "discard":
            _, seat, k = e
            tok = self.take(seat, k)
            self._went(("discard",))
            self.discard.append((tok, seat))
            self.events.append(("discard", seat, tok))
        elif typ == "give":
            _, giver, receiver, n, kinds = e
            toks = []
            for k in (kinds if kinds is not None else (None,) * n):
                toks.append(self.take(giver, k))
                self._went(("hand", receiver))
            self.hands[receiver].extend(toks)
            self.events.append(("give", giver, receiver, tuple(toks)))
        elif typ == "reveal":
            taken = [self.draw.pop() for _ in e[1]]
            for tok, k in zip(taken, e[1]):
                self.fix(tok, k)
            self.oracle = taken
            self._moved(taken)
            self.events.append(("reveal", tuple(taken)))
        elif typ == "back":
            _, seat, k, order = e
            shown = list(self.oracle)

            def pick(kind):
                return shown.pop(next(p for p, tok in enumerate(shown) if self.kind[tok] == kind))

            out = pick(k)
            back = [pick(kind) for kind in order]
            self.oracle = []
            self.discard.append((out, seat))
            self.draw.extend(reversed(back))
            self._moved([out, *back])
            self.events.append(("back", seat, out, tuple(back)))
        elif typ in ("under_draw", "under_discard"):
            _, seat, n = e
            block = self.hands[seat]
            if len(block) != n:
                raise Contradiction
            self.rng.shuffle(block)
            self._moved(block)
            self.hands[seat] = []
            if typ == "under_draw":
                self.draw[:0] = block[::-1]
            else:
                self.discard[:0] = [(tok, seat) for tok in block[::-1]]
            self.events.append((typ, seat, tuple(block)))
        else:  # take_discard
            _, seat, n, kinds = e
            taken = [self.discard.pop()[0] for _ in range(n)]
            if kinds is not None:
                for tok, k in zip(taken, kinds):
                    self.fix(tok, k)
            self.hands[seat].extend(taken)
            self._moved(taken)
            self.events.append(("take_discard", seat, tuple(taken)))

    def finish(self) -> None:
        """The open tokens get the kinds not yet fixed, in a random order."""
        opened = [tok for tok, k in enumerate(self.kind) if k == OPEN]
        rest = list(self.pool.elements())
        if len(rest) != len(opened):
            raise Contradiction
        self.rng.shuffle(rest)
        for tok, k in zip(opened, rest):
            self.kind[tok] = k


def replay_for(view, seed: int) -> _Replay:
    """A consistent replay of the view's log (a few attempts from sub-seeds of `seed`)."""
    for attempt in range(ATTEMPTS):
        mode = "uniform" if attempt < UNIFORM_ATTEMPTS else MODES[attempt % len(MODES)]
        replay = _Replay(view, SplitMix64(mix_seed(seed, attempt)), mode=mode)
        try:
            for at, e in enumerate(view.log):
                replay.at = at
                replay.step(e)
            replay.finish()
            return replay
        except Contradiction:
            continue
    raise RuntimeError(f"no determinization found for {view.game.seats[view.seat]} in {ATTEMPTS} attempts")
