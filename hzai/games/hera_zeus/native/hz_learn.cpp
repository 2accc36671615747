// Hera and Zeus for the learned search: see hz_learn.hpp and docs/learning.md.
#include "hz_learn.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hzn {

namespace {

constexpr int EMPTY = -1;
constexpr int DECK_CAP = 32, AP_CAP = 9, TURN_CAP = 40;

// What an encoder sees of the table: a token per field place (a card's code when the
// observer knows it, else `unknown`; the god figure; or empty), face-up marks, known
// cards in hands and piles counted by code, hidden cards in hands, deck sizes and the
// public state of play. A full state and a view both become one; one function encodes it.
struct Board {
  int16_t field[2][COLUMNS][DEPTH];
  bool up[2][COLUMNS][DEPTH];
  uint8_t hand[2][MAX_CARDS], pile[2][MAX_CARDS];  // by code
  int hidden[2] = {0, 0}, deck[2] = {0, 0};
  int phase = 0, to_move = -1, turn_player = 0, ap = 0, ap_spent = 0, turn = 0, pending = -1;
  Board() {
    for (auto& side : field)
      for (auto& col : side)
        for (auto& t : col) t = EMPTY;
    std::fill(&up[0][0][0], &up[0][0][0] + 2 * COLUMNS * DEPTH, false);
    std::fill(&hand[0][0], &hand[0][0] + 2 * MAX_CARDS, 0);
    std::fill(&pile[0][0], &pile[0][0] + 2 * MAX_CARDS, 0);
  }
};

int code_of(const GameDef& g, int id) { return g.cards[(size_t)id].name * 2 + g.cards[(size_t)id].owner; }

Board board_of(const GameDef& g, const State& s) {
  Board b;
  const int figure = g.n_names * 2 + 1;
  for (int p = 0; p < 2; ++p) {
    for (int c = 0; c < COLUMNS; ++c)
      for (int r = 0; r < s.col_len[p][c]; ++r) {
        const int id = s.col[p][c][r];
        if (id == FIGURE) {
          b.field[p][c][r] = (int16_t)figure;
          b.up[p][c][r] = true;
        } else {
          b.field[p][c][r] = (int16_t)code_of(g, id);
          b.up[p][c][r] = s.face_up.test(id);
        }
      }
    s.hand[p].each([&](int id) { b.hand[p][code_of(g, id)] += 1; });
    for (int k = 0; k < s.pile_len[p]; ++k) b.pile[p][code_of(g, s.pile[p][k])] += 1;
    b.deck[p] = s.deck_len[p];
  }
  b.phase = s.phase;
  b.to_move = s.to_move;
  b.turn_player = s.turn_player;
  b.ap = s.ap;
  b.ap_spent = s.ap_spent;
  b.turn = s.turn;
  b.pending = s.n_pending ? s.pending[0].kind : -1;
  return b;
}

Board board_of(const GameDef& g, const ViewSpec& v) {
  Board b;
  const int unknown = g.n_names * 2, figure = unknown + 1;
  for (int p = 0; p < 2; ++p) {
    for (int c = 0; c < COLUMNS; ++c) {
      const auto& col = v.columns[(size_t)p][(size_t)c];
      for (size_t r = 0; r < col.size() && r < (size_t)DEPTH; ++r) {
        const ViewSlot& sl = col[r];
        b.field[p][c][r] = (int16_t)(sl.kind == SL_FIGURE ? figure : sl.kind == SL_KNOWN ? sl.code : unknown);
        b.up[p][c][r] = sl.kind == SL_FIGURE || sl.face_up;
      }
    }
    for (const ViewSlot& sl : v.hands[(size_t)p]) {
      if (sl.kind == SL_KNOWN && sl.code >= 0 && sl.code < unknown) b.hand[p][sl.code] += 1;
      else b.hidden[p] += 1;
    }
    for (int16_t code : v.discards[(size_t)p])
      if (code >= 0 && code < unknown) b.pile[p][code] += 1;
    b.deck[p] = v.deck_sizes[(size_t)p];
  }
  b.phase = v.phase;
  b.to_move = v.to_move;
  b.turn_player = v.turn_player;
  b.ap = v.ap;
  b.ap_spent = v.ap_spent;
  b.turn = v.turn;
  b.pending = v.pending.empty() ? -1 : v.pending[0].kind;
  return b;
}

int clamp(int x, int lo, int hi) { return std::max(lo, std::min(hi, x)); }

int encode(const FeatureLayout& L, const Board& b, int32_t* out) {
  int n = 0;
  const int tokens = L.codes + 2;  // codes, unknown, figure
  for (int p = 0; p < 2; ++p)
    for (int c = 0; c < COLUMNS; ++c)
      for (int r = 0; r < DEPTH; ++r) {
        const int t = b.field[p][c][r];
        if (t == EMPTY) continue;
        const int place = (p * COLUMNS + c) * DEPTH + r;
        out[n++] = L.field + place * tokens + t;
      }
  for (int p = 0; p < 2; ++p)
    for (int c = 0; c < COLUMNS; ++c)
      for (int r = 0; r < DEPTH; ++r)
        if (b.field[p][c][r] != EMPTY && b.up[p][c][r]) out[n++] = L.up + (p * COLUMNS + c) * DEPTH + r;
  for (int p = 0; p < 2; ++p)
    for (int code = 0; code < L.codes; ++code)
      for (int k = 0; k < std::min<int>(b.hand[p][code], MAX_COPIES); ++k)
        out[n++] = L.hand + (p * L.codes + code) * MAX_COPIES + k;
  for (int p = 0; p < 2; ++p) out[n++] = L.hidden + p * (HAND_LIMIT + 5) + clamp(b.hidden[p], 0, HAND_LIMIT + 4);
  for (int p = 0; p < 2; ++p)
    for (int code = 0; code < L.codes; ++code)
      for (int k = 0; k < std::min<int>(b.pile[p][code], MAX_COPIES); ++k)
        out[n++] = L.pile + (p * L.codes + code) * MAX_COPIES + k;
  for (int p = 0; p < 2; ++p) out[n++] = L.deck + p * DECK_CAP + clamp(b.deck[p], 0, DECK_CAP - 1);
  int at = L.glob;
  out[n++] = at + clamp(b.phase, 0, 2);
  at += 3;
  out[n++] = at + (b.to_move < 0 ? 2 : clamp(b.to_move, 0, 1));
  at += 3;
  out[n++] = at + clamp(b.turn_player, 0, 1);
  at += 2;
  out[n++] = at + clamp(b.ap, 0, AP_CAP - 1);
  at += AP_CAP;
  out[n++] = at + clamp(b.ap_spent, 0, AP_CAP - 1);
  at += AP_CAP;
  out[n++] = at + clamp(b.turn, 0, TURN_CAP - 1);
  at += TURN_CAP;
  out[n++] = at + clamp(b.pending + 1, 0, 3);
  return n;
}

// The history features (docs/learning.md): per opponent field slot, its origin, its age
// in turns and the cards put in front of it since (buckets), and whether it was moved;
// the opponent's last action kinds; its actions by kind (buckets). Ascending after the table.
constexpr int AGE_BUCKETS = 6, COVER_BUCKETS = 4, COUNT_BUCKETS = 3;
constexpr int SLOT_FEATURES = 4 + AGE_BUCKETS + COVER_BUCKETS + 1;

int age_bucket(int age) { return age <= 0 ? 0 : age <= 2 ? age : age <= 4 ? 3 : age <= 8 ? 4 : 5; }
int count_bucket(int n) { return n <= 1 ? 0 : n <= 3 ? 1 : 2; }  // n >= 1

int encode_history(const FeatureLayout& L, const ViewSpec& v, int32_t* out) {
  int n = 0;
  if (v.history_slots.size() == (size_t)FIELD_SLOTS * HIST_FIELDS) {
    for (int slot = 0; slot < FIELD_SLOTS; ++slot) {
      const int* h = v.history_slots.data() + (size_t)slot * HIST_FIELDS;
      const int origin = h[HIST_ORIGIN];
      if (origin < 0 || origin > 3) continue;
      const int at = L.hist_slot + slot * SLOT_FEATURES;
      out[n++] = at + origin;
      if (origin == 3) continue;
      out[n++] = at + 4 + age_bucket(h[HIST_AGE]);
      out[n++] = at + 4 + AGE_BUCKETS + clamp(h[HIST_COVERED], 0, COVER_BUCKETS - 1);
      if (h[HIST_MOVED]) out[n++] = at + 4 + AGE_BUCKETS + COVER_BUCKETS;
    }
  }
  for (int k = 0; k < (int)v.history_acts.size() && k < HISTORY_ACTS; ++k) {
    const int act = v.history_acts[(size_t)k];
    if (act >= 0 && act < A_COUNT) out[n++] = L.hist_act + k * A_COUNT + act;
  }
  if (v.history_counts.size() == (size_t)A_COUNT)
    for (int act = 0; act < A_COUNT; ++act) {
      const int c = v.history_counts[(size_t)act];
      if (c > 0) out[n++] = L.hist_count + act * COUNT_BUCKETS + count_bucket(c);
    }
  return n;
}

}  // namespace

FeatureLayout::FeatureLayout(const GameDef& g) {
  codes = g.n_names * 2;
  const int places = 2 * COLUMNS * DEPTH;
  field = 0;
  up = field + places * (codes + 2);
  hand = up + places;
  hidden = hand + 2 * codes * MAX_COPIES;
  pile = hidden + 2 * (HAND_LIMIT + 5);
  deck = pile + 2 * codes * MAX_COPIES;
  glob = deck + 2 * DECK_CAP;
  base = glob + 3 + 3 + 2 + AP_CAP + AP_CAP + TURN_CAP + 4;
  hist_slot = base;
  hist_act = hist_slot + FIELD_SLOTS * SLOT_FEATURES;
  hist_count = hist_act + HISTORY_ACTS * A_COUNT;
  size = hist_count + A_COUNT * COUNT_BUCKETS;
}

int feature_count(const GameDef& g) { return FeatureLayout(g).size; }

int state_features(const GameDef& g, const State& s, int32_t* out) {
  return encode(FeatureLayout(g), board_of(g, s), out);
}

int view_features(const GameDef& g, const ViewSpec& v, int32_t* out) {
  if (v.columns.size() != 2 || v.hands.size() != 2 || v.discards.size() != 2 || v.deck_sizes.size() != 2)
    throw std::invalid_argument("a view has two sides of columns, hands, discards and decks");
  for (const auto& side : v.columns)
    if (side.size() != (size_t)COLUMNS) throw std::invalid_argument("a view has three columns a side");
  const FeatureLayout L(g);
  const int n = encode(L, board_of(g, v), out);
  return n + encode_history(L, v, out + n);
}

void hidden_labels(const GameDef& g, const State& s, const ViewSpec& v, int seat, int32_t* out) {
  const int q = 1 - seat, h = g.hostage[q];
  int where = 0;
  if (s.hand[q].test(h)) where = 1;
  for (int p = 0; p < 2; ++p)
    for (int k = 0; k < s.pile_len[p]; ++k)
      if (s.pile[p][k] == h) where = 2;
  for (int c = 0; c < COLUMNS; ++c)
    for (int r = 0; r < s.col_len[q][c]; ++r)
      if (s.col[q][c][r] == h) where = s.face_up.test(h) ? 3 : 4 + DEPTH * c + r;
  out[0] = where;
  for (int c = 0; c < COLUMNS; ++c)
    for (int r = 0; r < DEPTH; ++r) {
      int label = -1;
      const auto& col = v.columns[(size_t)q][(size_t)c];
      if ((size_t)r < col.size() && col[(size_t)r].kind == SL_GROUP && r < s.col_len[q][c] && s.col[q][c][r] != FIGURE)
        label = g.cards[(size_t)s.col[q][c][r]].name;
      out[1 + DEPTH * c + r] = label;
    }
}

namespace {

// A net reads the table's features (L.base, the models before the history) or all of them.
void adopt_reads(learn::Net& net, const FeatureLayout& L, const std::string& which) {
  if (net.trunk.empty()) throw std::invalid_argument("the " + which + " net needs at least one trunk layer");
  const int reads = net.trunk[0].in;
  if (reads != L.base && reads != L.size)
    throw std::invalid_argument("the " + which + " net reads " + std::to_string(reads) + " features, the game has " +
                                std::to_string(L.size) + " (" + std::to_string(L.base) + " without the history)");
  net.n_in = reads;
  net.check_reads(reads, which, "the game");
}

// The features a net reads: the encoder's are ascending, so those below its count.
int readable(const learn::Net& net, const int32_t* idx, int n) {
  while (n > 0 && idx[n - 1] >= net.n_in) --n;
  return n;
}

}  // namespace

void HzModel::check(const GameDef& g) {
  const FeatureLayout L(g);
  if (has_value) {
    adopt_reads(value, L, "value");
    if (value.heads.size() != 1 || value.head_size(0) != 1)
      throw std::invalid_argument("the value net needs one head of one output");
  }
  if (has_policy) {
    adopt_reads(policy, L, "policy");
    if (policy.heads.size() != 3 || policy.head_size(0) != g.total_actions() ||
        policy.head_size(1) != HOSTAGE_CLASSES || policy.head_size(2) != FIELD_SLOTS * g.n_names)
      throw std::invalid_argument("the policy net needs heads of " + std::to_string(g.total_actions()) + ", " +
                                  std::to_string(HOSTAGE_CLASSES) + " and " + std::to_string(FIELD_SLOTS * g.n_names) +
                                  " outputs");
  }
}

void model_values(const GameDef& g, const HzModel& m, const State& s, double* out) {
  int32_t idx[MAX_FEATURES];
  float h[learn::MAX_WIDTH];
  const int n = state_features(g, s, idx);  // all below FeatureLayout::base
  m.value.trunk_of(idx, n, h);
  out[0] = learn::sigmoid(m.value.head_at(0, h, 0));
  out[1] = 1.0 - out[0];
}

void model_policy(const GameDef& g, const HzModel& m, const ViewSpec& v, const int* legal, int n, double* out) {
  int32_t idx[MAX_FEATURES];
  float h[learn::MAX_WIDTH];
  const int k = readable(m.policy, idx, view_features(g, v, idx));
  m.policy.trunk_of(idx, k, h);
  for (int i = 0; i < n; ++i) out[i] = m.policy.head_at(0, h, legal[i]);
  learn::softmax(out, n);
}

void model_cards(const GameDef& g, const HzModel& m, const ViewSpec& v, double* hostage, double* slots) {
  int32_t idx[MAX_FEATURES];
  float h[learn::MAX_WIDTH];
  const int k = readable(m.policy, idx, view_features(g, v, idx));
  m.policy.trunk_of(idx, k, h);
  for (int i = 0; i < HOSTAGE_CLASSES; ++i) hostage[i] = m.policy.head_at(1, h, i);
  learn::softmax(hostage, HOSTAGE_CLASSES);
  for (int slot = 0; slot < FIELD_SLOTS; ++slot) {
    double* block = slots + (size_t)slot * g.n_names;
    for (int name = 0; name < g.n_names; ++name) block[name] = m.policy.head_at(2, h, slot * g.n_names + name);
    learn::softmax(block, g.n_names);
  }
}

ViewSpec with_card_model(const GameDef& g, const HzModel& m, const ViewSpec& v, int pool, uint64_t seed) {
  ViewSpec out = v;
  if (!m.has_policy || v.to_move < 0 || pool <= 0) return out;
  const int q = 1 - v.to_move;
  std::vector<double> hostage(HOSTAGE_CLASSES), slots((size_t)FIELD_SLOTS * g.n_names);
  model_cards(g, m, v, hostage.data(), slots.data());
  Inference inf;
  inf.side = q;
  inf.pool = pool;
  inf.seed = seed;
  for (int c = 0; c < COLUMNS; ++c) {
    const auto& col = v.columns[(size_t)q][(size_t)c];
    for (size_t r = 0; r < col.size() && r < (size_t)DEPTH; ++r) {
      if (col[r].kind != SL_GROUP) continue;
      SlotLikelihood sl;
      sl.c = c;
      sl.r = (int)r;
      sl.log_factor.resize((size_t)g.n_names);
      for (int name = 0; name < g.n_names; ++name)
        sl.log_factor[(size_t)name] = std::log(std::max(1e-6, slots[(size_t)(c * DEPTH + (int)r) * g.n_names + name]));
      inf.slots.push_back(std::move(sl));
    }
  }
  if (inf.slots.empty()) return out;
  out.inference = std::move(inf);
  return out;
}

}  // namespace hzn
