"""A second writing of the Legends feature encoding (hzai/games/legends/native/legends_learn.cpp), in
Python over the reference rules' LegendsView (the table's features and the history's), for the differential tests: the numbers
the C++ search evaluates must be the numbers training reads, and both must follow the
reference's picture of what a seat knows."""

from __future__ import annotations

from collections import Counter

from hzai import _native

MAX_SEATS, MAX_ATTR, MAX_MONSTERS, MAX_LIST, MAX_ORDER = 5, 8, 16, 4, 5
KINDS = MAX_ATTR + 1
COPIES, HAND_CAP, PILE_CAP, ORACLE_COPIES, DEFICIT_CAP, ROOM_CAP, TURN_CAP, COUNT_CAP = 4, 10, 32, 3, 4, 8, 40, 16
MON_STRIDE = 3 + MAX_MONSTERS + MAX_ATTR * DEFICIT_CAP + ROOM_CAP + MAX_SEATS


def layout() -> dict:
    sizes = [("seats", MAX_SEATS), ("special", 5), ("finals", 4), ("start", 4), ("size_normal", 16),
             ("free_reloc", 1), ("hero", MAX_SEATS * MAX_ATTR), ("hand", KINDS * COPIES),
             ("hand_size", MAX_SEATS * HAND_CAP), ("draw", PILE_CAP), ("discard", PILE_CAP), ("aside", 4),
             ("oracle", KINDS * ORACLE_COPIES), ("mdeck", MAX_MONSTERS + 1), ("mon", MAX_MONSTERS * MON_STRIDE),
             ("broken", MAX_SEATS), ("no_disc", MAX_SEATS), ("turn", TURN_CAP), ("turn_seat", MAX_SEATS),
             ("pending", 8), ("actor", MAX_SEATS), ("placed", 4), ("giver", MAX_SEATS + 1), ("flags", 3),
             ("af_defeat", 4), ("entered", COUNT_CAP), ("defeated", COUNT_CAP), ("finals_defeated", 4)]
    out, at = {}, 0
    for name, size in sizes:
        out[name] = at
        at += size
    out["table"] = at
    inner = 0
    for name, size in HISTORY_BLOCKS:
        out["h_" + name] = inner
        inner += size
    out["hist_stride"] = inner
    out["history"] = at
    at += (MAX_SEATS - 1) * inner
    for name, size in (("unseen", KINDS * UNSEEN_CAP), ("unseen_total", PILE_CAP),
                       ("unknown_in_hand", (MAX_SEATS - 1) * HAND_CAP)):
        out[name] = at
        at += size
    out["total"] = at
    return out


# The history (docs/learning.md, "Beliefs from partners' play"): one block per partner.
ACT_KINDS = ("fight", "wild", "slay", "ability", "move", "recover", "support", "oracle")
HIST_LAST, COUNT_BUCKETS, PLAYED_COPIES, RECEIVED_CAP, KNOWN_COPIES, UNSEEN_CAP = 4, 3, 2, 4, 3, 16
HISTORY_BLOCKS = [("last", HIST_LAST * len(ACT_KINDS)), ("count", len(ACT_KINDS) * COUNT_BUCKETS),
                  ("played", KINDS * PLAYED_COPIES), ("support_to", MAX_SEATS), ("support_n", MAX_LIST),
                  ("received", RECEIVED_CAP), ("back_out", KINDS), ("back_top", KINDS), ("declined", MAX_ATTR),
                  ("fought", MAX_ATTR), ("known", KINDS * KNOWN_COPIES)]


def _act_kind(move) -> str | None:
    from hzai.games.legends import moves as mv

    return {mv.FightCard: "fight", mv.FightWild: "wild", mv.FightSlay: "slay", mv.FightAbility: "ability",
            mv.MoveTo: "move", mv.Recover: "recover", mv.Support: "support", mv.Oracle: "oracle"}.get(type(move))


def history_features(view) -> list[int]:
    """The history block of a LegendsView: for each partner, its turns' actions (from the
    view's redacted moves), the cards it showed since its hand last grew (the log), its
    last Support and Oracle choice, the attributes its monster still needs that it did
    not fight with, and the cards the seat's knowledge tracker is sure it holds."""
    if not view.history and not view.log:
        return []
    game = view.game
    kinds = game.data.kinds
    L = layout()
    n, o = game.n, view.seat
    played = [Counter() for _ in range(n)]
    for e in view.log:
        typ = e[0]
        if typ == "play":
            _, seat, _mon, face, k = e
            if face != "down" and k is not None:
                played[seat][k] += 1
        elif typ in ("draw", "take_discard"):
            if e[2] > 0:
                played[e[1]].clear()
        elif typ == "give":
            if e[3] > 0:
                played[e[2]].clear()
        elif typ in ("under_draw", "under_discard"):
            played[e[1]].clear()
    tracker = view.known()
    known = tracker.hand
    out = []
    for r in range(1, n):
        p = (o + r) % n
        at = L["history"] + (r - 1) * L["hist_stride"]
        last, count, received, support, back = [], Counter(), 0, None, None
        for seat, move, pending in view.history:
            if seat is None:
                continue
            if pending == "action":
                kind = _act_kind(move)
                if kind == "support":
                    if seat == p:
                        support = (move.seat, len(move.cards))
                    if move.seat == p:
                        received += len(move.cards)
                if seat == p:
                    count[kind] += 1
                    last.insert(0, kind)
                    received = 0
            elif pending == "oracle_return" and seat == p:
                back = (kinds.index(move.cards[0]), kinds.index(move.order[0]) if move.order else None)
        for i, kind in enumerate(last[:HIST_LAST]):
            out.append(at + L["h_last"] + i * len(ACT_KINDS) + ACT_KINDS.index(kind))
        for j, kind in enumerate(ACT_KINDS):
            c = count[kind]
            if c:
                out.append(at + L["h_count"] + j * COUNT_BUCKETS + (0 if c == 1 else 1 if c <= 3 else 2))
        for k in range(KINDS):
            out += [at + L["h_played"] + k * PLAYED_COPIES + c for c in range(min(played[p][k], PLAYED_COPIES))]
        if support is not None:
            out.append(at + L["h_support_to"] + (support[0] - o) % n)
            out.append(at + L["h_support_n"] + _clamp(support[1] - 1, 0, MAX_LIST - 1))
        if received:
            out.append(at + L["h_received"] + min(received, RECEIVED_CAP) - 1)
        if back is not None:
            out.append(at + L["h_back_out"] + back[0])
            if back[1] is not None:
                out.append(at + L["h_back_top"] + back[1])
        latest = last[0] if last else None
        d = view.disc[p]
        block = ("h_declined" if latest in ("recover", "support", "oracle")
                 else "h_fought" if latest in ("fight", "wild", "slay", "ability") else None)
        if block is not None and d is not None and not view.monsters[d][5]:
            _mid, _cards, req, _size, _final, _defeated, on = view.monsters[d]
            cnt = Counter(a for a, _, _ in on if a >= 0)
            out += [at + L[block] + a for a in range(len(req)) if req[a] > cnt[a]]
        for k in range(KINDS):
            out += [at + L["h_known"] + k * KNOWN_COPIES + c for c in range(min(known[p][k], KNOWN_COPIES))]
    # the cards the seat cannot place: the deck's, less every known place
    placed = Counter()
    for hand in known:
        placed.update(hand)
    placed.update(k for k in tracker.draw if k is not None)
    placed.update(k for k in tracker.discard if k is not None)
    placed.update(k for on in tracker.played for k in on if k is not None)
    placed.update(tracker.oracle)
    deck = Counter(view.deck)
    unseen = [max(0, deck[k] - placed[k]) for k in range(KINDS)]
    out += [L["unseen"] + k * UNSEEN_CAP + _clamp(unseen[k], 0, UNSEEN_CAP - 1) for k in range(KINDS)]
    out.append(L["unseen_total"] + _clamp(sum(unseen) // 2, 0, PILE_CAP - 1))
    for r in range(1, n):
        p = (o + r) % n
        out.append(L["unknown_in_hand"] + (r - 1) * HAND_CAP +
                   _clamp(view.hand_sizes[p] - sum(known[p].values()), 0, HAND_CAP - 1))
    return out


def table_features(view) -> list[int]:
    """The table's features of a LegendsView (below layout()['table'])."""
    return view_features(view, history=False)


def _clamp(x, lo, hi):
    return max(lo, min(hi, x))


def view_features(view, history: bool = True) -> list[int]:
    """The active features of a LegendsView, from what the reference says the seat knows:
    the table's, then (with `history`) its history's."""
    from hzai.games.legends.native.twin import game_spec

    game = view.game
    spec = game_spec(game)
    L = layout()
    n, o = game.n, view.seat
    p = view.public

    def rel(s):  # a seat relative to the view's; none (the game is over) reads as seat 0, as the twin's -1 clamped
        return (_clamp(-1 if s is None else s, 0, n - 1) - o) % n

    out = [L["seats"] + _clamp(n - 1, 0, MAX_SEATS - 1),
           L["special"] + list(_native.LEGENDS_SPECIALS).index(spec["special"]),
           L["finals"] + _clamp(spec["finals"], 0, 3), L["start"] + _clamp(spec["start"], 0, 3),
           L["size_normal"] + _clamp(spec["sizes"][0], 0, 15)]
    if spec["free_relocation"]:
        out.append(L["free_reloc"])
    for r in range(n):
        out.append(L["hero"] + r * MAX_ATTR + spec["hero_attr"][(o + r) % n])
    hand = Counter(view.hand)
    for k in range(KINDS):
        out += [L["hand"] + k * COPIES + c for c in range(min(hand[k], COPIES))]
    for r in range(n):
        out.append(L["hand_size"] + r * HAND_CAP + _clamp(view.hand_sizes[(o + r) % n], 0, HAND_CAP - 1))
    known = view.known()
    out.append(L["draw"] + _clamp(len(known.draw) // 2, 0, PILE_CAP - 1))
    out.append(L["discard"] + _clamp(len(known.discard) // 2, 0, PILE_CAP - 1))
    out.append(L["aside"] + _clamp(view.aside, 0, 3))
    oracle = Counter(known.oracle)
    for k in range(KINDS):
        out += [L["oracle"] + k * ORACLE_COPIES + c for c in range(min(oracle[k], ORACLE_COPIES))]
    out.append(L["mdeck"] + _clamp(len(view.monster_deck_left), 0, MAX_MONSTERS))
    for i, (mid, _cards, req, size, final, defeated, played) in enumerate(view.monsters[:MAX_MONSTERS]):
        at = L["mon"] + i * MON_STRIDE
        out += [at, at + 1 + _clamp(mid, 0, MAX_MONSTERS - 1)]
        if defeated:
            out.append(at + 1 + MAX_MONSTERS)
        if final:
            out.append(at + 2 + MAX_MONSTERS)
        cnt = Counter(a for a, _, _ in played if a >= 0)
        deficit = at + 3 + MAX_MONSTERS
        for a in range(MAX_ATTR):
            short = max(0, (req[a] if a < len(req) else 0) - cnt[a])
            out += [deficit + a * DEFICIT_CAP + c for c in range(min(short, DEFICIT_CAP))]
        room = deficit + MAX_ATTR * DEFICIT_CAP
        out.append(room + _clamp(size - len(played), 0, ROOM_CAP - 1))
        out += [room + ROOM_CAP + r for r in range(n) if view.disc[(o + r) % n] == i]
    out += [L["broken"] + r for r in range(n) if view.broken[(o + r) % n]]
    disc = [-1 if d is None else d for d in view.disc]
    out += [L["no_disc"] + r for r in range(n) if disc[(o + r) % n] < 0]
    out.append(L["turn"] + _clamp(p["turn"] // 2, 0, TURN_CAP - 1))
    out.append(L["turn_seat"] + rel(p["turn_seat"]))
    pending = 7 if p["result"] is not None else list(_native.LEGENDS_PENDING).index(p["pending"])
    out.append(L["pending"] + pending)
    out.append(L["actor"] + rel(p["actor"]))
    out.append(L["placed"] + _clamp(p["placed"], 0, 3))
    out.append(L["giver"] + (0 if p["giver"] is None or p["giver"] < 0 else 1 + rel(p["giver"])))
    after = p["after_fight"]
    if p["forced"]:
        out.append(L["flags"])
    if after is not None:
        out.append(L["flags"] + 1)
        if after[1]:
            out.append(L["flags"] + 2)
    out.append(L["af_defeat"] + _clamp(0 if after is None else after[0], 0, 3))
    out.append(L["entered"] + _clamp(p["normals_entered"], 0, COUNT_CAP - 1))
    out.append(L["defeated"] + _clamp(p["normals_defeated"], 0, COUNT_CAP - 1))
    out.append(L["finals_defeated"] + _clamp(p["finals_defeated"], 0, 3))
    return out + history_features(view) if history else out
