// The rules of hzai/games/hera_zeus/rules/legal.py and effects.py over the compact State. Each piece
// names the rule it carries out; where the rules leave a choice open, the reference
// engine's choice is taken (docs/engine-decisions.md) so that both agree to the instance.
#include "core.hpp"

#include <atomic>
#include <numeric>

namespace hzn {

static const char* const PLAYER_NAMES[2] = {"hera", "zeus"};

// ----- the game definition -----------------------------------------------------------
GameDef::GameDef(const std::vector<CardSpec>& specs, int first_player_, bool fig_pegasus, bool pythia_loses,
                 int limit)
    : first_player(first_player_), figure_removal_pegasus(fig_pegasus), pythia_always_loses(pythia_loses),
      turn_limit(limit) {
  n_cards = (int)specs.size();
  if (n_cards == 0 || n_cards % 2 != 0) throw std::invalid_argument("a deck needs the same number of cards per side");
  per_side = n_cards / 2;
  if (n_cards > MAX_CARDS) throw std::invalid_argument("the native core holds at most 128 card instances");
  if (first_player < 0 || first_player > 1) throw std::invalid_argument("first_player must be 0 or 1");
  if (turn_limit < 1) throw std::invalid_argument("turn_limit must be positive");
  cards.resize(n_cards);
  for (int id = 0; id < n_cards; ++id) {
    const CardSpec& c = specs[id];
    if (c.owner != (id < per_side ? 0 : 1)) throw std::invalid_argument("cards must be Hera's then Zeus's");
    if (c.kind < 0 || c.kind >= K_COUNT || c.power < -1 || c.power >= P_COUNT || c.strength < -1 || c.strength > 7)
      throw std::invalid_argument("card field out of range");
    int name = -1;
    for (int k = 0; k < (int)names.size(); ++k)
      if (names[k] == c.name) name = k;
    if (name < 0) {
      name = (int)names.size();
      names.push_back(c.name);
    }
    CardInfo& info = cards[id];
    info.name = (int16_t)name;
    info.owner = (int8_t)c.owner;
    info.kind = (int8_t)c.kind;
    info.strength = (int8_t)c.strength;
    info.power = (int8_t)c.power;
    info.slays_medusa = c.slays_medusa;
    info.falls_to_pythia = c.falls_to_pythia;
    info.placeable = c.strength >= 0 || c.kind == K_HOSTAGE;
    info.can_challenge = info.placeable && c.kind != K_HOSTAGE && c.power != P_MEDUSA && c.power != P_PANDORA;
  }
  n_names = (int)names.size();
  n_refs = 3 * n_names;
  for (int p = 0; p < 2; ++p) {
    int hostages = 0, gods = 0;
    for (int id = p * per_side; id < (p + 1) * per_side; ++id) {
      if (cards[id].kind == K_HOSTAGE) { hostage[p] = id; ++hostages; }
      if (cards[id].kind == K_GOD) { god[p] = id; ++gods; }
    }
    if (hostages != 1 || gods != 1) throw std::invalid_argument("each side needs exactly one hostage and one god card");
  }
  name_mask.assign(n_names, Bits());
  for (int id = 0; id < n_cards; ++id) {
    const CardInfo& c = cards[id];
    name_mask[c.name].set(id);
    owner_mask[c.owner].set(id);
    if (c.placeable) placeable_mask.set(id);
    if (c.kind == K_GOD) god_mask.set(id);
    if (c.power >= 0) power_mask[c.power].set(id);
  }
  // R-PAN-2 default order: strength high to low (none weakest), name A→Z (lower case),
  // holder's own below the other owner's, then id. The holder term is added per pile.
  std::vector<std::string> lower(n_names);
  for (int id = 0; id < n_cards; ++id) lower[cards[id].name] = specs[id].name_lower;
  std::vector<int> order(n_names);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return lower[a] < lower[b]; });
  std::vector<int> lower_rank(n_names);
  for (int i = 0; i < n_names; ++i) {
    int r = i;
    while (r > 0 && lower[order[r - 1]] == lower[order[i]]) --r;  // equal lower names share a rank
    lower_rank[order[i]] = r;
  }
  pile_key.resize(n_cards);
  for (int id = 0; id < n_cards; ++id)
    pile_key[id] = (uint32_t)(((7 - cards[id].strength) * 256 + lower_rank[cards[id].name]) * 2) * 256 + (uint32_t)id;

  const int N = n_names, R = n_refs;
  const int sizes[A_COUNT] = {
#define HZ_ACTION(ID, TEXT, SIZE) (SIZE),
#include "tables.def"
  };
  offset[0] = 0;
  for (int k = 0; k < A_COUNT; ++k) offset[k + 1] = offset[k] + sizes[k];
  const int total = offset[A_COUNT];
  text.resize(total);
  auto cx = [](int c) { return "c" + std::to_string(c + 1); };
  auto slot = [](int c, int r) { return "c" + std::to_string(c + 1) + "r" + std::to_string(r + 1); };
  for (int a = 0; a < total; ++a) {
    int k = kind_of(a), i = a - offset[k];
    std::string t = ACTION_TEXT[k];  // the kind's text (tables.def), then what the move names
    switch (k) {
      case A_PLAY: t += " " + ref_text(i / 12) + " " + slot((i % 12) / 4, i % 4); break;
      case A_CHALLENGE: case A_PEG_FRONT: case A_PLACE: case A_PYTHIA_TURN: case A_GOD: t += " " + cx(i); break;
      case A_HADES: case A_CHANCE: t += " " + ref_text(i); break;
      case A_DIONYSUS: t += " " + slot(i / 48, (i / 12) % 4) + " " + slot((i % 12) / 4, i % 4); break;
      case A_TOP: t += " " + names[i]; break;
      case A_SETUP: {
        const int b = n_names + 1;
        const int parts[3] = {i / (b * b), (i / b) % b, i % b};
        for (int part : parts) t += " " + (part == 0 ? std::string("-") : names[part - 1]);
        break;
      }
      default: break;  // draw, pegasus hand, pythia spy, sirens, persephone, recall: the kind alone
    }
    text[a] = std::move(t);
  }
  std::vector<int> by_text(total);
  std::iota(by_text.begin(), by_text.end(), 0);
  std::sort(by_text.begin(), by_text.end(), [&](int a, int b) { return text[a] < text[b]; });
  rank.resize(total);
  for (int i = 0; i < total; ++i) rank[by_text[i]] = i;
  by_rank = by_text;
  name_order.resize(n_names);
  std::iota(name_order.begin(), name_order.end(), 0);
  std::sort(name_order.begin(), name_order.end(), [&](int a, int b) { return names[a] < names[b]; });
}

std::string GameDef::ref_text(int ref) const {
  const int flag = ref % 3;
  return flag == 0 ? names[ref / 3] : names[ref / 3] + "@" + PLAYER_NAMES[flag - 1];
}

// ----- queries -------------------------------------------------------------------------
int figure_column(const State& s, int p) {
  for (int c = 0; c < COLUMNS; ++c)
    if (s.col_len[p][c] && s.col[p][c][0] == FIGURE) return c;
  return -1;
}

static bool side_has_cards(const State& s, int p) {
  int occupants = 0;
  for (int c = 0; c < COLUMNS; ++c) occupants += s.col_len[p][c];
  return occupants - (figure_column(s, p) >= 0 ? 1 : 0) > 0;
}

static int non_empty_columns(const State& s, int p) {
  int n = 0;
  for (int c = 0; c < COLUMNS; ++c) n += s.col_len[p][c] ? 1 : 0;
  return n;
}

static bool front_insert_allowed(const State& s, int side, int c) {
  return s.col_len[side][c] < DEPTH && !(s.col_len[side][c] && s.col[side][c][0] == FIGURE);
}

static Bits pile_bits(const State& s, int p) {
  Bits b;
  for (int i = 0; i < s.pile_len[p]; ++i) b.set(s.pile[p][i]);
  return b;
}

// State.card_ref: the plain name, or NAME@owner where the plain name would mean another card.
static int ref_of(const GameDef& g, int card, const Bits& zone, int mover) {
  const CardInfo& c = g.cards[card];
  if (c.owner != mover && (zone & g.name_mask[c.name] & g.owner_mask[mover]).any()) return c.name * 3 + 1 + c.owner;
  return c.name * 3;
}

// State.resolve_ref in a hand: the mover's own card first, lowest id.
static int resolve_in_hand(const GameDef& g, int ref, const Bits& hand, int mover) {
  const int name = ref / 3, flag = ref % 3;
  const int owners[2] = {flag ? flag - 1 : mover, flag ? -1 : 1 - mover};
  for (int o : owners) {
    if (o < 0) break;
    int x = (hand & g.name_mask[name] & g.owner_mask[o]).first();
    if (x >= 0) return x;
  }
  return -1;
}

// State.resolve_ref(topmost=True) on a pile: the topmost copy; returns the pile index.
static int resolve_in_pile(const GameDef& g, int ref, const State& s, int p) {
  const int name = ref / 3, flag = ref % 3;
  const int owners[2] = {flag ? flag - 1 : p, flag ? -1 : 1 - p};
  for (int o : owners) {
    if (o < 0) break;
    for (int i = s.pile_len[p] - 1; i >= 0; --i) {
      const CardInfo& c = g.cards[s.pile[p][i]];
      if (c.name == name && c.owner == o) return i;
    }
  }
  return -1;
}

static bool hand_has_power(const GameDef& g, const Bits& hand, int power) {
  return (hand & g.power_mask[power]).any();
}

// ----- legal moves (legal.py) --------------------------------------------------------
namespace {

struct Out {
  int* out;
  int n = 0;
  bool any_only;
  bool push(int a) {  // true: stop, one action is all that was asked for
    if (any_only) { n = 1; return true; }
    out[n++] = a;
    return false;
  }
};

#define PUSH(a) do { if (o.push(a)) return true; } while (0)

// R-SETUP-2: every distinct assignment of names to the three columns, written in text
// order. A setup text is "setup A B C"; names hold no character below the space, so
// comparing texts compares A, then B, then C as strings, and "-" is just one more token.
bool setup_moves(const GameDef& g, const State& s, Out& o) {
  const int p = s.to_move;
  int count[MAX_CARDS + 1] = {};  // per token: 0 is "-", name + 1 otherwise
  int placeable = 0;
  (s.hand[p] & g.placeable_mask).each([&](int x) {
    ++count[g.cards[x].name + 1];
    ++placeable;
  });
  count[0] = placeable < COLUMNS ? COLUMNS - placeable : 0;
  int tokens[MAX_CARDS + 1];
  int n = 0;
  bool dash_done = false;
  for (int k = 0; k < g.n_names; ++k) {
    const int name = g.name_order[k];
    if (!dash_done && std::string("-") < g.names[name]) {
      if (count[0]) tokens[n++] = 0;
      dash_done = true;
    }
    if (count[name + 1]) tokens[n++] = name + 1;
  }
  if (!dash_done && count[0]) tokens[n++] = 0;
  const int b = g.n_names + 1;
  for (int i = 0; i < n; ++i) {
    const int a = tokens[i];
    --count[a];
    for (int j = 0; j < n; ++j) {
      const int bb = tokens[j];
      if (!count[bb]) continue;
      --count[bb];
      for (int k = 0; k < n; ++k) {
        const int c = tokens[k];
        if (!count[c]) continue;
        if (o.push(g.offset[A_SETUP] + (a * b + bb) * b + c)) return true;
      }
      ++count[bb];
    }
    ++count[a];
  }
  return false;
}

bool decision_moves(const GameDef& g, const State& s, Out& o) {
  const Pending& d = s.pending[0];
  if (d.kind == PD_PLACE) {  // R-PEG-H2
    for (int c = 0; c < COLUMNS; ++c)
      if (front_insert_allowed(s, 1 - d.player, c)) PUSH(g.offset[A_PLACE] + c);
  } else if (d.kind == PD_TOP) {  // R-PAN-2
    uint64_t seen[(MAX_CARDS + 63) / 64 * 2] = {};
    for (int i = 0; i < d.n; ++i) {
      int name = g.cards[d.cards[i]].name;
      if (!((seen[name >> 6] >> (name & 63)) & 1)) {
        seen[name >> 6] |= 1ULL << (name & 63);
        PUSH(g.offset[A_TOP] + name);
      }
    }
  }
  return false;
}

bool draw_and_play(const GameDef& g, const State& s, int p, Out& o) {
  const Bits& hand = s.hand[p];
  if (s.deck_len[p] && hand.count() < HAND_LIMIT) PUSH(g.offset[A_DRAW]);  // R-ACT-1
  bool open[COLUMNS];
  bool any_open = false;
  for (int c = 0; c < COLUMNS; ++c) any_open |= (open[c] = s.col_len[p][c] < DEPTH);
  if (!any_open) return false;
  uint64_t seen[8] = {};  // ref codes
  bool stop = false;
  (hand & g.placeable_mask).each([&](int x) {  // R-ACT-2
    if (stop) return;
    const int ref = ref_of(g, x, hand, p);
    if ((seen[ref >> 6] >> (ref & 63)) & 1) return;
    seen[ref >> 6] |= 1ULL << (ref & 63);
    for (int c = 0; c < COLUMNS && !stop; ++c) {
      if (!open[c]) continue;
      const int len = s.col_len[p][c];
      const int first = (len && s.col[p][c][0] == FIGURE) ? 1 : 0;
      for (int r = first; r <= len; ++r)
        if (o.push(g.offset[A_PLAY] + (ref * 3 + c) * 4 + r)) { stop = true; break; }
    }
  });
  return stop;
}

bool dionysus_moves(const GameDef& g, const State& s, int p, Out& o) {  // R-DIO-1
  for (int c = 0; c < COLUMNS; ++c) {
    const int len = s.col_len[p][c];
    for (int r = 0; r < len; ++r) {
      if (s.col[p][c][r] == FIGURE) continue;
      for (int c2 = 0; c2 < COLUMNS; ++c2) {
        const int len2 = s.col_len[p][c2];
        const int blocked = (len2 && s.col[p][c2][0] == FIGURE) ? 1 : 0;
        int end;
        if (c2 == c) {
          end = len;
        } else {
          if (len2 >= DEPTH) continue;
          end = len2 + 1;
        }
        for (int r2 = blocked; r2 < end; ++r2) {
          if (c2 == c && r2 == r) continue;
          PUSH(g.offset[A_DIONYSUS] + (c * 4 + r) * 12 + c2 * 4 + r2);
        }
      }
    }
  }
  return false;
}

bool action_moves(const GameDef& g, const State& s, int p, Out& o) {
  const int q = 1 - p;
  if (s.ap <= 0) return false;
  const Bits& hand = s.hand[p];
  if (draw_and_play(g, s, p, o)) return true;
  if (s.turn > 2) {  // R-TURN-6
    for (int c = 0; c < COLUMNS; ++c) {  // R-CH-1, R-CH-2
      if (!s.col_len[p][c] || !s.col_len[q][c]) continue;
      const int mine = s.col[p][c][0], theirs = s.col[q][c][0];
      if (mine == FIGURE || theirs == FIGURE) continue;
      if (g.cards[mine].can_challenge) PUSH(g.offset[A_CHALLENGE] + c);
    }
    if (hand_has_power(g, hand, P_PEGASUS)) {
      if (s.hand[q].any()) PUSH(g.offset[A_PEG_HAND]);  // R-PEG-H1
      for (int c = 0; c < COLUMNS; ++c)
        if (s.col_len[q][c]) PUSH(g.offset[A_PEG_FRONT] + c);  // R-PEG-F1
    }
  }
  if (hand_has_power(g, hand, P_PYTHIA)) {  // R-PYT-1, R-PYT-2
    PUSH(g.offset[A_PYTHIA_SPY]);
    for (int c = 0; c < COLUMNS; ++c)
      if (s.col_len[q][c]) PUSH(g.offset[A_PYTHIA_TURN] + c);
  }
  if (hand_has_power(g, hand, P_SIRENS) && s.pile_len[q]) {  // R-SIR-1
    const int st = g.cards[s.pile[q][s.pile_len[q] - 1]].strength;
    if (st >= 1 && st <= 7) PUSH(g.offset[A_SIRENS]);
  }
  if (hand_has_power(g, hand, P_HADES) && s.pile_len[p]) {  // R-HAD-1
    const Bits pile = pile_bits(s, p);
    uint64_t seen[8] = {};
    for (int i = 0; i < s.pile_len[p]; ++i) {
      const int ref = ref_of(g, s.pile[p][i], pile, p);
      if ((seen[ref >> 6] >> (ref & 63)) & 1) continue;
      seen[ref >> 6] |= 1ULL << (ref & 63);
      PUSH(g.offset[A_HADES] + ref);
    }
  }
  if (hand_has_power(g, hand, P_PERSEPHONE)) PUSH(g.offset[A_PERSEPHONE]);  // R-PER-1
  if (hand_has_power(g, hand, P_DIONYSUS) && dionysus_moves(g, s, p, o)) return true;
  const int fig = figure_column(s, p);
  if ((hand & g.god_mask).any() && fig < 0) {  // R-GOD-1
    for (int c = 0; c < COLUMNS; ++c)
      if (s.col_len[p][c] && s.col_len[p][c] < DEPTH) PUSH(g.offset[A_GOD] + c);
  }
  if (fig >= 0 && (!g.figure_removal_pegasus || hand_has_power(g, hand, P_PEGASUS)))  // R-ACT-5
    PUSH(g.offset[A_RECALL]);
  return false;
}

#undef PUSH

int generate(const GameDef& g, const State& s, int* out, bool any_only) {
  Out o{out, 0, any_only};
  if (s.phase == PH_OVER) return 0;
  if (s.n_pending) {
    if (s.pending[0].kind == PD_CHANCE) return 0;
    decision_moves(g, s, o);
  } else if (s.phase == PH_SETUP) {
    setup_moves(g, s, o);
  } else {
    action_moves(g, s, s.turn_player, o);
  }
  return o.n;
}

}  // namespace

int legal_actions(const GameDef& g, const State& s, int* out) { return generate(g, s, out, false); }

int legal_actions_sorted(const GameDef& g, const State& s, int* out) {
  const int n = generate(g, s, out, false);
  if (s.phase == PH_SETUP) return n;  // generated in text order
  // sort plain ranks rather than ids through a comparator: the hot path of playouts
  int keys[MAX_ACTIONS];
  for (int i = 0; i < n; ++i) keys[i] = g.rank[out[i]];
  if (n <= 24) {
    for (int i = 1; i < n; ++i) {
      const int v = keys[i];
      int j = i;
      for (; j > 0 && keys[j - 1] > v; --j) keys[j] = keys[j - 1];
      keys[j] = v;
    }
  } else {
    std::sort(keys, keys + n);
  }
  for (int i = 0; i < n; ++i) out[i] = g.by_rank[keys[i]];
  return n;
}

bool has_action(const GameDef& g, const State& s) {
  int dummy[1];
  return generate(g, s, dummy, true) > 0;
}

int chance_outcomes(const GameDef& g, const State& s, int* ids, int* counts) {
  if (s.phase == PH_OVER || !s.n_pending || s.pending[0].kind != PD_CHANCE) return 0;
  const int owner = 1 - s.pending[0].player;
  const Bits& hand = s.hand[owner];
  int n = 0;
  hand.each([&](int x) {
    const int a = g.offset[A_CHANCE] + ref_of(g, x, hand, owner);
    for (int i = 0; i < n; ++i)
      if (ids[i] == a) { ++counts[i]; return; }
    ids[n] = a;
    counts[n++] = 1;
  });
  // sort both arrays by text
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && g.rank[ids[j]] < g.rank[ids[j - 1]]; --j) {
      std::swap(ids[j], ids[j - 1]);
      std::swap(counts[j], counts[j - 1]);
    }
  return n;
}

bool is_legal(const GameDef& g, const State& s, int action) {
  if (action < 0 || action >= g.total_actions()) return false;
  if (g.kind_of(action) == A_CHANCE) {
    int ids[MAX_CARDS], counts[MAX_CARDS];
    const int n = chance_outcomes(g, s, ids, counts);
    return std::find(ids, ids + n, action) != ids + n;
  }
  std::vector<int> buf(MAX_ACTIONS);
  const int n = legal_actions(g, s, buf.data());
  return std::find(buf.begin(), buf.begin() + n, action) != buf.begin() + n;
}

// ----- the event log (core.hpp: EventCapture) ------------------------------------------
// A thread-local in a shared object costs a call to reach (__tls_get_addr): the moves
// read the plain counter of live captures first, so that the search, which never
// captures, pays one load and a branch that is never taken.
static thread_local EventLog* tl_log = nullptr;
static std::atomic<int> live_captures{0};

EventCapture::EventCapture(EventLog* log) : previous_(tl_log) {
  live_captures.fetch_add(1, std::memory_order_relaxed);
  tl_log = log;
}
EventCapture::~EventCapture() {
  tl_log = previous_;
  live_captures.fetch_sub(1, std::memory_order_relaxed);
}

static inline EventLog* capturing() {
  return live_captures.load(std::memory_order_relaxed) ? tl_log : nullptr;
}

// The move being applied on this thread, stamped on the events it logs (Event::turn).
static thread_local Event tl_stamp;

static inline void stamp(Event& e) {
  e.turn = tl_stamp.turn;
  e.act = tl_stamp.act;
  e.mover = tl_stamp.mover;
  e.first = tl_stamp.first;
  tl_stamp.first = false;
}

// ----- primitives -----------------------------------------------------------------------
namespace {

inline void log_move(int card, int src_zone, int src_p, int dst_zone, int dst_p) {
  if (EventLog* log = capturing()) {
    Event e;
    e.kind = EV_MOVE;
    e.card = (int16_t)card;
    e.src_zone = (int8_t)src_zone;
    e.src_p = (int8_t)src_p;
    e.dst_zone = (int8_t)dst_zone;
    e.dst_p = (int8_t)dst_p;
    stamp(e);
    log->push_back(e);
  }
}

inline void log_reveal(int card, int to) {
  if (EventLog* log = capturing()) {
    Event e;
    e.kind = EV_REVEAL;
    e.card = (int16_t)card;
    e.to = (int8_t)to;
    stamp(e);
    log->push_back(e);
  }
}

// State._turn_face_up: a reveal to everyone only where the card was face down.
inline void turn_face_up(State& s, int card) {
  if (!s.face_up.test(card)) {
    s.face_up.set(card);
    log_reveal(card, -1);
  }
}

inline void take_from_hand(State& s, int p, int card) {  // State._take_from_hand
  s.hand[p].reset(card);
  log_move(card, Z_HAND, p, Z_LIMBO, p);
}

inline void to_pile(State& s, int holder, int card) {  // State._limbo_to_pile
  s.pile[holder][s.pile_len[holder]++] = (uint8_t)card;
  s.face_up.reset(card);
  log_move(card, Z_LIMBO, holder, Z_DISCARD, holder);
}

inline int remove_from_field(State& s, int side, int c, int row) {
  int8_t* column = s.col[side][c];
  const int occupant = column[row];
  const int len = s.col_len[side][c];
  for (int r = row; r < len - 1; ++r) column[r] = column[r + 1];
  s.col_len[side][c] = (uint8_t)(len - 1);
  if (occupant != FIGURE) log_move(occupant, Z_FIELD, side, Z_LIMBO, side);
  return occupant;
}

inline void insert_on_field(State& s, int side, int c, int row, int card, bool face_up) {
  int8_t* column = s.col[side][c];
  const int len = s.col_len[side][c];
  for (int r = len; r > row; --r) column[r] = column[r - 1];
  column[row] = (int8_t)card;
  s.col_len[side][c] = (uint8_t)(len + 1);
  if (card != FIGURE) {
    if (face_up) s.face_up.set(card);
    else s.face_up.reset(card);
    log_move(card, Z_LIMBO, side, Z_FIELD, side);
  }
}

inline void discard_field_card(State& s, int side, int c, int row) {
  to_pile(s, side, remove_from_field(s, side, c, row));
}

// Several cards onto one pile at once, in the R-PAN-2 default order (bottom first).
void pile_in_order(const GameDef& g, State& s, int holder, int* cards, int n) {
  auto key = [&](int x) { return g.pile_key[x] + (g.cards[x].owner != holder ? 256u : 0u); };
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && key(cards[j]) < key(cards[j - 1]); --j) std::swap(cards[j], cards[j - 1]);
  for (int i = 0; i < n; ++i) to_pile(s, holder, cards[i]);
}

void finish(State& s, int winner, int reason) {
  s.phase = PH_OVER;
  s.winner = (int8_t)winner;
  s.reason = (int8_t)reason;
  s.to_move = -1;
  s.n_pending = 0;
}

void settle(const GameDef& g, State& s);

void start_turn(const GameDef& g, State& s, int player) {
  s.turn += 1;
  s.turn_player = (int8_t)player;
  s.to_move = (int8_t)player;
  s.ap_spent = 0;
  if (!side_has_cards(s, player)) {  // R-TURN-2, R-END-2
    s.ap = 0;
    finish(s, 1 - player, RS_NO_CARDS);
    return;
  }
  s.ap = figure_column(s, player) >= 0 ? FIGURE_AP : non_empty_columns(s, player);  // R-TURN-3
  settle(g, s);
}

// After every move (R-TURN-8): a pending decision first, then the turn passes when AP
// are spent, else the player to move loses when stuck (R-TURN-5, R-END-1).
void settle(const GameDef& g, State& s) {
  if (s.phase != PH_PLAY) return;
  if (s.n_pending) {
    s.to_move = s.pending[0].kind == PD_CHANCE ? -1 : s.pending[0].player;
    return;
  }
  if (s.ap == 0) {
    if (s.turn >= g.turn_limit) {  // R-TURN-7
      finish(s, -1, RS_TURN_LIMIT);
      return;
    }
    start_turn(g, s, 1 - s.turn_player);
    return;
  }
  s.to_move = s.turn_player;
  if (!has_action(g, s)) finish(s, 1 - s.turn_player, RS_NO_ACTION);
}

void pop_pending(State& s) {
  for (int i = 1; i < s.n_pending; ++i) s.pending[i - 1] = s.pending[i];
  --s.n_pending;
}

Pending& push_pending(State& s, int kind, int player) {
  if (s.n_pending >= MAX_PENDING) throw std::logic_error("too many pending decisions");
  Pending& d = s.pending[s.n_pending++];
  d.kind = (int8_t)kind;
  d.player = (int8_t)player;
  d.n = 0;
  return d;
}

// The card used for a power: the player's own copy first (lowest id), then a Sirens-taken one.
int hand_card_with_power(const GameDef& g, const State& s, int p, int power) {
  const Bits cards = s.hand[p] & g.power_mask[power];
  const int own = (cards & g.owner_mask[p]).first();
  return own >= 0 ? own : cards.first();
}

int use_myth(const GameDef& g, State& s, int p, int power) {  // R-ACT-4
  const int card = hand_card_with_power(g, s, p, power);
  take_from_hand(s, p, card);
  return card;
}

// R-PAN-1 outcome, R-PAN-2 order.
void discard_lost(const GameDef& g, State& s, int* lost[2], int nlost[2], int challenger) {
  const int challenged = 1 - challenger;
  const int sides[2] = {challenged, challenger};
  bool hostage_lost[2] = {false, false};
  for (int side : sides) {
    for (int i = 0; i < nlost[side]; ++i)
      for (int q = 0; q < 2; ++q)
        if (lost[side][i] == g.hostage[q]) hostage_lost[q] = true;
    pile_in_order(g, s, side, lost[side], nlost[side]);
  }
  if (hostage_lost[0] && hostage_lost[1]) { finish(s, challenged, RS_PANDORA); return; }
  if (hostage_lost[0]) { finish(s, 1, RS_PANDORA); return; }
  if (hostage_lost[1]) { finish(s, 0, RS_PANDORA); return; }
  for (int side : sides) {
    const int n = nlost[side];
    bool two_names = false;
    for (int i = 1; i < n; ++i)
      if (g.cards[lost[side][i]].name != g.cards[lost[side][0]].name) two_names = true;
    if (two_names) {
      Pending& d = push_pending(s, PD_TOP, side);
      d.n = (uint8_t)n;
      for (int i = 0; i < n; ++i) d.cards[i] = s.pile[side][s.pile_len[side] - n + i];
    }
  }
}

void open_pandora(const GameDef& g, State& s, int challenger, int c, int pegasus) {  // R-PAN-1
  int buf[2][MAX_BLOCK];
  int* lost[2] = {buf[0], buf[1]};
  int nlost[2] = {0, 0};
  for (int side : {1 - challenger, challenger}) {  // the reference engine's order (its event log)
    for (int row = s.col_len[side][c] - 1; row >= 0; --row) {
      if (s.col[side][c][row] == FIGURE) continue;
      lost[side][nlost[side]++] = remove_from_field(s, side, c, row);
    }
  }
  if (pegasus >= 0) lost[challenger][nlost[challenger]++] = pegasus;
  discard_lost(g, s, lost, nlost, challenger);
}

// ----- the moves (effects.py) ------------------------------------------------------------
void do_setup(const GameDef& g, State& s, int i) {  // R-SETUP-2
  const int p = s.to_move;
  const int b = g.n_names + 1;
  const int parts[3] = {i / (b * b), (i / b) % b, i % b};
  for (int c = 0; c < COLUMNS; ++c) {
    if (!parts[c]) continue;
    const int card = resolve_in_hand(g, (parts[c] - 1) * 3, s.hand[p], p);
    take_from_hand(s, p, card);
    insert_on_field(s, p, c, 0, card, false);
  }
  if (p == 0) {
    s.to_move = 1;
  } else {
    s.phase = PH_PLAY;
    start_turn(g, s, g.first_player);
  }
}

void do_challenge(const GameDef& g, State& s, int c) {  // R-CH, R-MED, R-PYT-3
  const int p = s.turn_player, q = 1 - p;
  const int attacker = s.col[p][c][0], defender = s.col[q][c][0];
  turn_face_up(s, attacker);  // R-CH-3
  turn_face_up(s, defender);
  const CardInfo &a = g.cards[attacker], &d = g.cards[defender];
  if (d.kind == K_HOSTAGE) {  // R-CH-3.1, R-END-3
    finish(s, p, RS_HOSTAGE_FOUND);
  } else if (d.power == P_PANDORA) {  // R-CH-3.2
    open_pandora(g, s, p, c, -1);
  } else if (d.power == P_MEDUSA) {  // R-MED-1
    if (a.slays_medusa) discard_field_card(s, q, c, 0);
    else discard_field_card(s, p, c, 0);
  } else if (a.power == P_PYTHIA && d.falls_to_pythia) {  // R-CH-3.4
    discard_field_card(s, q, c, 0);
  } else if (d.power == P_PYTHIA && g.pythia_always_loses) {  // R-CH-3.5
    discard_field_card(s, q, c, 0);
  } else {  // R-CH-3.6
    if (a.strength >= d.strength) discard_field_card(s, q, c, 0);
    if (d.strength >= a.strength) discard_field_card(s, p, c, 0);
  }
}

void do_pegasus_front(const GameDef& g, State& s, int c) {  // R-PEG-F1, R-PEG-F2
  const int p = s.turn_player, q = 1 - p;
  const int pegasus = use_myth(g, s, p, P_PEGASUS);
  const int target = s.col[q][c][0];
  if (target == FIGURE) {
    remove_from_field(s, q, c, 0);
    to_pile(s, p, pegasus);
    return;
  }
  turn_face_up(s, target);
  const CardInfo& t = g.cards[target];
  if (t.power == P_PANDORA) {
    open_pandora(g, s, p, c, pegasus);
    return;
  }
  to_pile(s, p, pegasus);
  if (t.kind == K_HOSTAGE) {
    finish(s, p, RS_HOSTAGE_FOUND);
  } else if (t.power == P_MEDUSA) {  // R-MED-2
  } else if (t.strength >= 0 && t.strength <= 1) {
    discard_field_card(s, q, c, 0);
  }
}

void do_pegasus_hand(const GameDef& g, State& s) {  // R-PEG-H1
  const int p = s.turn_player;
  to_pile(s, p, use_myth(g, s, p, P_PEGASUS));
  push_pending(s, PD_CHANCE, p);
}

void do_chance(const GameDef& g, State& s, int ref) {  // R-PEG-H2
  const int p = s.pending[0].player, q = 1 - p;
  pop_pending(s);
  const int drawn = resolve_in_hand(g, ref, s.hand[q], q);
  log_reveal(drawn, -1);
  const CardInfo& t = g.cards[drawn];
  if (t.kind == K_HOSTAGE) {  // R-END-4
    finish(s, p, RS_HOSTAGE_FOUND);
    return;
  }
  if (t.power == P_PANDORA) {
    int everything[MAX_CARDS];
    int n = 0;
    s.hand[q].each([&](int x) { everything[n++] = x; });
    for (int i = 0; i < n; ++i) take_from_hand(s, q, everything[i]);
    bool hostage = false, two_names = false;
    for (int i = 0; i < n; ++i) {
      hostage |= everything[i] == g.hostage[q];
      two_names |= g.cards[everything[i]].name != g.cards[everything[0]].name;
    }
    pile_in_order(g, s, q, everything, n);
    if (hostage) {
      finish(s, p, RS_PANDORA);
    } else if (two_names) {
      Pending& d = push_pending(s, PD_TOP, q);
      if (n > MAX_BLOCK) throw std::logic_error("Pandora block too large");
      d.n = (uint8_t)n;
      for (int i = 0; i < n; ++i) d.cards[i] = s.pile[q][s.pile_len[q] - n + i];
    }
    return;
  }
  take_from_hand(s, q, drawn);
  if (t.kind == K_MYTH || t.strength < 2) {
    to_pile(s, q, drawn);
    return;
  }
  for (int c = 0; c < COLUMNS; ++c)
    if (front_insert_allowed(s, q, c)) {
      Pending& d = push_pending(s, PD_PLACE, p);
      d.n = 1;
      d.cards[0] = (uint8_t)drawn;
      return;
    }
  to_pile(s, q, drawn);
}

void do_place(const GameDef&, State& s, int c) {
  const int player = s.pending[0].player;
  const int card = s.pending[0].cards[0];
  pop_pending(s);
  insert_on_field(s, 1 - player, c, 0, card, true);
}

void do_top(const GameDef& g, State& s, int name) {  // R-PAN-2
  const Pending d = s.pending[0];
  pop_pending(s);
  const int p = d.player;
  int best = -1;  // pile index of the topmost block card of that name
  for (int i = 0; i < d.n; ++i) {
    if (g.cards[d.cards[i]].name != name) continue;
    for (int k = 0; k < s.pile_len[p]; ++k)
      if (s.pile[p][k] == d.cards[i] && k > best) best = k;
  }
  const uint8_t chosen = s.pile[p][best];
  for (int k = best; k < s.pile_len[p] - 1; ++k) s.pile[p][k] = s.pile[p][k + 1];
  s.pile[p][s.pile_len[p] - 1] = chosen;
}

void do_pythia_spy(const GameDef& g, State& s) {  // R-PYT-1
  const int p = s.turn_player, q = 1 - p;
  const int pythia = use_myth(g, s, p, P_PYTHIA);
  if (EventLog* log = capturing()) {  // the hand shown to the spy, card by card
    Event shown;
    shown.kind = EV_SHOW_HAND;
    shown.src_zone = Z_HAND;
    shown.src_p = (int8_t)q;
    shown.to = (int8_t)p;
    stamp(shown);
    log->push_back(shown);
    s.hand[q].each([&](int x) { log_reveal(x, p); });
  }
  int doomed[MAX_CARDS];
  int n = 0;
  s.hand[q].each([&](int x) {
    if (g.cards[x].falls_to_pythia) doomed[n++] = x;
  });
  for (int i = 0; i < n; ++i) take_from_hand(s, q, doomed[i]);
  pile_in_order(g, s, q, doomed, n);
  to_pile(s, p, pythia);
}

void do_pythia_turn(const GameDef& g, State& s, int c) {  // R-PYT-2
  const int p = s.turn_player, q = 1 - p;
  const int pythia = use_myth(g, s, p, P_PYTHIA);
  for (int r = 0; r < s.col_len[q][c]; ++r)
    if (s.col[q][c][r] != FIGURE) turn_face_up(s, s.col[q][c][r]);
  to_pile(s, p, pythia);
}

void do_sirens(const GameDef& g, State& s) {  // R-SIR-1
  const int p = s.turn_player, q = 1 - p;
  const int sirens = use_myth(g, s, p, P_SIRENS);
  const int taken = s.pile[q][--s.pile_len[q]];
  s.hand[p].set(taken);
  log_move(taken, Z_DISCARD, q, Z_HAND, p);
  to_pile(s, p, sirens);
}

void remove_pile_index(State& s, int p, int index) {
  for (int k = index; k < s.pile_len[p] - 1; ++k) s.pile[p][k] = s.pile[p][k + 1];
  --s.pile_len[p];
}

void do_hades(const GameDef& g, State& s, int ref) {  // R-HAD-1
  const int p = s.turn_player;
  const int hades = use_myth(g, s, p, P_HADES);
  const int index = resolve_in_pile(g, ref, s, p);
  const int taken = s.pile[p][index];
  remove_pile_index(s, p, index);
  s.hand[p].set(taken);
  log_move(taken, Z_DISCARD, p, Z_HAND, p);
  to_pile(s, p, hades);
}

void do_persephone(const GameDef& g, State& s) {  // R-PER-1
  const int p = s.turn_player;
  const int persephone = use_myth(g, s, p, P_PERSEPHONE);
  int room = std::min(3, HAND_LIMIT - s.hand[p].count());
  for (int k = s.pile_len[p] - 1; k >= 0 && room > 0; --k) {
    const int x = s.pile[p][k];
    if (g.cards[x].power != P_PEGASUS) continue;
    remove_pile_index(s, p, k);
    s.hand[p].set(x);
    log_move(x, Z_DISCARD, p, Z_HAND, p);
    --room;
  }
  to_pile(s, p, persephone);
}

void do_dionysus(const GameDef& g, State& s, int i) {  // R-DIO-1
  const int p = s.turn_player;
  const int c = i / 48, r = (i / 12) % 4, c2 = (i % 12) / 4, r2 = i % 4;
  const int dionysus = use_myth(g, s, p, P_DIONYSUS);
  const int card = s.col[p][c][r];
  const bool up = s.face_up.test(card);
  remove_from_field(s, p, c, r);
  insert_on_field(s, p, c2, r2, card, up);
  to_pile(s, p, dionysus);
}

void do_god(const GameDef& g, State& s, int c) {  // R-GOD-1, R-GOD-2
  const int p = s.turn_player;
  const int god = g.god[p];
  take_from_hand(s, p, god);
  insert_on_field(s, p, c, 0, FIGURE, false);
  to_pile(s, p, god);
  s.ap = FIGURE_AP - s.ap_spent;
}

void do_recall(const GameDef& g, State& s) {  // R-ACT-5
  const int p = s.turn_player;
  if (g.figure_removal_pegasus) to_pile(s, p, use_myth(g, s, p, P_PEGASUS));
  remove_from_field(s, p, figure_column(s, p), 0);
}

}  // namespace

int card_in_hand(const GameDef& g, int ref, const Bits& hand, int mover) { return resolve_in_hand(g, ref, hand, mover); }

void apply_action(const GameDef& g, State& s, int action) {
  const int k = g.kind_of(action);
  const int i = action - g.offset[k];
  if (capturing()) {
    tl_stamp.turn = (int16_t)s.turn;
    tl_stamp.act = (int8_t)k;
    tl_stamp.mover = (int8_t)(k == A_CHANCE ? -1 : s.to_move);
    tl_stamp.first = true;
  }
  if (k != A_GOD && k != A_PLACE && k != A_TOP && k != A_SETUP && k != A_CHANCE) {  // R-TURN-4
    s.ap -= 1;
    s.ap_spent += 1;
  }
  const int p = s.turn_player;
  switch (k) {
    case A_SETUP: do_setup(g, s, i); break;
    case A_DRAW: {  // R-ACT-1
      const int card = s.deck[p][s.deck_head[p]++];
      --s.deck_len[p];
      s.hand[p].set(card);
      log_move(card, Z_DECK, p, Z_HAND, p);
      break;
    }
    case A_PLAY: {  // R-ACT-2
      const int ref = i / 12, c = (i % 12) / 4, r = i % 4;
      const int card = resolve_in_hand(g, ref, s.hand[p], p);
      take_from_hand(s, p, card);
      insert_on_field(s, p, c, r, card, false);
      break;
    }
    case A_CHALLENGE: do_challenge(g, s, i); break;
    case A_PEG_HAND: do_pegasus_hand(g, s); break;
    case A_PEG_FRONT: do_pegasus_front(g, s, i); break;
    case A_PLACE: do_place(g, s, i); break;
    case A_PYTHIA_SPY: do_pythia_spy(g, s); break;
    case A_PYTHIA_TURN: do_pythia_turn(g, s, i); break;
    case A_SIRENS: do_sirens(g, s); break;
    case A_HADES: do_hades(g, s, i); break;
    case A_PERSEPHONE: do_persephone(g, s); break;
    case A_DIONYSUS: do_dionysus(g, s, i); break;
    case A_GOD: do_god(g, s, i); break;
    case A_RECALL: do_recall(g, s); break;
    case A_TOP: do_top(g, s, i); break;
    case A_CHANCE: do_chance(g, s, i); break;
    default: throw std::logic_error("unknown action kind");
  }
  s.moves_played += 1;
  settle(g, s);
  if (EventLog* log = capturing(); log && tl_stamp.first) {  // it logged nothing: its stamp alone
    Event e;
    e.kind = EV_ACT;
    stamp(e);
    log->push_back(e);
  }
}

// The card the opponent draws from the hand after `pegasus hand` (R-PEG-H2), uniformly
// among the hand's cards in id order, as its chance action.
int sample_chance(const GameDef& g, const State& s, SplitMix64& rng) {
  const int owner = 1 - s.pending[0].player;
  const Bits& hand = s.hand[owner];
  const int drawn = hand.nth((int)rng.below((uint64_t)hand.count()));
  return g.offset[A_CHANCE] + ref_of(g, drawn, hand, owner);
}

// playout.random_step: a uniformly random legal move in text order, or a uniformly
// random card of the hand for a chance event; same generator use as the reference.
void random_step(const GameDef& g, State& s, SplitMix64& rng) {
  if (s.n_pending && s.pending[0].kind == PD_CHANCE) {
    apply_action(g, s, sample_chance(g, s, rng));
    return;
  }
  int buf[MAX_ACTIONS];
  const int n = legal_actions_sorted(g, s, buf);
  if (n == 0) throw std::logic_error("no legal move in a running game");
  apply_action(g, s, buf[rng.below((uint64_t)n)]);
}

void random_playout(const GameDef& g, State& s, uint64_t seed) {
  SplitMix64 rng(seed);
  while (s.phase != PH_OVER) random_step(g, s, rng);
}

// record.deal: shuffle, draw 9; a hostage drawn is set aside, replaced, put back under
// the rest and the rest shuffled again with the same generator; Hera first.
State deal(const GameDef& g, uint64_t seed) {
  SplitMix64 rng(seed);
  State s;
  std::memset(&s, 0, sizeof(State));
  s.phase = PH_SETUP;
  s.to_move = 0;
  s.winner = -1;
  s.reason = RS_NONE;
  for (int owner = 0; owner < 2; ++owner) {
    std::vector<int> cards;
    for (int id = owner * g.per_side; id < (owner + 1) * g.per_side; ++id) cards.push_back(id);
    rng.shuffle(cards.data(), (int)cards.size());
    std::vector<int> hand, aside;
    size_t pos = 0;
    while ((int)hand.size() < HAND_AT_DEAL && pos < cards.size()) {
      const int card = cards[pos++];
      (g.cards[card].kind == K_HOSTAGE ? aside : hand).push_back(card);
    }
    std::vector<int> rest(cards.begin() + (long)pos, cards.end());
    if (!aside.empty()) {
      rest.insert(rest.end(), aside.begin(), aside.end());
      rng.shuffle(rest.data(), (int)rest.size());
    }
    // initial_state rebuilds the deal from names: the hand, then the deck, each name
    // taking the lowest free id of that name.
    std::vector<int> next_free(g.n_names, -1);
    Bits used;
    auto take = [&](int card) {
      const int name = g.cards[card].name;
      int id = next_free[name] < 0 ? owner * g.per_side : next_free[name];
      while (g.cards[id].name != name || used.test(id)) ++id;
      used.set(id);
      next_free[name] = id + 1;
      return id;
    };
    for (int x : hand) s.hand[owner].set(take(x));
    s.deck_head[owner] = 0;
    s.deck_len[owner] = (uint8_t)rest.size();
    for (size_t i = 0; i < rest.size(); ++i) s.deck[owner][i] = (uint8_t)take(rest[i]);
  }
  return s;
}

}  // namespace hzn
