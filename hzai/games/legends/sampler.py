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

Where all ATTEMPTS replays fail (a hand slid under a pile that the seat later draws in
the order it sees, unseen discards it later takes back: choices the replay makes blind),
the fitted draw (`fitted_replay`) searches the hidden choices instead and finds a world
whenever one exists (docs/legends.md, "When rejection fails").
"""

from __future__ import annotations

from collections import Counter

from hzai.rng import SplitMix64, mix_seed

OPEN = -1
WILD = -2  # the fitted draw's lookahead: a card a hand receives later, of any kind it needs
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


FITTED = 0xF177ED  # the sub-seed of the fitted draw
RUNS, RESTARTS = 200, 100  # the fitted draw: replays a search may make, searches before it gives up


def _rejection(view, seed: int) -> _Replay | None:
    """The rejection draw: up to ATTEMPTS replays from sub-seeds of `seed`; None if all fail."""
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
    return None


def pile_needs(log, start_pile: int) -> dict[tuple[int, int], int]:
    """The kinds the log forces on cards nobody saw leave a hand: a card discarded unseen
    that the seat later takes back from the discard pile (mission 7), a card of a hand
    slid under a pile that the seat later draws or takes (missions 6 and 7). The piles
    are stacks whose every move the log counts, so the place a card went to is known
    and so is the kind the seat saw there. {(log index, place in the block, 0 = its
    top; 0 for a discard): kind}."""
    needs: dict[tuple[int, int], int] = {}
    draw: list = [None] * start_pile
    discard: list = []

    def pop(pile, n, kinds):
        taken = [pile.pop() for _ in range(n)]
        for slot, k in zip(taken, kinds or ()):
            if slot is not None:
                needs[slot] = k

    for at, e in enumerate(log):
        typ = e[0]
        if typ in ("draw", "reveal") and len(draw) < (e[2] if typ == "draw" else len(e[1])):
            break  # more cards than the pile holds: the replay refuses the view
        if typ == "draw":
            pop(draw, e[2], e[3])
        elif typ == "reveal":
            pop(draw, len(e[1]), e[1])
        elif typ == "back":
            discard.append(None)
            draw.extend([None] * len(e[3]))
        elif typ == "discard":
            discard.append((at, 0) if e[2] is None else None)
        elif typ == "take_discard":
            if len(discard) < e[2]:
                break
            pop(discard, e[2], e[3])
        elif typ == "under_draw":
            draw[:0] = [(at, q) for q in reversed(range(e[2]))]
        elif typ == "under_discard":
            discard[:0] = [(at, q) for q in reversed(range(e[2]))]
    return needs


class _Fitted(_Replay):
    """One replay of the fitted draw. Its choices (which card a hidden removal takes, the
    order of a hand slid under a pile) are made between the *statuses* of the cards
    there: a kind the card is fixed to, or open. Cards of one status are interchangeable
    for everything that follows, so a choice has at most one option per status, and a
    state is known by its statuses alone (`key`). `prefix` forces the first choices (the
    search in `fitted_replay`); the others take their first option. Options are ordered
    by a draw without replacement weighted by how many cards have the status, so a
    replay that needs no backtracking chooses as the uniform replay does."""

    def __init__(self, view, rng: SplitMix64, prefix: list[int], failed: set, needs: dict, touch: list):
        super().__init__(view, rng)
        self.prefix, self.failed, self.needs = prefix, failed, needs
        self.log = view.log
        self.touch = touch  # per seat, the log entries that move cards of its hand
        self.giving = (None, 0)  # during a handover: the receiver, the cards still to come
        self.trail: list[tuple[int, tuple]] = []  # (options, state key) of each choice made
        self.loose: list[int] = []  # cards out of a hand and not yet placed (a give, a block)
        self.nkinds = len(view.game.data.kinds)

    def key(self) -> tuple:
        kind = self.kind
        return (self.at, tuple(kind[t] for t in self.loose),
                tuple(tuple(sorted(kind[t] for t in h)) for h in self.hands), tuple(kind[t] for t in self.draw),
                tuple(kind[t] for t, _ in self.discard), tuple(kind[t] for t in self.oracle),
                tuple(self.pool[k] for k in range(self.nkinds)))

    def choose(self, cards: list[int], seat: int | None = None, receiver: int | None = None, more: int = 0) -> int:
        """One status among those of `cards` (each a token): the search's next option.
        For a card leaving `seat`'s hand (to `receiver`'s, with `more` cards of the same
        handover still to come), the options after which both hands can still show what
        the log later needs of them (`hand_can`) come first."""
        counts = Counter(self.kind[t] for t in cards)
        options = sorted(counts)
        if len(options) == 1:
            return options[0]
        weights = [counts[o] for o in options]
        order = []
        while options:
            x = self.rng.below(sum(weights))
            j = 0
            while x >= weights[j]:
                x -= weights[j]
                j += 1
            order.append(options.pop(j))
            weights.pop(j)
        if seat is not None:
            def cost(status):
                left = counts.copy()
                left[status] -= 1
                here = self.hand_can(seat, left)
                if receiver is None or here < 0:
                    return here
                got = Counter(self.kind[t] for t in self.hands[receiver]) + Counter(self.kind[t] for t in self.loose)
                got[status] += 1
                got[WILD] += more
                there = self.hand_can(receiver, got)
                return -1 if there < 0 else here + there

            costs = [cost(o) for o in order]
            ranked = sorted(range(len(order)), key=lambda i: (costs[i] < 0, costs[i], i))
            order = [order[i] for i in ranked]
        key = self.key()
        if key in self.failed:  # every option from this state was tried and failed
            self.trail.append((0, key))
            raise Contradiction
        j = len(self.trail)
        self.trail.append((len(order), key))
        return order[self.prefix[j] if j < len(self.prefix) else 0]

    def hand_can(self, seat: int, held: Counter) -> int:
        """Whether a hand holding `held` (statuses; WILD: a card still to arrive in the
        current handover) after the current log entry can show every kind the rest of the
        log takes from it, if every card it receives later may be whatever it needs (so
        a rough necessary condition, for the order of the options only): -1 if not, else
        how many of those kinds a card not yet fixed to them must show (each uses up a
        card of the kind that another place may need). A card it gives up unseen is one
        the rest of the log needs least: a fixed kind beyond what is still needed, else a
        card to arrive, else an open one, else the commonest kind."""
        held = Counter({k: n for k, n in held.items() if n > 0})
        future = [j for j in self.touch[seat] if j > self.at]
        wanted = Counter(k for j in future for k in self.shown_out(j, seat) if k is not None)
        used = Counter()  # open cards fixed in this check, per kind
        fitted = 0
        for j in future:
            e = self.log[j]
            typ = e[0]
            if typ in ("draw", "take_discard") or (typ == "give" and e[2] == seat and e[1] != seat):
                held[WILD] += e[2] if typ != "give" else e[3]
                continue
            for k in self.shown_out(j, seat):
                if k is not None:
                    wanted[k] -= 1
                    if held[k] > 0:
                        held[k] -= 1
                        continue
                    if held[WILD] > 0:
                        held[WILD] -= 1
                    elif held[OPEN] > 0 and self.pool[k] - used[k] > 0:
                        held[OPEN] -= 1
                        used[k] += 1
                    else:
                        return -1
                    fitted += 1
                    continue
                spare = [x for x in held if x not in (OPEN, WILD) and held[x] > max(wanted[x], 0)]
                if spare:
                    x = min(spare)
                elif held[WILD] > 0:
                    x = WILD
                elif held[OPEN] > 0:
                    x = OPEN
                else:
                    x = max((x for x in held if held[x] > 0), key=lambda y: (held[y], -y), default=None)
                    if x is None:
                        return -1
                held[x] -= 1
            if typ in ("under_draw", "under_discard"):
                held.clear()
        return fitted

    def shown_out(self, j: int, seat: int) -> list:
        """The cards log entry j takes out of `seat`'s hand: a kind where the log shows or
        forces it (pile_needs), None where it is unseen."""
        e = self.log[j]
        typ = e[0]
        if typ in ("play", "discard") and e[1] == seat:
            k = e[-1] if typ == "play" else e[2]
            return [self.needs.get((j, 0)) if k is None and typ == "discard" else k]
        if typ == "give" and e[1] == seat:
            return list(e[4]) if e[4] is not None else [None] * e[3]
        if typ in ("under_draw", "under_discard") and e[1] == seat:
            return [self.needs.get((j, q)) for q in range(e[2])]
        return []

    def pick(self, cards: list[int], status: int) -> int:
        """Removes and returns a random card of `status` from the list `cards`."""
        at = [p for p, tok in enumerate(cards) if self.kind[tok] == status]
        return cards.pop(at[self.rng.below(len(at))])

    def take(self, seat: int, k: int | None) -> int:
        return self.take_from(self.hands[seat], k, seat)

    def take_from(self, hand: list[int], k: int | None, seat: int | None = None) -> int:
        """A card out of `hand`: of kind k (one fixed to k, else an open one fixed to it:
        the first leaves every option the second does), or as the search chooses."""
        if not hand:
            raise Contradiction
        if k is None:
            return self.pick(hand, self.choose(hand, seat, *self.giving))
        for pos, tok in enumerate(hand):
            if self.kind[tok] == k:
                return hand.pop(pos)
        if self.pool[k] <= 0 or OPEN not in (self.kind[t] for t in hand):
            raise Contradiction
        tok = self.pick(hand, OPEN)
        self.fix(tok, k)
        return tok

    def step(self, e: tuple) -> None:
        typ = e[0]
        if typ == "give":
            _, giver, receiver, n, kinds = e
            for i, k in enumerate(kinds if kinds is not None else (None,) * n):
                self.giving = (receiver, n - i - 1)
                self.loose.append(self.take(giver, k))
            toks, self.loose, self.giving = self.loose, [], (None, 0)
            self.hands[receiver].extend(toks)
            self.events.append(("give", giver, receiver, tuple(toks)))
        elif typ in ("under_draw", "under_discard"):
            _, seat, n = e
            hand = self.hands[seat]
            if len(hand) != n:
                raise Contradiction
            for q in range(n):  # the block's order, its top first: as the log forces it, else as chosen
                self.loose.append(self.take_from(hand, self.needs.get((self.at, q))))  # (no seat: no lookahead)
            block, self.loose = self.loose, []
            if typ == "under_draw":
                self.draw[:0] = block[::-1]
            else:
                self.discard[:0] = [(tok, seat) for tok in block[::-1]]
            self.events.append((typ, seat, tuple(block)))
        elif typ == "discard" and e[2] is None and (self.at, 0) in self.needs:
            super().step(("discard", e[1], self.needs[(self.at, 0)]))
        else:
            super().step(e)


def fitted_replay(view, seed: int) -> _Replay:
    """The fitted draw: a depth-first search over the choices of `_Fitted`, each replay
    from the start with the choices of the last one up to its deepest choice that has an
    option left, that one moved on. A state whose every option failed is remembered
    (`failed`) and cut at once when met again. A search that has not found a world in
    RUNS replays starts again from the next sub-seed (its early choices in another
    order; what `failed` holds stays true), up to RESTARTS times: a search either finds
    one at once or sinks below an early choice it would take very long to come back
    to. Every search that runs out of choices proves that no world fits the view (never
    so for a view a game reached). The same world for the same seed."""
    failed: set = set()
    needs = pile_needs(view.log, view.start_pile)
    touch: list[list[int]] = [[] for _ in range(view.game.n)]
    for at, e in enumerate(view.log):
        if e[0] in ("draw", "play", "discard", "take_discard", "under_draw", "under_discard"):
            touch[e[1]].append(at)
        elif e[0] == "give":
            touch[e[1]].append(at)
            if e[2] != e[1]:
                touch[e[2]].append(at)
    for restart in range(RESTARTS):
        prefix: list[int] = []
        for _ in range(RUNS):
            replay = _Fitted(view, SplitMix64(mix_seed(seed, FITTED + restart)), prefix, failed, needs, touch)
            try:
                for at, e in enumerate(view.log):
                    replay.at = at
                    replay.step(e)
                replay.at = len(view.log)
                replay.finish()
                return replay
            except Contradiction:
                pass
            chosen = (prefix + [0] * len(replay.trail))[:len(replay.trail)]
            for j in range(len(replay.trail) - 1, -1, -1):
                options, key = replay.trail[j]
                if chosen[j] + 1 < options:
                    prefix = chosen[:j] + [chosen[j] + 1]
                    break
                failed.add(key)
            else:  # every choice tried: no world fits the view
                raise RuntimeError(f"no determinization found for {view.game.seats[view.seat]}: no world is "
                                   f"consistent with the view")
    raise RuntimeError(f"no determinization found for {view.game.seats[view.seat]}: the fitted draw found no "
                       f"world in {RESTARTS} searches of {RUNS} replays")


def replay_for(view, seed: int, how: str = "auto") -> _Replay:
    """A consistent replay of the view's log. `how`: "auto" (the rejection draw, then the
    fitted one where it fails; a view where it fails for seed 0 goes to the fitted draw
    at once, see `tight`), "rejection" (alone: RuntimeError when it fails) or "fitted"
    (alone)."""
    if how == "fitted":
        return fitted_replay(view, seed)
    if how == "rejection":
        replay = _rejection(view, seed)
        if replay is None:
            raise RuntimeError(f"no determinization found for {view.game.seats[view.seat]} in {ATTEMPTS} attempts")
        return replay
    if how != "auto":
        raise ValueError(f"how must be auto, rejection or fitted, not {how!r}")
    if tight(view):
        return fitted_replay(view, seed)
    replay = _rejection(view, seed)
    return replay if replay is not None else fitted_replay(view, seed)


def tight(view) -> bool:
    """Whether the rejection draw fails on this view for seed 0 (worked out once and kept
    on the view): such a view is one where it seldom succeeds, so every seed goes
    to the fitted draw at once instead of paying ATTEMPTS replays first. A function of
    the view alone, so a sample stays a function of the view and the seed."""
    known = getattr(view, "_tight", None)
    if known is None:
        known = view._tight = _rejection(view, 0) is None
    return known
