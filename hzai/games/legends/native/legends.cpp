// The rules of Legends of Hellas over LgState, step for step as
// hzai/games/legends/rules.py (the L- rule IDs are cited there). legends.hpp.
#include "legends.hpp"

#include <algorithm>
#include <atomic>

namespace hzn::lg {

const char* const PENDING_TEXT[8] = {"place", "action", "recover_discard", "support_discard", "oracle_return",
                                    "forced_recover", "chance", nullptr};
const char* const RESULT_TEXT[3] = {nullptr, "won", "lost"};
const char* const REASON_TEXT[6] = {nullptr, "exhausted", "turn_limit", "forced_recover", "no_sixth_monster",
                                   "final_defeated"};
const char* const SPECIAL_TEXT[5] = {nullptr, "di_recover", "di_swap_draw", "di_swap_discard", "replace_until_6"};
const char* const TRIGGER_TEXT[5] = {"", "+", "C", "2C", "H"};
const char* const WEIGHT_TEXT[W_COUNT] = {"fill", "fit", "defeat", "slay", "wild_cost", "ability_cost", "ability_use_div",
                                          "move_fill", "move_use_div", "leave_stranded", "recover_missing",
                                          "recover_drawn", "order_div", "support_low", "support_low_hand",
                                          "support_per_card", "oracle", "use_short", "use_has", "use_di"};
const char* const EVENT_TEXT[9] = {"draw", "play", "discard", "give", "reveal", "back", "under_draw", "under_discard",
                                  "take_discard"};
const char* const BLOCK_TEXT[B_COUNT] = {"place", "fight", "wild", "slay", "ability", "move", "recover", "discard",
                                  "oracle_back", "support", "oracle", "chance"};

namespace {

void need(bool ok, const std::string& why) {
  if (!ok) throw std::invalid_argument(why);
}

int pow5(int k) {
  int v = 1;
  while (k-- > 0) v *= 5;
  return v;
}

}  // namespace

// ----- the static game ------------------------------------------------------------------
void LgGame::finish() {
  need(attrs >= 1 && attrs <= MAX_ATTR, "native Legends plays 1 to " + std::to_string(MAX_ATTR) + " attributes");
  kinds = attrs + 1;
  di = attrs;
  need(seats >= 1 && seats <= MAX_SEATS, "seats must be 1..5");
  need(first >= 0 && first < seats, "first player out of range");
  need((int)hero_attr.size() == seats, "one hero attribute per seat");
  for (int a : hero_attr) need(a >= 0 && a < attrs, "hero attribute out of range");
  need((int)deck.size() + aside <= MAX_CARDS, "native Legends holds at most " + std::to_string(MAX_CARDS) + " cards");
  need(aside >= 0, "aside must be >= 0");
  for (int k : deck) need(k >= 0 && k < kinds, "deck kind out of range");
  need(!monster_attrs.empty() && (int)monster_attrs.size() <= MAX_MONSTERS,
       "native Legends holds 1 to " + std::to_string(MAX_MONSTERS) + " monster cards");
  for (const auto& p : monster_attrs) need(p[0] >= 0 && p[0] < attrs && p[1] >= 0 && p[1] < attrs, "monster attribute out of range");
  for (int sz : {size_normal, size_chimera, size_hades})
    need(sz >= 1 && sz <= MAX_PLAYED, "monster sizes must be 1.." + std::to_string(MAX_PLAYED) + " natively");
  need(turn_limit >= 1, "turn limit must be >= 1");
  need(finals >= 1 && start >= 1 && start <= MAX_MONSTERS, "mission start / finals out of range");
  need(trigger.size() == trigger_n.size(), "triggers and their counts differ in length");
  for (size_t i = 0; i < trigger.size(); ++i) {
    need(trigger[i] >= T_NONE && trigger[i] <= T_HADES, "unknown trigger");
    need(trigger_n[i] >= 0 && trigger_n[i] <= MAX_MONSTERS, "a trigger brings at most 16 monsters");
  }
  // the codec
  need(seq_count > 0 && size > 0, "codec sizes missing");
  for (int b = 1; b < B_COUNT; ++b) need(base[b] > base[b - 1], "codec blocks must be in increasing order");
  need(base[B_CHANCE] < size, "codec size below the chance block");
  need(multisets.size() <= (size_t)MAX_MULTISETS, "too many multisets in the codec");
  multiset_of_counts.assign((size_t)pow5(kinds), -1);
  for (size_t id = 0; id < multisets.size(); ++id) {
    const auto& m = multisets[id];
    need(!m.empty() && (int)m.size() <= MAX_LIST, "a multiset of 1..4 kinds");
    int c[MAX_ATTR + 1] = {};
    for (int k : m) {
      need(k >= 0 && k < kinds, "multiset kind out of range");
      ++c[k];
    }
    int key = 0;
    for (int k = kinds - 1; k >= 0; --k) key = key * 5 + c[k];
    multiset_of_counts[(size_t)key] = (int)id;
  }
  // the most legal actions in one state, generously: the Oracle's returns (6 kinds x 5!
  // orders) dominate, then a full action turn.
  const int support = (seats - 1) * (int)multisets.size();
  const int action = 2 * attrs + 1 + kinds + MAX_MONSTERS * (kinds + 1) + RECOVER_TO + 1 + support + 1;
  max_legal = std::max({ORACLE_LOOK * 120 + 1, action, 70, 24});
}

int LgGame::multiset_id(const int* counts) const {
  int key = 0;
  for (int k = kinds - 1; k >= 0; --k) {
    if (counts[k] > 4) return -1;
    key = key * 5 + counts[k];
  }
  return multiset_of_counts.empty() ? -1 : multiset_of_counts[(size_t)key];
}

int LgGame::seq(const int* ks, int n) const {
  int v = 0;
  for (int i = 0; i < n; ++i) v = v * kinds + ks[i];
  return seq_base[n] + v;
}

int Monster::deficit() const {
  int d = 0;
  for (int a = 0; a < MAX_ATTR; ++a)
    if (req[a] > cnt[a]) d += req[a] - cnt[a];
  return d;
}

// ----- small steps ----------------------------------------------------------------------
// The event log (legends.hpp: LgEventCapture), as the core's: a counter of live
// captures read first, the thread-local only when one is alive.
static thread_local LgEventLog* tl_log = nullptr;
static std::atomic<int> live_captures{0};

LgEventCapture::LgEventCapture(LgEventLog* log) : previous_(tl_log) {
  live_captures.fetch_add(1, std::memory_order_relaxed);
  tl_log = log;
}
LgEventCapture::~LgEventCapture() {
  tl_log = previous_;
  live_captures.fetch_sub(1, std::memory_order_relaxed);
}

namespace {

inline LgEventLog* capturing() { return live_captures.load(std::memory_order_relaxed) ? tl_log : nullptr; }

// `insts[0..n)` are copied only while a capture is alive: the search allocates nothing.
void log_event(int type, int seat, const int* insts, int n, int inst = -1, int other = 0, int mon = 0, int face = 0) {
  if (LgEventLog* log = capturing()) {
    LgRawEvent e;
    e.type = type, e.seat = seat, e.other = other, e.mon = mon, e.face = face, e.inst = inst;
    e.insts.assign(insts, insts + n);
    log->push_back(std::move(e));
  }
}

bool playable(const Monster& m, int attr) {  // L-FIGHT-3
  if (m.req[attr] == 0) return false;
  return m.cnt[attr] < m.req[attr] || m.nplayed + 1 + m.deficit() <= m.size;
}

void hand_counts(const LgGame& g, const LgState& s, int seat, int* c) {
  for (int k = 0; k < g.kinds; ++k) c[k] = 0;
  for (int i = 0; i < s.hn[seat]; ++i) ++c[s.kind[s.hand[seat][i]]];
}

int take(LgState& s, int seat, int k) {  // the first card of kind k in the hand
  uint8_t* h = s.hand[seat];
  for (int i = 0; i < s.hn[seat]; ++i) {
    if (s.kind[h[i]] == k) {
      const int inst = h[i];
      std::copy(h + i + 1, h + s.hn[seat], h + i);
      --s.hn[seat];
      return inst;
    }
  }
  throw std::logic_error("native Legends: a seat holds no card of the kind taken");
}

void to_hand(LgState& s, int seat, int inst) {
  if (s.hn[seat] >= MAX_HAND) throw std::logic_error("native Legends: a hand over 16 cards");
  s.hand[seat][s.hn[seat]++] = (uint8_t)inst;
}

void to_discard(LgState& s, int seat, int inst, bool logged = true) {
  s.disc_inst[s.discn] = (uint8_t)inst;
  s.disc_by[s.discn++] = (uint8_t)seat;
  if (logged) log_event(E_DISCARD, seat, nullptr, 0, inst);
}

void draw_cards(LgState& s, int seat, int k) {
  int taken[MAX_CARDS];
  for (int i = 0; i < k; ++i) {
    taken[i] = s.draw[s.dn - 1];
    to_hand(s, seat, s.draw[--s.dn]);
  }
  log_event(E_DRAW, seat, taken, k);
}

void lose(LgState& s, Reason why) {
  s.result = R_LOST;
  s.reason = why;
  s.pending = P_NONE;
  s.actor = -1;
}

void start_turn(const LgGame&, LgState& s, int seat) {  // L-TURN-1, -2, L-END-2
  ++s.turn;
  s.turn_seat = seat;
  s.pending = P_ACTION;
  s.actor = seat;
  s.giver = -1;
  s.forced = false;
  if (s.hn[seat] == 0 && s.dn == 0) lose(s, W_EXHAUSTED);
}

void end_turn(const LgGame& g, LgState& s) {  // L-TURN-1, L-END-5
  if (s.turn >= g.turn_limit) {
    lose(s, W_TURN_LIMIT);
    return;
  }
  start_turn(g, s, (s.turn_seat + 1) % g.seats);
}

void triggers(const LgGame& g, LgState& s, int defeat, bool slay) {  // L-MISSION-1, -3, -7, -8
  const bool replace = g.special == S_REPLACE_UNTIL_6;
  if (replace && s.normals_entered < 6 && !slay) enter(g, s, 0);
  if (defeat < (int)g.trigger.size()) {
    switch (g.trigger[(size_t)defeat]) {
      case T_PLUS:
        for (int i = 0; i < g.trigger_n[(size_t)defeat]; ++i) enter(g, s, 0);
        break;
      case T_CHIMERA: enter(g, s, 1); break;
      case T_TWO_CHIMERAS: enter(g, s, 1); enter(g, s, 1); break;
      case T_HADES: enter(g, s, 2); break;
      default: break;
    }
  }
  if (replace && s.normals_entered < 6) {
    for (int i = 0; i < s.nmon; ++i)
      if (!s.mon[i].defeated) return;
    lose(s, W_NO_SIXTH);  // L-END-4
  }
}

void finish_fight(const LgGame& g, LgState& s) {  // L-TURN-4 (5)-(6)
  const int defeat = s.af_defeat;
  const bool slay = s.af_slay;
  s.af_set = s.af_slay = false;
  s.af_defeat = 0;
  s.forced = false;
  if (defeat) {
    triggers(g, s, defeat, slay);
    if (s.result != R_NONE) return;
  }
  end_turn(g, s);
}

int recovers(const LgState& s, int seat, int base, int* out) {  // L-RECOVER-1
  const int h = s.hn[seat];
  const int top = std::min(RECOVER_TO - h, s.dn);
  int n = 0;
  for (int k = 0; k <= top; ++k)
    if (h + k >= 1) out[n++] = base + k;
  return n;
}

// Every sub-multiset of `c` (counts per kind) of sizes lo..hi, as codec ids + offset.
int sub_multisets(const LgGame& g, const int* c, int lo, int hi, int offset, int* out) {
  int n = 0, cur[MAX_ATTR + 1] = {}, total = 0;
  // odometer over cur[k] in 0..c[k], `total` kept as it turns
  for (;;) {
    if (total >= lo && total <= hi && total >= 1 && total <= MAX_LIST) {
      const int id = g.multiset_id(cur);
      if (id >= 0) out[n++] = offset + id;
    }
    int k = 0;
    while (k < g.kinds && cur[k] == c[k]) total -= cur[k], cur[k++] = 0;
    if (k == g.kinds) break;
    ++cur[k];
    ++total;
  }
  return n;
}

int actions(const LgGame& g, const LgState& s, int seat, int* out) {  // L-TURN-3
  int n = 0, c[MAX_ATTR + 1];
  hand_counts(g, s, seat, c);
  const int d = s.disc[seat];
  const Monster* on = d >= 0 ? &s.mon[d] : nullptr;
  if (on && !on->defeated && s.hn[seat] > 0) {  // L-FIGHT-1
    for (int k = 0; k < g.attrs; ++k)
      if (c[k] && playable(*on, k)) out[n++] = g.base[B_FIGHT] + k;
    if (c[g.di]) {
      for (int a = 0; a < g.attrs; ++a)
        if (playable(*on, a)) out[n++] = g.base[B_WILD] + a;  // L-DI-1
      if (on->deficit() == 0) out[n++] = g.base[B_SLAY];    // L-DI-2
    }
    if (!s.broken[seat] && playable(*on, g.hero_attr[(size_t)seat]))  // L-ABIL-1, -2
      for (int k = 0; k < g.kinds; ++k)
        if (c[k]) out[n++] = g.base[B_ABILITY] + k;
  }
  const bool free = on && on->defeated && g.free_relocation;  // L-MOVE-1..3
  for (int i = 0; i < s.nmon; ++i) {
    const Monster& m = s.mon[i];
    if (m.defeated || i == d) continue;
    const int at = g.base[B_MOVE] + (m.id - 1) * (g.kinds + 1);
    if (free) out[n++] = at;
    else
      for (int k = 0; k < g.kinds; ++k)
        if (c[k]) out[n++] = at + 1 + k;
  }
  n += recovers(s, seat, g.base[B_RECOVER], out + n);
  if (g.seats > 1 && s.hn[seat] > 0) {  // L-SUPPORT-1, L-TURN-6: the same gifts for every receiver
    int subs[MAX_MULTISETS];
    const int m = sub_multisets(g, c, 1, s.hn[seat], 0, subs);
    std::sort(subs, subs + m);
    for (int other = 0; other < g.seats; ++other) {
      if (other == seat) continue;
      const int at = g.base[B_SUPPORT] + other * (int)g.multisets.size();
      for (int i = 0; i < m; ++i) out[n++] = at + subs[i];
    }
  }
  if (s.dn > 0) out[n++] = g.base[B_ORACLE];  // L-ORACLE-1
  return n;
}

int oracle_returns(const LgGame& g, const LgState& s, int* out) {  // L-ORACLE-2
  int n = 0;
  bool shown[MAX_ATTR + 1] = {};
  for (int i = 0; i < s.on; ++i) shown[s.kind[s.oracle[i]]] = true;
  for (int d = 0; d < g.kinds; ++d) {  // by kind, each kind's orders in increasing order: ids ascend
    if (!shown[d]) continue;
    int rest[ORACLE_LOOK], r = 0;
    bool skipped = false;
    for (int j = 0; j < s.on; ++j) {
      const int k = s.kind[s.oracle[j]];
      if (k == d && !skipped) skipped = true;
      else rest[r++] = k;
    }
    if (r == 0) {  // one card shown: a plain discard of it
      int c[MAX_ATTR + 1] = {};
      c[d] = 1;
      out[n++] = g.base[B_DISCARD] + g.multiset_id(c);
      continue;
    }
    std::sort(rest, rest + r);
    do {
      out[n++] = g.base[B_ORACLE_BACK] + d * g.seq_count + g.seq(rest, r);
    } while (std::next_permutation(rest, rest + r));
  }
  return n;
}

}  // namespace

// A sequence id (within its block) back to kinds; its length.
int unseq(const LgGame& g, int v, int* ks) {
  int len = 1;
  while (len < MAX_ORDER && g.seq_base[len + 1] <= v) ++len;
  v -= g.seq_base[len];
  for (int i = len - 1; i >= 0; --i) {
    ks[i] = v % g.kinds;
    v /= g.kinds;
  }
  return len;
}

namespace {

void fight(const LgGame& g, LgState& s, int seat, int block, int x) {  // L-FIGHT, L-DI, L-ABIL, L-TURN-4
  Monster& m = s.mon[s.disc[seat]];
  int inst, attr;
  uint8_t face = F_UP;
  if (block == B_FIGHT) inst = take(s, seat, x), attr = x;
  else if (block == B_WILD) inst = take(s, seat, g.di), attr = x;
  else if (block == B_SLAY) inst = take(s, seat, g.di), attr = -1, face = F_SIDEWAYS;
  else {
    inst = take(s, seat, x), attr = g.hero_attr[(size_t)seat], face = F_DOWN;
    s.broken[seat] = true;
  }
  if (m.nplayed >= MAX_PLAYED) throw std::logic_error("native Legends: too many cards on a monster");
  m.played[m.nplayed++] = Played{(uint8_t)inst, (int8_t)attr, face, (uint8_t)seat};
  if (attr >= 0) ++m.cnt[attr];
  log_event(E_PLAY, seat, nullptr, 0, inst, 0, s.disc[seat], face);
  const bool slay = block == B_SLAY;
  int defeat = 0;
  if (slay || m.nplayed == m.size) {
    m.defeated = true;
    if (m.final_) {
      if (++s.finals_defeated == g.finals) {  // L-END-1
        s.result = R_WON;
        s.reason = W_FINAL_DEFEATED;
        s.pending = P_NONE;
        s.actor = -1;
        return;
      }
    } else {
      defeat = ++s.normals_defeated;
    }
  }
  s.af_set = true;
  s.af_defeat = defeat;
  s.af_slay = slay;
  const bool di_use = (block == B_WILD || block == B_SLAY) && !m.final_;  // L-DI-4
  if (di_use && g.special == S_DI_RECOVER) {  // L-MISSION-4
    if (s.hn[seat] == 0 && s.dn == 0) {
      lose(s, W_FORCED_RECOVER);  // L-END-3
      return;
    }
    s.pending = P_FORCED_RECOVER;
    s.forced = true;
    return;
  }
  if (di_use && (g.special == S_DI_SWAP_DRAW || g.special == S_DI_SWAP_DISCARD) && s.hn[seat] > 0) {
    s.pending = P_CHANCE;  // L-MISSION-5, -6
    return;
  }
  finish_fight(g, s);
}

void chance(const LgGame& g, LgState& s, const int* order, int n) {  // L-MISSION-5, -6
  const int seat = s.actor;
  int block[MAX_HAND];
  for (int i = 0; i < n; ++i) block[i] = take(s, seat, order[i]);
  if (g.special == S_DI_SWAP_DRAW) {
    std::copy_backward(s.draw, s.draw + s.dn, s.draw + s.dn + n);
    for (int i = 0; i < n; ++i) s.draw[i] = (uint8_t)block[n - 1 - i];
    s.dn += n;
    log_event(E_UNDER_DRAW, seat, block, n);
    draw_cards(s, seat, n);
  } else {
    std::copy_backward(s.disc_inst, s.disc_inst + s.discn, s.disc_inst + s.discn + n);
    std::copy_backward(s.disc_by, s.disc_by + s.discn, s.disc_by + s.discn + n);
    for (int i = 0; i < n; ++i) s.disc_inst[i] = (uint8_t)block[n - 1 - i], s.disc_by[i] = (uint8_t)seat;
    s.discn += n;
    log_event(E_UNDER_DISCARD, seat, block, n);
    int taken[MAX_HAND];
    for (int i = 0; i < n; ++i) {
      to_hand(s, seat, s.disc_inst[--s.discn]);
      taken[i] = s.disc_inst[s.discn];
    }
    log_event(E_TAKE_DISCARD, seat, taken, n);
  }
  s.pending = P_ACTION;
  s.actor = seat;
  finish_fight(g, s);
}

void oracle_return(const LgGame& g, LgState& s, int seat, int d, const int* order, int r) {  // L-ORACLE-2, -3
  uint8_t shown[ORACLE_LOOK];
  int m = s.on;
  std::copy(s.oracle, s.oracle + m, shown);
  auto pick = [&](int k) {
    for (int i = 0; i < m; ++i)
      if (s.kind[shown[i]] == k) {
        const int inst = shown[i];
        std::copy(shown + i + 1, shown + m, shown + i);
        --m;
        return inst;
      }
    throw std::logic_error("native Legends: the Oracle showed no such card");
  };
  const int out = pick(d);
  int back[ORACLE_LOOK];
  for (int i = 0; i < r; ++i) back[i] = pick(order[i]);
  s.on = 0;
  to_discard(s, seat, out, false);
  for (int i = r - 1; i >= 0; --i) s.draw[s.dn++] = (uint8_t)back[i];
  log_event(E_BACK, seat, back, r, out);
  end_turn(g, s);
}

}  // namespace

void enter(const LgGame& g, LgState& s, int what) {  // L-SETUP-2, L-CHIM-1, -2, -5
  const int want = what == 0 ? 1 : what == 1 ? 2 : 3;
  if (s.nmon >= MAX_MONSTERS) throw std::logic_error("native Legends: too many monsters");
  Monster& m = s.mon[s.nmon];
  m = Monster{};
  const int take_n = std::min(want, s.mdn);
  for (int i = 0; i < take_n; ++i) {
    const int c = s.mdeck[i];
    m.cards[m.ncards++] = (uint8_t)c;
    ++m.req[g.monster_attrs[(size_t)c][0]];
    ++m.req[g.monster_attrs[(size_t)c][1]];
  }
  std::copy(s.mdeck + take_n, s.mdeck + s.mdn, s.mdeck);
  s.mdn -= take_n;
  m.id = (uint8_t)(s.nmon + 1);
  m.size = (uint8_t)(what == 0 ? g.size_normal : what == 1 ? g.size_chimera : g.size_hades);
  m.final_ = what != 0;
  ++s.nmon;
  if (what == 0) ++s.normals_entered;
}

int current_player(const LgGame&, const LgState& s) {
  if (s.result != R_NONE || s.pending == P_NONE) return search::TERMINAL;
  if (s.pending == P_CHANCE) return search::CHANCE;
  return s.actor;
}

int legal_actions(const LgGame& g, const LgState& s, int* out) {
  if (s.result != R_NONE || s.pending == P_NONE || s.pending == P_CHANCE) return 0;
  const int seat = s.actor;
  int n = 0, c[MAX_ATTR + 1];
  switch (s.pending) {
    case P_PLACE:  // L-SETUP-5
      for (int i = 0; i < s.nmon; ++i)
        if (!s.mon[i].defeated) out[n++] = g.base[B_PLACE] + s.mon[i].id - 1;
      break;
    case P_RECOVER_DISCARD:  // L-RECOVER-2
      hand_counts(g, s, seat, c);
      for (int k = 0; k < g.kinds; ++k)
        if (c[k]) {
          int one[MAX_ATTR + 1] = {};
          one[k] = 1;
          out[n++] = g.base[B_DISCARD] + g.multiset_id(one);
        }
      break;
    case P_SUPPORT_DISCARD: {  // L-SUPPORT-2
      hand_counts(g, s, seat, c);
      const int need_n = std::max(1, s.hn[seat] - HAND);
      n = sub_multisets(g, c, need_n, need_n, g.base[B_DISCARD], out);
      break;
    }
    case P_ORACLE_RETURN: n = oracle_returns(g, s, out); break;
    case P_FORCED_RECOVER: n = recovers(s, seat, g.base[B_RECOVER], out); break;  // L-MISSION-4
    default: n = actions(g, s, seat, out); break;  // block by block, each in increasing order
  }
  if (s.pending == P_SUPPORT_DISCARD || s.pending == P_RECOVER_DISCARD) std::sort(out, out + n);  // multisets: by name
  return n;
}

void apply(const LgGame& g, LgState& s, int a) {
  const int b = block_of(g, a);
  const int x = a - g.base[b];
  if (s.pending == P_CHANCE) {
    int ks[MAX_ORDER];
    const int n = unseq(g, x, ks);
    chance(g, s, ks, n);
    return;
  }
  const int seat = s.actor;
  switch (b) {
    case B_PLACE:  // L-SETUP-5, -6
      s.disc[seat] = (int8_t)x;
      if (++s.placed < g.seats) {
        s.actor = (g.first + s.placed) % g.seats;
        return;
      }
      s.turn = 0;
      s.turn_seat = g.first;
      start_turn(g, s, g.first);
      return;
    case B_FIGHT: case B_WILD: case B_SLAY: case B_ABILITY: fight(g, s, seat, b, x); return;
    case B_MOVE: {  // L-MOVE-1..3
      const int card = x % (g.kinds + 1);
      if (card) to_discard(s, seat, take(s, seat, card - 1));
      s.disc[seat] = (int8_t)(x / (g.kinds + 1));
      end_turn(g, s);
      return;
    }
    case B_RECOVER:  // L-RECOVER-1
      draw_cards(s, seat, x);
      s.pending = P_RECOVER_DISCARD;
      return;
    case B_SUPPORT: {  // L-SUPPORT-1
      const int per = (int)g.multisets.size();
      const int to = x / per;
      int given[MAX_HAND], n_given = 0;
      for (int k : g.multisets[(size_t)(x % per)]) {
        given[n_given] = take(s, seat, k);
        to_hand(s, to, given[n_given++]);
      }
      log_event(E_GIVE, seat, given, n_given, -1, to);
      s.pending = P_SUPPORT_DISCARD;
      s.actor = to;
      s.giver = seat;
      return;
    }
    case B_ORACLE: {  // L-ORACLE-1
      const int m = std::min(ORACLE_LOOK, s.dn);
      for (int i = 0; i < m; ++i) s.oracle[i] = s.draw[--s.dn];
      s.on = m;
      int shown[ORACLE_LOOK];
      std::copy(s.oracle, s.oracle + m, shown);
      log_event(E_REVEAL, seat, shown, m);
      s.pending = P_ORACLE_RETURN;
      return;
    }
    case B_ORACLE_BACK: {
      int ks[MAX_ORDER];
      const int r = unseq(g, x % g.seq_count, ks);
      oracle_return(g, s, seat, x / g.seq_count, ks, r);
      return;
    }
    case B_DISCARD: {
      const auto& ms = g.multisets[(size_t)x];
      if (s.pending == P_ORACLE_RETURN) {
        oracle_return(g, s, seat, ms[0], nullptr, 0);
      } else if (s.pending == P_RECOVER_DISCARD) {  // L-RECOVER-2
        to_discard(s, seat, take(s, seat, ms[0]));
        if (s.forced) {
          s.pending = P_ACTION;
          finish_fight(g, s);
        } else {
          end_turn(g, s);
        }
      } else {  // L-SUPPORT-2, -3
        for (int k : ms) to_discard(s, seat, take(s, seat, k));
        end_turn(g, s);
      }
      return;
    }
    default: throw std::logic_error("native Legends: an action of no block");
  }
}

int chance_outcomes(const LgGame& g, const LgState& s, int* ids, double* probs) {  // L-MISSION-5, -6
  if (s.pending != P_CHANCE || s.result != R_NONE) return 0;
  const int seat = s.actor, h = s.hn[seat];
  int ks[MAX_HAND];
  for (int i = 0; i < h; ++i) ks[i] = s.kind[s.hand[seat][i]];
  std::sort(ks, ks + h);
  int n = 0;
  do {
    ids[n++] = g.base[B_CHANCE] + g.seq(ks, h);
  } while (std::next_permutation(ks, ks + h));
  // every distinct order stands for the same number of the h! orders of the cards
  for (int i = 0; i < n; ++i) probs[i] = 1.0 / n;
  return n;
}

int sample_chance(const LgGame& g, const LgState& s, SplitMix64& rng) {
  const int seat = s.actor, h = s.hn[seat];
  int ks[MAX_HAND];
  for (int i = 0; i < h; ++i) ks[i] = s.kind[s.hand[seat][i]];
  rng.shuffle(ks, h);  // every order of the cards equally likely: distinct orders by their multiplicity
  return g.base[B_CHANCE] + g.seq(ks, h);
}

void random_step(const LgGame& g, LgState& s, SplitMix64& rng) {
  if (s.pending == P_CHANCE) {
    apply(g, s, sample_chance(g, s, rng));
    return;
  }
  static thread_local std::vector<int> buf;
  buf.resize((size_t)g.max_legal);
  const int n = legal_actions(g, s, buf.data());
  if (n <= 0) throw std::logic_error("no legal move in a running game");
  apply(g, s, buf[(size_t)rng.below((uint64_t)n)]);
}

void check_state(const LgGame& g, const LgState& s) {
  need(s.ncards >= 0 && s.ncards <= MAX_CARDS, "card count out of range");
  for (int i = 0; i < s.ncards; ++i) need(s.kind[i] < g.kinds, "card kind out of range");
  std::vector<int> seen((size_t)s.ncards, 0);
  auto mark = [&](int inst, const char* where) {
    need(inst >= 0 && inst < s.ncards, std::string(where) + ": card instance out of range");
    need(seen[(size_t)inst]++ == 0, std::string(where) + ": card instance in two places");
  };
  for (int p = 0; p < g.seats; ++p)
    for (int i = 0; i < s.hn[p]; ++i) mark(s.hand[p][i], "hands");
  for (int i = 0; i < s.dn; ++i) mark(s.draw[i], "draw");
  for (int i = 0; i < s.discn; ++i) mark(s.disc_inst[i], "discard");
  for (int i = 0; i < s.on; ++i) mark(s.oracle[i], "oracle");
  for (int i = 0; i < s.nmon; ++i)
    for (int j = 0; j < s.mon[i].nplayed; ++j) mark(s.mon[i].played[j].inst, "monsters");
  for (int p = 0; p < g.seats; ++p) need(s.disc[p] >= -1 && s.disc[p] < s.nmon, "disc out of range");
  need(s.pending >= P_PLACE && s.pending <= P_NONE, "pending out of range");
  if (s.result == R_NONE && s.pending != P_NONE) need(s.actor >= 0 && s.actor < g.seats, "actor out of range");
  if (s.pending == P_CHANCE && s.result == R_NONE)
    need(s.hn[s.actor] >= 1 && s.hn[s.actor] <= MAX_LIST, "a chance order of 1 to 4 cards");
  if (s.pending == P_ORACLE_RETURN && s.result == R_NONE) need(s.on >= 1, "an Oracle return with no card shown");
}

}  // namespace hzn::lg
