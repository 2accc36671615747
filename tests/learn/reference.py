"""A second writing of the Hera and Zeus feature encoding (hzai/games/hera_zeus/native/hz_learn.cpp), in
Python over the Python rules' State and View, for the differential tests: the numbers
the C++ search evaluates must be the numbers training reads, and both must follow the
rules engine's picture of the table."""

from __future__ import annotations

from hzai.games.hera_zeus.rules.state import FIGURE
from hzai.games.hera_zeus.native.tables import ACTION_BLOCKS, PENDING_KINDS, PHASES

COLUMNS, DEPTH, HAND_LIMIT, MAX_COPIES, DECK_CAP, AP_CAP, TURN_CAP = 3, 4, 12, 4, 32, 9, 40
SEATS = ("hera", "zeus")


def layout(n_names: int) -> dict:
    codes = 2 * n_names
    places = 2 * COLUMNS * DEPTH
    out = {"codes": codes, "field": 0}
    out["up"] = places * (codes + 2)
    out["hand"] = out["up"] + places
    out["hidden"] = out["hand"] + 2 * codes * MAX_COPIES
    out["pile"] = out["hidden"] + 2 * (HAND_LIMIT + 5)
    out["deck"] = out["pile"] + 2 * codes * MAX_COPIES
    out["glob"] = out["deck"] + 2 * DECK_CAP
    out["base"] = out["glob"] + 3 + 3 + 2 + AP_CAP + AP_CAP + TURN_CAP + 4
    out["hist_slot"] = out["base"]
    out["hist_act"] = out["hist_slot"] + COLUMNS * DEPTH * SLOT_FEATURES
    out["hist_count"] = out["hist_act"] + HISTORY_ACTS * len(ACTION_KINDS)
    out["size"] = out["hist_count"] + len(ACTION_KINDS) * 3
    return out


# ----- the history of a view (docs/learning.md, "History in the features") -------------
HISTORY_ACTS, AGE_BUCKETS, COVER_BUCKETS = 4, 6, 4
SLOT_FEATURES = 4 + AGE_BUCKETS + COVER_BUCKETS + 1
ACTION_KINDS = tuple(text for text, _ in ACTION_BLOCKS)


def _age_bucket(age):
    return 0 if age <= 0 else age if age <= 2 else 3 if age <= 4 else 4 if age <= 8 else 5


def history_features(n_names, history) -> list[int]:
    """The history features of a view's `history` (belief.view.history_of)."""
    if not history:
        return []
    L = layout(n_names)
    out = []
    for (c, r), (origin, age, covered, moved) in sorted(history["slots"].items()):
        at = L["hist_slot"] + (c * DEPTH + r) * SLOT_FEATURES
        out.append(at + origin)
        if origin == 3:
            continue
        out.append(at + 4 + _age_bucket(age))
        out.append(at + 4 + AGE_BUCKETS + min(covered, COVER_BUCKETS - 1))
        if moved:
            out.append(at + 4 + AGE_BUCKETS + COVER_BUCKETS)
    for k, act in enumerate(history["acts"][:HISTORY_ACTS]):
        out.append(L["hist_act"] + k * len(ACTION_KINDS) + ACTION_KINDS.index(act))
    for i, act in enumerate(ACTION_KINDS):
        n = history["counts"].get(act, 0)
        if n > 0:
            out.append(L["hist_count"] + i * 3 + (0 if n <= 1 else 1 if n <= 3 else 2))
    return out


def _clamp(x, lo, hi):
    return max(lo, min(hi, x))


def encode(n_names, field, up, hand, hidden, pile, deck, phase, to_move, turn_player, ap, ap_spent, turn, pending):
    """field[p][c][r]: a code, 'unknown', 'figure' or None; hand/pile[p]: {code: count}."""
    L = layout(n_names)
    tokens = L["codes"] + 2
    out = []
    for p in (0, 1):
        for c in range(COLUMNS):
            for r in range(DEPTH):
                t = field[p][c][r]
                if t is None:
                    continue
                t = L["codes"] if t == "unknown" else L["codes"] + 1 if t == "figure" else t
                out.append(L["field"] + ((p * COLUMNS + c) * DEPTH + r) * tokens + t)
    for p in (0, 1):
        for c in range(COLUMNS):
            for r in range(DEPTH):
                if field[p][c][r] is not None and up[p][c][r]:
                    out.append(L["up"] + (p * COLUMNS + c) * DEPTH + r)
    for p in (0, 1):
        for code in range(L["codes"]):
            for k in range(min(hand[p].get(code, 0), MAX_COPIES)):
                out.append(L["hand"] + (p * L["codes"] + code) * MAX_COPIES + k)
    for p in (0, 1):
        out.append(L["hidden"] + p * (HAND_LIMIT + 5) + _clamp(hidden[p], 0, HAND_LIMIT + 4))
    for p in (0, 1):
        for code in range(L["codes"]):
            for k in range(min(pile[p].get(code, 0), MAX_COPIES)):
                out.append(L["pile"] + (p * L["codes"] + code) * MAX_COPIES + k)
    for p in (0, 1):
        out.append(L["deck"] + p * DECK_CAP + _clamp(deck[p], 0, DECK_CAP - 1))
    at = L["glob"]
    for value, width in ((_clamp(phase, 0, 2), 3), (2 if to_move is None else to_move, 3), (turn_player, 2),
                         (_clamp(ap, 0, AP_CAP - 1), AP_CAP), (_clamp(ap_spent, 0, AP_CAP - 1), AP_CAP),
                         (_clamp(turn, 0, TURN_CAP - 1), TURN_CAP), (_clamp(pending + 1, 0, 3), 4)):
        out.append(at + value)
        at += width
    return out


def _count(codes):
    out = {}
    for code in codes:
        out[code] = out.get(code, 0) + 1
    return out


def state_features(game, state) -> list[int]:
    """The features of a full Python State, every card known."""
    names = list(game.search.native.names)
    n = len(names)

    def code(card_id):
        card = game.deck.cards[card_id]
        return names.index(card.type.name) * 2 + card.owner

    field = [[[None] * DEPTH for _ in range(COLUMNS)] for _ in (0, 1)]
    up = [[[False] * DEPTH for _ in range(COLUMNS)] for _ in (0, 1)]
    for p in (0, 1):
        for c, column in enumerate(state.columns[p]):
            for r, x in enumerate(column):
                field[p][c][r] = "figure" if x == FIGURE else code(x)
                up[p][c][r] = x == FIGURE or x in state.face_up
    hand = [_count(code(x) for x in state.hands[p]) for p in (0, 1)]
    pile = [_count(code(x) for x in state.discards[p]) for p in (0, 1)]
    deck = [len(state.decks[p]) for p in (0, 1)]
    pending = PENDING_KINDS.index(state.pending[0].kind) if state.pending else -1
    return encode(n, field, up, hand, [0, 0], pile, deck, PHASES.index(state.phase), state.to_move,
                  state.turn_player, state.ap, state.ap_spent, state.turn, pending)


def view_features(game, view) -> list[int]:
    """The features of a Python View (hzai.games.hera_zeus.belief), hidden cards unknown."""
    names = list(game.search.native.names)
    n = len(names)

    def code(card):
        name, owner = card
        return names.index(name) * 2 + owner

    field = [[[None] * DEPTH for _ in range(COLUMNS)] for _ in (0, 1)]
    up = [[[False] * DEPTH for _ in range(COLUMNS)] for _ in (0, 1)]
    for p in (0, 1):
        for c, column in enumerate(view.columns[p]):
            for r, slot in enumerate(column):
                field[p][c][r] = "figure" if slot.figure else code(slot.card) if slot.card is not None else "unknown"
                up[p][c][r] = slot.figure or (slot.card is not None and slot.face_up)
    hand = [_count(code(s.card) for s in view.hands[p] if s.card is not None) for p in (0, 1)]
    hidden = [sum(1 for s in view.hands[p] if s.card is None) for p in (0, 1)]
    pile = [_count(code(card) for card in view.discards[p]) for p in (0, 1)]
    public = view.public
    to_move = None if public["to_move"] is None else SEATS.index(public["to_move"])
    pending = PENDING_KINDS.index(view.pending[0]["decision"]) if view.pending else -1
    table = encode(n, field, up, hand, hidden, pile, list(view.deck_sizes), PHASES.index(public["phase"]), to_move,
                   SEATS.index(public["turn_player"]), public["ap_left"], public["ap_spent"], public["turn"], pending)
    return table + history_features(n, getattr(view, "history", None))
