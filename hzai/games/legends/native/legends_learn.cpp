// Legends of Hellas for the learned search: see legends_learn.hpp and docs/learning.md.
#include "legends_learn.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace hzn::lg {

namespace {

constexpr int COPIES = 4;        // copies of a kind counted (a thermometer of 4)
constexpr int HAND_CAP = 10;     // hand sizes 0..9 (more reads as 9)
constexpr int PILE_CAP = 32;     // pile sizes in pairs, 0..31
constexpr int ORACLE_COPIES = 3;
constexpr int DEFICIT_CAP = 4;
constexpr int ROOM_CAP = 8;
constexpr int TURN_CAP = 40;     // turns in pairs
constexpr int COUNT_CAP = 16;    // monsters entered / defeated
// the history's
constexpr int COUNT_BUCKETS = 3;  // a partner's actions of one kind: 1, 2-3, 4+
constexpr int PLAYED_COPIES = 2;  // face-up cards of one kind since its last hand gain (a thermometer of 2)
constexpr int RECEIVED_CAP = 4;   // cards given to it since its last action: 1, 2, 3, 4+
constexpr int KNOWN_COPIES = 3;   // cards of one kind the seat knows in its hand (a thermometer of 3)
constexpr int UNSEEN_CAP = 16;    // cards of one kind whose place the seat does not know: 0..15

int clamp(int x, int lo, int hi) { return std::max(lo, std::min(hi, x)); }

// What one seat knows of the table, from its view or from a state: the one picture the
// encoder reads.
struct Seen {
  int seat = 0, n = 1;
  int hand[LG_KINDS] = {};       // the seat's own cards by kind
  int hsize[MAX_SEATS] = {};     // every seat's hand size
  int draw = 0, discard = 0, aside = 0, mdeck = 0;
  int oracle[LG_KINDS] = {};     // the Oracle's open cards by kind
  struct Mon {
    int id = 0, size = 0, nplayed = 0;
    bool final_ = false, defeated = false;
    int req[MAX_ATTR] = {}, cnt[MAX_ATTR] = {};
  } mon[MAX_MONSTERS];
  int nmon = 0;
  int disc[MAX_SEATS] = {-1, -1, -1, -1, -1};
  bool broken[MAX_SEATS] = {};
  int turn = 0, turn_seat = 0, pending = P_NONE, actor = 0, placed = 0, giver = -1;
  bool forced = false, af_set = false, af_slay = false;
  int af_defeat = 0, entered = 0, defeated = 0, finals = 0;
};

Seen seen_of_state(const LgGame& g, const LgState& s, int seat) {
  Seen b;
  b.seat = seat;
  b.n = g.seats;
  for (int i = 0; i < s.hn[seat]; ++i) b.hand[s.kind[s.hand[seat][i]]] += 1;
  for (int p = 0; p < g.seats; ++p) b.hsize[p] = s.hn[p];
  b.draw = s.dn;
  b.discard = s.discn;
  b.aside = s.aside;
  b.mdeck = s.mdn;
  for (int i = 0; i < s.on; ++i) b.oracle[s.kind[s.oracle[i]]] += 1;
  b.nmon = s.nmon;
  for (int i = 0; i < s.nmon; ++i) {
    const Monster& m = s.mon[i];
    Seen::Mon& o = b.mon[i];
    o.id = m.id, o.size = m.size, o.nplayed = m.nplayed, o.final_ = m.final_, o.defeated = m.defeated;
    for (int a = 0; a < g.attrs; ++a) o.req[a] = m.req[a], o.cnt[a] = m.cnt[a];
  }
  for (int p = 0; p < g.seats; ++p) b.disc[p] = s.disc[p], b.broken[p] = s.broken[p];
  b.turn = s.turn, b.turn_seat = s.turn_seat;
  b.pending = s.result != R_NONE ? P_NONE : s.pending;
  b.actor = s.actor, b.placed = s.placed, b.giver = s.giver, b.forced = s.forced;
  b.af_set = s.af_set, b.af_slay = s.af_slay, b.af_defeat = s.af_defeat;
  b.entered = s.normals_entered, b.defeated = s.normals_defeated, b.finals = s.finals_defeated;
  return b;
}

// The seat's picture from its view: its hand, the hand and pile sizes and the Oracle's
// open cards followed through its log (the kinds it saw, counts for the rest).
Seen seen_of_view(const LgGame& g, const LgView& v) {
  Seen b;
  const int o = v.seat;
  b.seat = o;
  b.n = g.seats;
  for (int k : v.own_start) b.hand[k] += 1;
  for (int p = 0; p < g.seats && p < (int)v.start_hands.size(); ++p) b.hsize[p] = v.start_hands[(size_t)p];
  b.draw = v.start_pile;
  auto add = [&](const std::vector<int>& kinds, int sign) {
    for (int k : kinds)
      if (k >= 0 && k < LG_KINDS) b.hand[k] += sign;
  };
  for (const LgEvent& e : v.log) {
    switch (e.type) {
      case E_DRAW:
        b.hsize[e.seat] += e.n;
        b.draw -= e.n;
        if (e.seat == o) add(e.kinds, 1);
        break;
      case E_PLAY:
        b.hsize[e.seat] -= 1;
        if (e.seat == o && e.k >= 0) b.hand[e.k] -= 1;
        break;
      case E_DISCARD:
        b.hsize[e.seat] -= 1;
        b.discard += 1;
        if (e.seat == o && e.k >= 0) b.hand[e.k] -= 1;
        break;
      case E_GIVE:
        b.hsize[e.seat] -= e.n;
        b.hsize[e.other] += e.n;
        if (e.seat == o) add(e.kinds, -1);
        if (e.other == o) add(e.kinds, 1);
        break;
      case E_REVEAL:
        b.draw -= e.n;
        std::fill(b.oracle, b.oracle + LG_KINDS, 0);
        for (int k : e.kinds) b.oracle[k] += 1;
        break;
      case E_BACK:
        b.discard += 1;
        b.draw += (int)e.kinds.size();
        std::fill(b.oracle, b.oracle + LG_KINDS, 0);
        break;
      case E_UNDER_DRAW:
      case E_UNDER_DISCARD:  // the whole hand goes (L-MISSION-5, -6)
        b.hsize[e.seat] -= e.n;
        (e.type == E_UNDER_DRAW ? b.draw : b.discard) += e.n;
        if (e.seat == o) std::fill(b.hand, b.hand + LG_KINDS, 0);
        break;
      case E_TAKE_DISCARD:
        b.hsize[e.seat] += e.n;
        b.discard -= e.n;
        if (e.seat == o) add(e.kinds, 1);
        break;
      default: break;
    }
  }
  b.aside = v.aside;
  b.mdeck = (int)v.monster_deck_left.size();
  b.nmon = std::min((int)v.monsters.size(), MAX_MONSTERS);
  for (int i = 0; i < b.nmon; ++i) {
    const LgMonsterView& m = v.monsters[(size_t)i];
    Seen::Mon& x = b.mon[i];
    x.id = m.id, x.size = m.size, x.nplayed = (int)m.played.size(), x.final_ = m.final_, x.defeated = m.defeated;
    for (int a = 0; a < g.attrs && a < (int)m.req.size(); ++a) x.req[a] = m.req[(size_t)a];
    for (const auto& p : m.played)
      if (p[0] >= 0 && p[0] < MAX_ATTR) x.cnt[p[0]] += 1;
  }
  for (int p = 0; p < g.seats; ++p) {
    b.disc[p] = p < (int)v.disc.size() ? v.disc[(size_t)p] : -1;
    b.broken[p] = p < (int)v.broken.size() && v.broken[(size_t)p];
  }
  b.turn = v.turn, b.turn_seat = v.turn_seat, b.pending = v.pending, b.actor = v.actor, b.placed = v.placed;
  b.giver = v.giver, b.forced = v.forced, b.af_set = v.af_set, b.af_slay = v.af_slay, b.af_defeat = v.af_defeat;
  b.entered = v.normals_entered, b.defeated = v.normals_defeated, b.finals = v.finals_defeated;
  return b;
}

int encode(const LgGame& g, const Seen& b, int32_t* out) {
  const LgLayout& L = lg_layout();
  const int n = b.n;
  auto rel = [&](int p) { return ((p - b.seat) % n + n) % n; };
  int k = 0;
  out[k++] = L.seats + clamp(g.seats - 1, 0, MAX_SEATS - 1);
  out[k++] = L.special + clamp((int)g.special, 0, 4);
  out[k++] = L.finals + clamp(g.finals, 0, 3);
  out[k++] = L.start + clamp(g.start, 0, 3);
  out[k++] = L.size_normal + clamp(g.size_normal, 0, 15);
  if (g.free_relocation) out[k++] = L.free_reloc;
  for (int r = 0; r < n; ++r) {
    const int p = (b.seat + r) % n;
    const int a = p < (int)g.hero_attr.size() ? g.hero_attr[(size_t)p] : -1;
    if (a >= 0 && a < MAX_ATTR) out[k++] = L.hero + r * MAX_ATTR + a;
  }
  for (int kind = 0; kind < LG_KINDS; ++kind)
    for (int c = 0; c < std::min(b.hand[kind], COPIES); ++c) out[k++] = L.hand + kind * COPIES + c;
  for (int r = 0; r < n; ++r) out[k++] = L.hand_size + r * HAND_CAP + clamp(b.hsize[(b.seat + r) % n], 0, HAND_CAP - 1);
  out[k++] = L.draw + clamp(b.draw / 2, 0, PILE_CAP - 1);
  out[k++] = L.discard + clamp(b.discard / 2, 0, PILE_CAP - 1);
  out[k++] = L.aside + clamp(b.aside, 0, 3);
  for (int kind = 0; kind < LG_KINDS; ++kind)
    for (int c = 0; c < std::min(b.oracle[kind], ORACLE_COPIES); ++c) out[k++] = L.oracle + kind * ORACLE_COPIES + c;
  out[k++] = L.mdeck + clamp(b.mdeck, 0, MAX_MONSTERS);
  for (int i = 0; i < b.nmon; ++i) {
    const Seen::Mon& m = b.mon[i];
    const int at = L.mon + i * L.mon_stride;
    out[k++] = at;
    out[k++] = at + 1 + clamp(m.id, 0, MAX_MONSTERS - 1);
    if (m.defeated) out[k++] = at + 1 + MAX_MONSTERS;
    if (m.final_) out[k++] = at + 2 + MAX_MONSTERS;
    const int deficit = at + 3 + MAX_MONSTERS;
    for (int a = 0; a < MAX_ATTR; ++a)
      for (int c = 0; c < std::min(std::max(0, m.req[a] - m.cnt[a]), DEFICIT_CAP); ++c)
        out[k++] = deficit + a * DEFICIT_CAP + c;
    const int room = deficit + MAX_ATTR * DEFICIT_CAP;
    out[k++] = room + clamp(m.size - m.nplayed, 0, ROOM_CAP - 1);
    const int discs = room + ROOM_CAP;
    for (int r = 0; r < n; ++r)
      if (b.disc[(b.seat + r) % n] == i) out[k++] = discs + r;
  }
  for (int r = 0; r < n; ++r)
    if (b.broken[(b.seat + r) % n]) out[k++] = L.broken + r;
  for (int r = 0; r < n; ++r)
    if (b.disc[(b.seat + r) % n] < 0) out[k++] = L.no_disc + r;
  out[k++] = L.turn + clamp(b.turn / 2, 0, TURN_CAP - 1);
  out[k++] = L.turn_seat + rel(clamp(b.turn_seat, 0, n - 1));
  out[k++] = L.pending + clamp(b.pending, 0, 7);
  out[k++] = L.actor + rel(clamp(b.actor, 0, n - 1));
  out[k++] = L.placed + clamp(b.placed, 0, 3);
  out[k++] = L.giver + (b.giver < 0 ? 0 : 1 + rel(clamp(b.giver, 0, n - 1)));
  if (b.forced) out[k++] = L.flags;
  if (b.af_set) out[k++] = L.flags + 1;
  if (b.af_slay) out[k++] = L.flags + 2;
  out[k++] = L.af_defeat + clamp(b.af_defeat, 0, 3);
  out[k++] = L.entered + clamp(b.entered, 0, COUNT_CAP - 1);
  out[k++] = L.defeated + clamp(b.defeated, 0, COUNT_CAP - 1);
  out[k++] = L.finals_defeated + clamp(b.finals, 0, 3);
  return k;
}

// ----- the history (docs/learning.md, "Beliefs from partners' play") -------------------
// What the seat saw each partner do: its decisions (the view's history, as redacted for
// the seat), the cards it showed (the view's log) and what the seat's knowledge tracker
// (knowledge.Known) is sure it holds. Only the view: the same in every world drawn from it.

// The kind of a turn's action from its id as the seat saw it (-1: not an action).
int act_kind(const LgGame& g, int obs) {
  if (obs >= g.size) {
    const int moved = g.size + 1, given = moved + MAX_MONSTERS, dropped = given + MAX_SEATS * (MAX_LIST + 1);
    if (obs == g.size) return K_ABILITY;
    if (obs < given) return K_MOVE;
    if (obs < dropped) return K_SUPPORT;
    return -1;
  }
  switch (block_of(g, obs)) {
    case B_FIGHT: return K_FIGHT;
    case B_WILD: return K_WILD;
    case B_SLAY: return K_SLAY;
    case B_ABILITY: return K_ABILITY;
    case B_MOVE: return K_MOVE;
    case B_RECOVER: return K_RECOVER;
    case B_SUPPORT: return K_SUPPORT;
    case B_ORACLE: return K_ORACLE;
    default: return -1;
  }
}

// A Support's receiver and card count, from its id as the seat saw it.
void support_of(const LgGame& g, int obs, int* to, int* n) {
  const int given = g.size + 1 + MAX_MONSTERS;
  if (obs >= given) {
    *to = (obs - given) / (MAX_LIST + 1);
    *n = (obs - given) % (MAX_LIST + 1);
    return;
  }
  const int per = (int)g.multisets.size(), x = obs - g.base[B_SUPPORT];
  *to = x / per;
  *n = (int)g.multisets[(size_t)(x % per)].size();
}

// knowledge.Known's hands: what the seat is sure each hand holds, kind by kind, following
// known cards through the draw and discard piles (knowledge.py, step for step); and the
// cards of each kind it cannot place (`unseen`: the deck's, less those it knows in a hand,
// in either pile, on a monster or open at the Oracle).
void known_hands(const LgGame& g, const LgView& v, int hand[MAX_SEATS][LG_KINDS], int unseen[LG_KINDS]) {
  for (int p = 0; p < MAX_SEATS; ++p) std::fill(hand[p], hand[p] + LG_KINDS, 0);
  int played[LG_KINDS] = {}, oracle[LG_KINDS] = {};
  for (int k : v.own_start) hand[v.seat][k] += 1;
  std::vector<int> draw((size_t)std::max(0, v.start_pile), -1), discard;  // top last; -1 unknown
  auto pop = [](std::vector<int>& pile) {
    if (pile.empty()) return -1;
    const int k = pile.back();
    pile.pop_back();
    return k;
  };
  auto leave = [&](int seat, int k) {
    if (k < 0) std::fill(hand[seat], hand[seat] + LG_KINDS, 0);
    else if (hand[seat][k] > 0) hand[seat][k] -= 1;
  };
  for (const LgEvent& e : v.log) {
    switch (e.type) {
      case E_DRAW:
      case E_TAKE_DISCARD: {
        std::vector<int>& pile = e.type == E_DRAW ? draw : discard;
        for (int i = 0; i < e.n; ++i) {
          const int k = pop(pile);
          if (!e.shown && k >= 0) hand[e.seat][k] += 1;
        }
        if (e.shown)
          for (int k : e.kinds) hand[e.seat][k] += 1;
        break;
      }
      case E_PLAY:
        leave(e.seat, e.k);
        if (e.k >= 0) played[e.k] += 1;
        break;
      case E_DISCARD:
        leave(e.seat, e.k);
        discard.push_back(e.k);
        break;
      case E_GIVE:
        if (!e.shown) {
          std::fill(hand[e.seat], hand[e.seat] + LG_KINDS, 0);
        } else {
          for (int k : e.kinds) hand[e.seat][k] = std::max(0, hand[e.seat][k] - 1);
          for (int k : e.kinds) hand[e.other][k] += 1;
        }
        break;
      case E_REVEAL:
        draw.resize(draw.size() - std::min(draw.size(), e.kinds.size()));
        std::fill(oracle, oracle + LG_KINDS, 0);
        for (int k : e.kinds) oracle[k] += 1;
        break;
      case E_BACK:
        std::fill(oracle, oracle + LG_KINDS, 0);
        discard.push_back(e.k);
        for (size_t i = e.kinds.size(); i-- > 0;) draw.push_back(e.kinds[i]);
        break;
      case E_UNDER_DRAW:
      case E_UNDER_DISCARD: {
        std::fill(hand[e.seat], hand[e.seat] + LG_KINDS, 0);
        std::vector<int>& pile = e.type == E_UNDER_DRAW ? draw : discard;
        pile.insert(pile.begin(), (size_t)e.n, -1);
        break;
      }
      default: break;
    }
  }
  std::fill(unseen, unseen + LG_KINDS, 0);
  for (int k : g.deck) unseen[k] += 1;
  for (int p = 0; p < g.seats; ++p)
    for (int k = 0; k < LG_KINDS; ++k) unseen[k] -= hand[p][k];
  for (int k : draw)
    if (k >= 0) unseen[k] -= 1;
  for (int k : discard)
    if (k >= 0) unseen[k] -= 1;
  for (int k = 0; k < LG_KINDS; ++k) unseen[k] = std::max(0, unseen[k] - played[k] - oracle[k]);
}

int encode_history(const LgGame& g, const LgView& v, const int* hsize, int32_t* out) {
  if (v.history.empty() && v.log.empty()) return 0;  // a view seen without its past: no history
  const LgLayout& L = lg_layout();
  const int n = g.seats, o = v.seat;
  // Cards each seat played face up (or sideways) since its hand last gained a card.
  int played[MAX_SEATS][LG_KINDS] = {};
  for (const LgEvent& e : v.log) {
    switch (e.type) {
      case E_PLAY:
        if (e.face != F_DOWN && e.k >= 0 && e.k < LG_KINDS) played[e.seat][e.k] += 1;
        break;
      case E_DRAW:
      case E_TAKE_DISCARD:
        if (e.n > 0) std::fill(played[e.seat], played[e.seat] + LG_KINDS, 0);
        break;
      case E_GIVE:
        if (e.n > 0) std::fill(played[e.other], played[e.other] + LG_KINDS, 0);
        break;
      case E_UNDER_DRAW:
      case E_UNDER_DISCARD: std::fill(played[e.seat], played[e.seat] + LG_KINDS, 0); break;
      default: break;
    }
  }
  int known[MAX_SEATS][LG_KINDS], unseen[LG_KINDS];
  known_hands(g, v, known, unseen);
  int k = 0;
  for (int r = 1; r < n; ++r) {
    const int p = (o + r) % n, at = L.history + (r - 1) * L.hist_stride;
    int last[LG_HIST_LAST], nlast = 0, count[K_COUNT] = {}, received = 0, last_kind = -1;
    int sup_to = -1, sup_n = 0, back_out = -1, back_top = -1;
    for (const LgAct& h : v.history) {
      if (h.pending == P_ACTION) {
        const int kind = act_kind(g, h.obs);
        if (kind == K_SUPPORT) {
          int to = 0, cards = 0;
          support_of(g, h.obs, &to, &cards);
          if (h.seat == p) sup_to = to, sup_n = cards;
          if (to == p) received += cards;
        }
        if (h.seat == p && kind >= 0) {
          count[kind] += 1;
          for (int i = std::min(nlast, LG_HIST_LAST - 1); i > 0; --i) last[i] = last[i - 1];
          last[0] = kind;
          nlast = std::min(nlast + 1, LG_HIST_LAST);
          last_kind = kind;
          received = 0;
        }
      } else if (h.pending == P_ORACLE_RETURN && h.seat == p && h.obs < g.size) {
        const int b = block_of(g, h.obs);
        if (b == B_ORACLE_BACK) {
          const int x = h.obs - g.base[B_ORACLE_BACK];
          back_out = x / g.seq_count;
          int ks[MAX_ORDER];
          back_top = unseq(g, x % g.seq_count, ks) > 0 ? ks[0] : -1;
        } else if (b == B_DISCARD) {  // the Oracle showed one card: its discard, nothing put back
          const auto& m = g.multisets[(size_t)(h.obs - g.base[B_DISCARD])];
          back_out = m.empty() ? -1 : m[0];
          back_top = -1;
        }
      }
    }
    for (int i = 0; i < nlast; ++i) out[k++] = at + L.h_last + i * K_COUNT + last[i];
    for (int kind = 0; kind < K_COUNT; ++kind)
      if (count[kind]) out[k++] = at + L.h_count + kind * COUNT_BUCKETS + (count[kind] == 1 ? 0 : count[kind] <= 3 ? 1 : 2);
    for (int kind = 0; kind < LG_KINDS; ++kind)
      for (int c = 0; c < std::min(played[p][kind], PLAYED_COPIES); ++c) out[k++] = at + L.h_played + kind * PLAYED_COPIES + c;
    if (sup_to >= 0) {
      out[k++] = at + L.h_support_to + ((sup_to - o) % n + n) % n;
      out[k++] = at + L.h_support_n + clamp(sup_n - 1, 0, MAX_LIST - 1);
    }
    if (received > 0) out[k++] = at + L.h_received + std::min(received, RECEIVED_CAP) - 1;
    if (back_out >= 0) out[k++] = at + L.h_back_out + clamp(back_out, 0, LG_KINDS - 1);
    if (back_top >= 0) out[k++] = at + L.h_back_top + clamp(back_top, 0, LG_KINDS - 1);
    // Could have fought and did not: the monster at its disc (moved only by its own Move)
    // still needs these attributes now, so it needed them at its last action too.
    const int d = p < (int)v.disc.size() ? v.disc[(size_t)p] : -1;
    const bool declined = last_kind == K_RECOVER || last_kind == K_SUPPORT || last_kind == K_ORACLE;
    const bool fought = last_kind == K_FIGHT || last_kind == K_WILD || last_kind == K_SLAY || last_kind == K_ABILITY;
    if ((declined || fought) && d >= 0 && d < (int)v.monsters.size() && !v.monsters[(size_t)d].defeated) {
      const LgMonsterView& m = v.monsters[(size_t)d];
      int cnt[MAX_ATTR] = {};
      for (const auto& pl : m.played)
        if (pl[0] >= 0 && pl[0] < MAX_ATTR) cnt[pl[0]] += 1;
      for (int a = 0; a < g.attrs && a < (int)m.req.size() && a < MAX_ATTR; ++a)
        if (m.req[(size_t)a] > cnt[a]) out[k++] = at + (declined ? L.h_declined : L.h_fought) + a;
    }
    for (int kind = 0; kind < LG_KINDS; ++kind)
      for (int c = 0; c < std::min(known[p][kind], KNOWN_COPIES); ++c) out[k++] = at + L.h_known + kind * KNOWN_COPIES + c;
  }
  // What the sampler spreads: the cards of each kind the seat cannot place, their total,
  // and how many of each partner's cards it does not know.
  int total = 0;
  for (int kind = 0; kind < LG_KINDS; ++kind) {
    out[k++] = L.unseen + kind * UNSEEN_CAP + clamp(unseen[kind], 0, UNSEEN_CAP - 1);
    total += unseen[kind];
  }
  out[k++] = L.unseen_total + clamp(total / 2, 0, PILE_CAP - 1);
  for (int r = 1; r < n; ++r) {
    const int p = (o + r) % n;
    int sure = 0;
    for (int kind = 0; kind < LG_KINDS; ++kind) sure += known[p][kind];
    out[k++] = L.unknown_in_hand + (r - 1) * HAND_CAP + clamp(hsize[p] - sure, 0, HAND_CAP - 1);
  }
  return k;
}

// The features a net reads: the encoder's are ascending, so those below its input width.
int readable(const learn::Net& net, const int32_t* idx, int n) {
  while (n > 0 && idx[n - 1] >= net.n_in) --n;
  return n;
}

// A net reads the table's features or all of them, as its first layer says.
void adopt_reads(learn::Net& net, const char* which) {
  const LgLayout& L = lg_layout();
  if (net.trunk.empty()) throw std::invalid_argument(std::string("the ") + which + " net needs at least one trunk layer");
  const int reads = net.trunk[0].in;
  if (reads != L.table && reads != L.total)
    throw std::invalid_argument(std::string("the ") + which + " net reads " + std::to_string(reads) +
                                " features, Legends has " + std::to_string(L.total) + " (" + std::to_string(L.table) +
                                " without the history)");
  net.n_in = reads;
  net.check_reads(reads, which, "Legends");
}

}  // namespace

LgLayout::LgLayout() {
  int at = 0;
  auto block = [&](int size) {
    const int start = at;
    at += size;
    return start;
  };
  seats = block(MAX_SEATS);
  special = block(5);
  finals = block(4);
  start = block(4);
  size_normal = block(16);
  free_reloc = block(1);
  hero = block(MAX_SEATS * MAX_ATTR);
  hand = block(LG_KINDS * COPIES);
  hand_size = block(MAX_SEATS * HAND_CAP);
  draw = block(PILE_CAP);
  discard = block(PILE_CAP);
  aside = block(4);
  oracle = block(LG_KINDS * ORACLE_COPIES);
  mdeck = block(MAX_MONSTERS + 1);
  mon_stride = 3 + MAX_MONSTERS + MAX_ATTR * DEFICIT_CAP + ROOM_CAP + MAX_SEATS;
  mon = block(MAX_MONSTERS * mon_stride);
  broken = block(MAX_SEATS);
  no_disc = block(MAX_SEATS);
  turn = block(TURN_CAP);
  turn_seat = block(MAX_SEATS);
  pending = block(8);
  actor = block(MAX_SEATS);
  placed = block(4);
  giver = block(MAX_SEATS + 1);
  flags = block(3);
  af_defeat = block(4);
  entered = block(COUNT_CAP);
  defeated = block(COUNT_CAP);
  finals_defeated = block(4);
  table = at;
  // a partner's history block, then one such block per partner
  int in = 0;
  auto part = [&](int size) {
    const int start = in;
    in += size;
    return start;
  };
  h_last = part(LG_HIST_LAST * K_COUNT);
  h_count = part(K_COUNT * COUNT_BUCKETS);
  h_played = part(LG_KINDS * PLAYED_COPIES);
  h_support_to = part(MAX_SEATS);
  h_support_n = part(MAX_LIST);
  h_received = part(RECEIVED_CAP);
  h_back_out = part(LG_KINDS);
  h_back_top = part(LG_KINDS);
  h_declined = part(MAX_ATTR);
  h_fought = part(MAX_ATTR);
  h_known = part(LG_KINDS * KNOWN_COPIES);
  hist_stride = in;
  history = block((MAX_SEATS - 1) * hist_stride);
  unseen = block(LG_KINDS * UNSEEN_CAP);
  unseen_total = block(PILE_CAP);
  unknown_in_hand = block((MAX_SEATS - 1) * HAND_CAP);
  total = at;
}

const LgLayout& lg_layout() {
  static const LgLayout layout;
  return layout;
}

LgActionLayout::LgActionLayout() {
  int at = 0;
  auto block_ = [&](int size) {
    const int start = at;
    at += size;
    return start;
  };
  block = block_(B_COUNT);
  place = block_(MAX_MONSTERS);
  fight = block_(MAX_ATTR);
  wild = block_(MAX_ATTR);
  ability = block_(LG_KINDS);
  move_mon = block_(MAX_MONSTERS);
  move_card = block_(LG_KINDS + 1);
  recover = block_(6);
  discard_kind = block_(LG_KINDS * COPIES);
  discard_n = block_(MAX_LIST);
  back_out = block_(LG_KINDS);
  back_order = block_(MAX_ORDER * LG_KINDS);
  support_to = block_(MAX_SEATS);
  support_kind = block_(LG_KINDS * COPIES);
  support_n = block_(MAX_LIST);
  total = at;
}

const LgActionLayout& lg_action_layout() {
  static const LgActionLayout layout;
  return layout;
}

int lg_view_features(const LgGame& g, const LgView& v, int32_t* out) {
  if (v.world) {  // the all-seeing team's view: the state itself, seen by the seat to act
    return lg_state_features(g, *v.world, lg_value_seat(g, *v.world), out);
  }
  if (v.seat < 0 || v.seat >= g.seats) throw std::invalid_argument("the view's seat is not one of the game's");
  const Seen b = seen_of_view(g, v);
  const int k = encode(g, b, out);
  return k + encode_history(g, v, b.hsize, out + k);
}

int lg_history_features(const LgGame& g, const LgView& v, int32_t* out) {
  if (v.world) return 0;
  if (v.seat < 0 || v.seat >= g.seats) throw std::invalid_argument("the view's seat is not one of the game's");
  return encode_history(g, v, seen_of_view(g, v).hsize, out);
}

int lg_state_features(const LgGame& g, const LgState& s, int seat, int32_t* out) {
  if (seat < 0 || seat >= g.seats) throw std::invalid_argument("seat is not one of the game's");
  return encode(g, seen_of_state(g, s, seat), out);
}

int lg_value_seat(const LgGame& g, const LgState& s) {
  const int p = current_player(g, s);
  if (p >= 0) return p;
  return clamp(s.actor, 0, g.seats - 1);
}

int lg_action_features(const LgGame& g, int seat, int a, int32_t* out) {
  const LgActionLayout& L = lg_action_layout();
  const int b = block_of(g, a), x = a - g.base[b];
  int k = 0;
  out[k++] = L.block + b;
  auto multiset = [&](int id, int kinds_at, int n_at) {
    int counts[LG_KINDS] = {};
    const auto& m = g.multisets[(size_t)id];
    for (int kind : m) counts[clamp(kind, 0, LG_KINDS - 1)] += 1;
    for (int kind = 0; kind < LG_KINDS; ++kind)
      for (int c = 0; c < std::min(counts[kind], COPIES); ++c) out[k++] = kinds_at + kind * COPIES + c;
    out[k++] = n_at + clamp((int)m.size() - 1, 0, MAX_LIST - 1);
  };
  switch (b) {
    case B_PLACE: out[k++] = L.place + clamp(x, 0, MAX_MONSTERS - 1); break;
    case B_FIGHT: out[k++] = L.fight + clamp(x, 0, MAX_ATTR - 1); break;
    case B_WILD: out[k++] = L.wild + clamp(x, 0, MAX_ATTR - 1); break;
    case B_ABILITY: out[k++] = L.ability + clamp(x, 0, LG_KINDS - 1); break;
    case B_MOVE:
      out[k++] = L.move_mon + clamp(x / (g.kinds + 1), 0, MAX_MONSTERS - 1);
      out[k++] = L.move_card + clamp(x % (g.kinds + 1), 0, LG_KINDS);
      break;
    case B_RECOVER: out[k++] = L.recover + clamp(x, 0, 5); break;
    case B_DISCARD: multiset(x, L.discard_kind, L.discard_n); break;
    case B_ORACLE_BACK: {
      out[k++] = L.back_out + clamp(x / g.seq_count, 0, LG_KINDS - 1);
      int ks[MAX_ORDER];
      const int len = unseq(g, x % g.seq_count, ks);
      for (int i = 0; i < len; ++i) out[k++] = L.back_order + i * LG_KINDS + clamp(ks[i], 0, LG_KINDS - 1);
      break;
    }
    case B_SUPPORT: {
      const int per = (int)g.multisets.size(), to = x / per;
      out[k++] = L.support_to + ((to - seat) % g.seats + g.seats) % g.seats;
      multiset(x % per, L.support_kind, L.support_n);
      break;
    }
    default: break;  // slay, oracle, chance: the block says it all
  }
  return k;
}

void LgModel::check() {
  const int actions = lg_action_layout().total;
  if (has_value) {
    adopt_reads(value, "value");
    if (value.heads.size() != 1 || value.head_size(0) != 1)
      throw std::invalid_argument("the value net needs one head of one output");
  }
  if (has_policy) {
    adopt_reads(policy, "policy");
    if (policy.heads.size() != 1 || policy.head_size(0) != actions)
      throw std::invalid_argument("the policy net needs one head of " + std::to_string(actions) +
                                  " outputs (one per action feature)");
  }
  if (has_cards_net) {
    adopt_reads(cards, "card");
    const int outputs = LG_CARD_LABELS * LG_CARD_CLASSES;
    if (cards.heads.size() != 1 || cards.head_size(0) != outputs)
      throw std::invalid_argument("the card net needs one head of " + std::to_string(outputs) + " outputs (" +
                                  std::to_string(LG_CARD_CLASSES) + " classes for each of " +
                                  std::to_string(LG_CARD_LABELS) + " partner-kind labels)");
  }
}

// ----- the nets' evaluation (docs/learning.md, "Search over the blueprint") ----------
// The blueprint is evaluated at every partner's move inside a tree with partners=1, the
// value net at every leaf, so they are written for speed here, giving the very floats
// learn::Net gives (tests/learn/test_legends_partners.py and
// benchmarks/legends_partners_cost.py check that the searches decide the same):
// - the trunk sums each output's terms in learn::Net::trunk_of's order, only 32 outputs
//   at a time (vectors of 8 floats held in registers across the inputs): an output's sum
//   is the same sequence of float additions, so the same float;
// - the head is evaluated at the outputs the legal actions' features name, each once,
//   instead of at all of them;
// - a single legal action has probability 1 without the nets (as the softmax makes it).
// A cache of a tree's pictures (a partner's picture seen again in another world of the
// decision) was measured slower than evaluating them afresh, and left out.
namespace {

typedef float F8 __attribute__((vector_size(32)));
constexpr int BLOCK = 32;  // outputs a pass keeps in registers: 4 vectors of 8

// Where the compiler can, a second copy of affine_in_order for processors with AVX2 (8
// floats an instruction, chosen when the module loads); the same multiplications and
// additions (no fused multiply-add), so the same floats.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define LG_WIDE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define LG_WIDE_CLONES
#endif

// out[o] = bias[o] + the sum, in order, of rows[r][o] scaled by x[r] (x null: 1; a zero
// x skipped), for o in [0, n_out); rows[r] = w + at[r] * n_out.
LG_WIDE_CLONES void affine_in_order(const float* bias, const float* w, int n_out, const int32_t* at, const float* x,
                                    int n_rows, float* out) {
  int o = 0;
  for (; o + BLOCK <= n_out; o += BLOCK) {
    F8 a0, a1, a2, a3, t0, t1, t2, t3;
    std::memcpy(&a0, bias + o, sizeof a0), std::memcpy(&a1, bias + o + 8, sizeof a1);
    std::memcpy(&a2, bias + o + 16, sizeof a2), std::memcpy(&a3, bias + o + 24, sizeof a3);
    for (int r = 0; r < n_rows; ++r) {
      const float* row = w + (size_t)at[r] * n_out + o;
      const float xr = x ? x[r] : 1.0f;
      if (xr == 0.0f) continue;
      std::memcpy(&t0, row, sizeof t0), std::memcpy(&t1, row + 8, sizeof t1);
      std::memcpy(&t2, row + 16, sizeof t2), std::memcpy(&t3, row + 24, sizeof t3);
      if (x) {
        a0 += xr * t0, a1 += xr * t1, a2 += xr * t2, a3 += xr * t3;
      } else {
        a0 += t0, a1 += t1, a2 += t2, a3 += t3;
      }
    }
    std::memcpy(out + o, &a0, sizeof a0), std::memcpy(out + o + 8, &a1, sizeof a1);
    std::memcpy(out + o + 16, &a2, sizeof a2), std::memcpy(out + o + 24, &a3, sizeof a3);
  }
  for (; o < n_out; ++o) {  // the outputs past the last whole block, one at a time
    float a = bias[o];
    for (int r = 0; r < n_rows; ++r) {
      if (x && x[r] == 0.0f) continue;
      const float term = w[(size_t)at[r] * n_out + o];
      a += x ? x[r] * term : term;
    }
    out[o] = a;
  }
}

// learn::Net::trunk_of's h, the same floats.
void trunk_in_order(const learn::Net& net, const int32_t* idx, int n, float* h) {
  float a[learn::MAX_WIDTH], z[learn::MAX_WIDTH];
  int32_t rows[learn::MAX_WIDTH];
  const learn::Layer& first = net.trunk[0];
  affine_in_order(first.b.data(), first.w.data(), first.out, idx, nullptr, n, a);
  int width = first.out;
  for (int o = 0; o < width; ++o) a[o] = a[o] > 0.0f ? a[o] : 0.0f;
  for (size_t li = 1; li < net.trunk.size(); ++li) {
    const learn::Layer& l = net.trunk[li];
    for (int i = 0; i < l.in; ++i) rows[i] = i;
    affine_in_order(l.b.data(), l.w.data(), l.out, rows, a, l.in, z);
    width = l.out;
    for (int o = 0; o < width; ++o) a[o] = z[o] > 0.0f ? z[o] : 0.0f;
  }
  std::copy(a, a + width, h);
}

}  // namespace

void lg_model_values(const LgGame& g, const LgModel& m, const LgState& s, double* out) {
  int32_t idx[LG_MAX_FEATURES];
  float h[learn::MAX_WIDTH];
  const int n = lg_state_features(g, s, lg_value_seat(g, s), idx);  // all below the table's count
  trunk_in_order(m.value, idx, n, h);  // learn::Net::trunk_of's floats
  const double p = learn::sigmoid(m.value.head_at(0, h, 0));
  for (int i = 0; i < g.seats; ++i) out[i] = p;
}

namespace {

// The probabilities of the legal actions from the trunk's `h`: each action's logit sums
// the head's outputs at its features, in its features' order; each output is evaluated
// once, and only the outputs some legal action has.
void policy_from_trunk(const LgGame& g, const LgModel& m, const float* h, int seat, const int* legal, int n,
                       double* out) {
  const int total = lg_action_layout().total;
  if (total > LG_MAX_ACTION_OUTPUTS) throw std::logic_error("more action features than LG_MAX_ACTION_OUTPUTS");
  double z[LG_MAX_ACTION_OUTPUTS];
  bool have[LG_MAX_ACTION_OUTPUTS] = {};
  int32_t feats[LG_MAX_ACTION_FEATURES];
  for (int i = 0; i < n; ++i) {
    const int c = lg_action_features(g, seat, legal[i], feats);
    double logit = 0.0;
    for (int j = 0; j < c; ++j) {
      const int f = feats[j];
      if (!have[f]) z[f] = m.policy.head_at(0, h, f), have[f] = true;
      logit += z[f];
    }
    out[i] = logit;
  }
  learn::softmax(out, n);
}

}  // namespace

void lg_model_policy_of(const LgGame& g, const LgModel& m, const int32_t* idx, int k, int seat, const int* legal, int n,
                        double* out) {
  if (n == 1) {  // what the softmax of one logit is, exactly, without the nets
    out[0] = 1.0;
    return;
  }
  float h[learn::MAX_WIDTH];
  trunk_in_order(m.policy, idx, readable(m.policy, idx, k), h);
  policy_from_trunk(g, m, h, seat, legal, n, out);
}

void lg_model_policy(const LgGame& g, const LgModel& m, const LgView& v, const int* legal, int n, double* out) {
  int32_t idx[LG_MAX_FEATURES];
  const int k = lg_view_features(g, v, idx);
  const int seat = v.world ? lg_value_seat(g, *v.world) : v.seat;
  lg_model_policy_of(g, m, idx, k, seat, legal, n, out);
}

// ----- the card-location model ------------------------------------------------------
void lg_hidden_labels(const LgGame& g, const LgState& s, int seat, int32_t* out) {
  std::fill(out, out + LG_CARD_LABELS, -1);
  for (int r = 1; r < g.seats; ++r) {
    const int p = (seat + r) % g.seats;
    int32_t* row = out + (r - 1) * LG_KINDS;
    for (int k = 0; k < g.kinds; ++k) row[k] = 0;
    for (int i = 0; i < s.hn[p]; ++i) {
      const int k = s.kind[s.hand[p][i]];
      if (k >= 0 && k < g.kinds) row[k] = std::min(row[k] + 1, LG_CARD_CLASSES - 1);
    }
  }
}

void lg_card_log_probs(const LgGame& g, const LgModel& m, const LgView& v, double* out) {
  if (!m.has_cards()) throw std::invalid_argument("the model has no card net");
  int32_t idx[LG_MAX_FEATURES];
  float h[learn::MAX_WIDTH];
  const int n = readable(m.cards, idx, lg_view_features(g, v, idx));
  m.cards.trunk_of(idx, n, h);
  for (int l = 0; l < LG_CARD_LABELS; ++l) {
    double* z = out + l * LG_CARD_CLASSES;
    double top = -1e300;
    for (int c = 0; c < LG_CARD_CLASSES; ++c)
      top = std::max(top, z[c] = m.cards.head_at(0, h, l * LG_CARD_CLASSES + c));
    double sum = 0.0;
    for (int c = 0; c < LG_CARD_CLASSES; ++c) sum += std::exp(z[c] - top);
    const double log_sum = top + std::log(sum);
    for (int c = 0; c < LG_CARD_CLASSES; ++c) z[c] -= log_sum;
  }
}

// The worlds: `pool` draws of the uniform sampler, each weighted by the card net's
// probability of its partners' hands divided by the pool's own frequency of them (so a
// net that knows only what the sampler knows leaves the weights even, and only what it
// learned beyond that moves them), to the power `temper` (the sum of the labels' log
// ratios is noisy: at 1 it keeps about half the pool's worlds), then resampled
// systematically to `pool` worlds.
LgView lg_card_view(const LgGame& g, const LgModel& m, const LgView& v, int pool, uint64_t seed,
                    std::vector<uint64_t>* seeds, double temper) {
  if (temper < 0.0) temper = m.card_temper;
  if (!m.has_cards() || pool <= 0 || v.world || v.worlds || g.seats < 2) return v;
  std::vector<double> lq((size_t)LG_CARD_LABELS * LG_CARD_CLASSES);
  lg_card_log_probs(g, m, v, lq.data());
  SplitMix64 rng(seed);
  std::vector<LgState> drawn;
  std::vector<uint64_t> drawn_seeds;
  drawn.reserve((size_t)pool);
  std::vector<int32_t> classes((size_t)pool * LG_CARD_LABELS);
  std::vector<double> freq((size_t)LG_CARD_LABELS * LG_CARD_CLASSES, 0.0);
  for (int i = 0; i < pool; ++i) {
    drawn_seeds.push_back(rng.next_u64());
    drawn.push_back(sample(g, v, drawn_seeds.back()));
    int32_t* c = classes.data() + (size_t)i * LG_CARD_LABELS;
    lg_hidden_labels(g, drawn.back(), v.seat, c);
    for (int l = 0; l < LG_CARD_LABELS; ++l)
      if (c[l] >= 0) freq[(size_t)(l * LG_CARD_CLASSES + c[l])] += 1.0;
  }
  // Each label-class's log ratio, once: the net's log-probability over the pool's own.
  const double smooth = 0.5, total = pool + smooth * LG_CARD_CLASSES;
  for (size_t at = 0; at < lq.size(); ++at) lq[at] -= std::log((freq[at] + smooth) / total);
  std::vector<double> w((size_t)pool);
  double top = -1e300;
  for (int i = 0; i < pool; ++i) {
    const int32_t* c = classes.data() + (size_t)i * LG_CARD_LABELS;
    double lw = 0.0;
    for (int l = 0; l < LG_CARD_LABELS; ++l)
      if (c[l] >= 0) lw += lq[(size_t)(l * LG_CARD_CLASSES + c[l])];
    w[(size_t)i] = temper * lw;
    top = std::max(top, w[(size_t)i]);  // the tempered maximum: every exp below is at most 1
  }
  double sum = 0.0;
  for (double& x : w) sum += (x = std::exp(x - top));
  auto worlds = std::make_shared<std::vector<LgState>>();
  worlds->reserve((size_t)pool);
  const double step = sum / pool;
  double at = rng.unit() * step, acc = 0.0;
  for (int i = 0; i < pool; ++i) {
    acc += w[(size_t)i];
    while (at < acc && (int)worlds->size() < pool) {
      worlds->push_back(drawn[(size_t)i]);
      if (seeds) seeds->push_back(drawn_seeds[(size_t)i]);
      at += step;
    }
  }
  while ((int)worlds->size() < pool) {  // rounding at the end
    worlds->push_back(drawn.back());
    if (seeds) seeds->push_back(drawn_seeds.back());
  }
  LgView out = v;
  out.worlds = std::move(worlds);
  return out;
}

// ----- the game trait's learned members (legends.hpp, search/trait.hpp) ---------------
void Legends::model_values(const Game& g, const Model& m, const State& s, double* out) { lg_model_values(g, m, s, out); }
void Legends::model_policy(const Game& g, const Model& m, const View& v, const int* legal, int n, double* out) {
  lg_model_policy(g, m, v, legal, n, out);
}
void Legends::model_state_policy(const Game& g, const Model& m, const State& s, int seat, const int* legal, int n,
                                 double* out) {
  int32_t idx[LG_MAX_FEATURES];
  const int k = lg_state_features(g, s, seat, idx);  // the seat's own picture: equal to its view's
  lg_model_policy_of(g, m, idx, k, seat, legal, n, out);
}
LgView Legends::model_view(const Game& g, const Model& m, const View& v, int pool, uint64_t seed) {
  return lg_card_view(g, m, v, pool, seed);
}
int Legends::feature_count(const Game&) { return lg_layout().total; }
int Legends::view_features(const Game& g, const View& v, int32_t* out) { return lg_view_features(g, v, out); }
int Legends::state_features(const Game& g, const State& s, int32_t* out) {
  return lg_state_features(g, s, lg_value_seat(g, s), out);
}
int Legends::label_count(const Game&) { return LG_CARD_LABELS; }
void Legends::hidden_labels(const Game& g, const State& s, const View&, int seat, int32_t* out) {
  lg_hidden_labels(g, s, seat, out);
}

}  // namespace hzn::lg
