// The Hera and Zeus side of the generic search: sampler, world views, light playouts
// (hera_zeus.hpp, docs/search.md).
#include "hera_zeus.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hzn {

namespace {
constexpr int MAX_ATTEMPTS = 50;  // rejection draws before the fitted one, as hzai/games/hera_zeus/belief/sampler.py
constexpr uint64_t PROBE_SEED = 0x7469676874ULL;  // the construction-time probe's own stream, as there

template <class T>
T pop_at(std::vector<T>& v, size_t i) {
  T x = v[i];
  v.erase(v.begin() + (long)i);
  return x;
}
}  // namespace

// Everything the sampler indexes with, checked before it is used: a malformed view is
// an error naming the field, never a read out of bounds.
static void check_spec(const GameDef& g, const ViewSpec& v) {
  auto fail = [](const std::string& what) { throw std::invalid_argument("view: " + what); };
  auto check_name = [&](int name, const char* where) {
    if (name < 0 || name >= g.n_names) fail(std::string(where) + " names no card of this deck (" + std::to_string(name) + ")");
  };
  auto check_code = [&](int code, const char* where) {
    if (code < 0 || code >= 2 * g.n_names) fail(std::string(where) + ": card code out of range (" + std::to_string(code) + ")");
  };
  auto check_slot = [&](const ViewSlot& slot, const char* where) {
    if (slot.kind < SL_FIGURE || slot.kind > SL_GROUP) fail(std::string(where) + ": unknown slot kind");
    if (slot.kind == SL_KNOWN) check_code(slot.code, where);
    if (slot.kind == SL_GROUP && (slot.group < 0 || (size_t)slot.group >= v.groups.size())) fail("view slot names no group");
    slot.excluded.each([&](int name) { check_name(name, where); });
  };
  if (v.columns.size() != 2 || v.hands.size() != 2 || v.discards.size() != 2 || v.deck_sizes.size() != 2 ||
      v.pools.size() != 2)
    fail("columns, hands, discards, deck_sizes and pools hold one entry per side (2)");
  for (int p = 0; p < 2; ++p) {
    if (v.columns[p].size() != COLUMNS) fail("a side has three columns");
    for (int c = 0; c < COLUMNS; ++c) {
      if (v.columns[p][c].size() > DEPTH) fail("a column holds at most four occupants");
      for (size_t r = 0; r < v.columns[p][c].size(); ++r) {
        check_slot(v.columns[p][c][r], "column");
        if (v.columns[p][c][r].kind == SL_FIGURE && r != 0) fail("a figure stands only at r1");
      }
    }
    if (v.hands[p].size() > MAX_HAND) fail("hand too large (" + std::to_string(v.hands[p].size()) + ")");
    for (const ViewSlot& slot : v.hands[p]) {
      check_slot(slot, "hand");
      if (slot.kind == SL_FIGURE) fail("a figure in a hand");
    }
    if (v.discards[p].size() > (size_t)g.n_cards) fail("discard pile larger than the deck");
    for (int code : v.discards[p]) check_code(code, "discard pile");
    if (v.pools[p].size() > (size_t)g.n_cards) fail("pool larger than the deck");
    for (int name : v.pools[p]) check_name(name, "pool");
  }
  for (const ViewGroup& group : v.groups) {
    if (group.owner != 0 && group.owner != 1) fail("group owner is 0 or 1");
    for (int name : group.known) check_name(name, "group");
    for (const auto& w : group.wildcards) {
      if (w.first < 0 || w.first > g.n_cards) fail("wildcard count out of range");
      w.second.each([&](int name) { check_name(name, "wildcard"); });
    }
  }
  if (v.pending.size() > MAX_PENDING) fail("too many pending decisions");
  for (const ViewPending& pd : v.pending) {
    if (pd.kind < PD_CHANCE || pd.kind > PD_TOP) fail("unknown pending kind");
    if (pd.player != 0 && pd.player != 1) fail("pending player is 0 or 1");
    if (pd.kind == PD_PLACE) check_code(pd.place_code, "pending place");
    if (pd.pile_positions.size() > MAX_BLOCK) fail("pending block too large");
    for (int i : pd.pile_positions)
      if (i < 0 || (size_t)i >= v.discards[pd.player].size()) fail("pending pile position out of range");
  }
  if (v.phase < PH_SETUP || v.phase > PH_OVER) fail("unknown phase");
  if (v.reason < RS_NONE || v.reason > RS_TURN_LIMIT) fail("unknown reason");
  if (v.turn_player != 0 && v.turn_player != 1) fail("turn_player is 0 or 1");
  if (v.to_move < -1 || v.to_move > 1) fail("to_move is 0, 1 or -1");
  if (v.winner < -1 || v.winner > 1) fail("winner is 0, 1 or -1");
}

// ----- Sampler -----------------------------------------------------------------------------
Sampler::Sampler(const GameDef& g0, ViewSpec spec) : v_(std::move(spec)) {
  check_spec(g0, v_);
  const size_t n_groups = v_.groups.size();
  group_slots_.assign(n_groups, {});
  slot_excluded_.assign(n_groups, {});
  for (int p = 0; p < 2; ++p) {
    for (int c = 0; c < COLUMNS; ++c)
      for (size_t r = 0; r < v_.columns[p][c].size(); ++r) {
        const ViewSlot& s = v_.columns[p][c][r];
        if (s.kind != SL_GROUP) continue;
        if (s.group < 0 || (size_t)s.group >= n_groups) throw std::invalid_argument("view slot names no group");
        group_slots_[s.group].push_back(Where{0, (int8_t)p, (int8_t)c, (int8_t)r});
        slot_excluded_[s.group].push_back(s.excluded);
      }
    for (size_t i = 0; i < v_.hands[p].size(); ++i) {
      const ViewSlot& s = v_.hands[p][i];
      if (s.kind != SL_GROUP) continue;
      if (s.group < 0 || (size_t)s.group >= n_groups) throw std::invalid_argument("view slot names no group");
      group_slots_[s.group].push_back(Where{1, (int8_t)p, 0, (int8_t)i});
      slot_excluded_[s.group].push_back(Bits());
    }
  }
  field_order_.assign(n_groups, {});
  for (size_t gi = 0; gi < n_groups; ++gi) {
    std::vector<int>& order = field_order_[gi];
    for (size_t i = 0; i < group_slots_[gi].size(); ++i)
      if (!group_slots_[gi][i].hand) order.push_back((int)i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return slot_excluded_[gi][a].count() > slot_excluded_[gi][b].count();
    });
    size_t size = v_.groups[gi].known.size();
    for (const auto& w : v_.groups[gi].wildcards) size += (size_t)w.first;
    if (size != group_slots_[gi].size()) throw std::invalid_argument("view group: locations and cards do not add up");
  }
  placeable_name_.assign(g0.n_names, false);
  ids_of_code_.assign((size_t)g0.n_names * 2, {});
  for (int id = 0; id < g0.n_cards; ++id) {
    const CardInfo& ci = g0.cards[id];
    if (ci.placeable) placeable_name_[ci.name] = true;
    ids_of_code_[(size_t)ci.name * 2 + ci.owner].push_back(id);
  }
  {  // the probe (as Determinizer.__init__): can a rejection draw fit this view at all?
    SplitMix64 probe(PROBE_SEED);
    std::vector<std::vector<int16_t>> placed;
    std::vector<int16_t> decks[2];
    tight_ = true;
    for (int attempt = 0; attempt < MAX_ATTEMPTS && tight_; ++attempt) tight_ = !draw_once(probe, placed, decks);
  }
  if (v_.inference.pool > 0) resample(g0);
}

double world_log_likelihood(const GameDef& g, const State& s, const Inference& inf) {
  double total = 0.0;
  for (const SlotLikelihood& sl : inf.slots) {
    const int card = s.col[inf.side][sl.c][sl.r];
    if (card < 0) continue;
    total += sl.log_factor[g.cards[card].name];
  }
  return total;
}

void check_inference(const GameDef& g, const ViewSpec& v) {
  const Inference& inf = v.inference;
  if (inf.side < 0 || inf.side > 1) throw std::invalid_argument("inference: side must be 0 or 1");
  for (const SlotLikelihood& sl : inf.slots) {
    if (sl.c < 0 || sl.c >= COLUMNS || sl.r < 0 || (size_t)sl.r >= v.columns[inf.side][sl.c].size() ||
        v.columns[inf.side][sl.c][sl.r].kind != SL_GROUP)
      throw std::invalid_argument("inference: a slot that is not a hidden card of the side");
    if (sl.log_factor.size() != (size_t)g.n_names) throw std::invalid_argument("inference: one factor per name");
    for (double f : sl.log_factor)
      if (!std::isfinite(f)) throw std::invalid_argument("inference: factors must be finite");
  }
  if (!inf.world_log_weight.empty() && inf.world_log_weight.size() != (size_t)std::max(0, inf.pool))
    throw std::invalid_argument("inference: one world log-weight per world of the pool");
  for (double f : inf.world_log_weight)
    if (!std::isfinite(f)) throw std::invalid_argument("inference: world log-weights must be finite");
}

void Sampler::resample(const GameDef& g) {
  const Inference& inf = v_.inference;
  check_inference(g, v_);
  SplitMix64 rng(inf.seed);
  const size_t n = (size_t)inf.pool;
  std::vector<State> pool;
  std::vector<double> logw(n);
  pool.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    pool.push_back(sample(g, rng));  // worlds_ is still empty: a plain draw
    logw[i] = world_log_likelihood(g, pool.back(), inf);
    if (!inf.world_log_weight.empty()) logw[i] += inf.world_log_weight[i];
  }
  const double top = *std::max_element(logw.begin(), logw.end());
  std::vector<double> w(n);
  double sum = 0.0, sq = 0.0;
  for (size_t i = 0; i < n; ++i) {
    w[i] = std::exp(logw[i] - top);
    sum += w[i];
    sq += w[i] * w[i];
  }
  ess_ = sum * sum / sq;
  // systematic resampling: n worlds, world i about n * w_i / sum times
  worlds_.reserve(n);
  const double step = sum / (double)n;
  double point = rng.unit() * step, acc = w[0];
  size_t i = 0;
  for (size_t k = 0; k < n; ++k, point += step) {
    while (point > acc && i + 1 < n) acc += w[++i];
    worlds_.push_back(pool[i]);
  }
}

bool Sampler::draw_once(SplitMix64& rng, std::vector<std::vector<int16_t>>& placed, std::vector<int16_t> decks[2]) const {
  const size_t n_groups = v_.groups.size();
  std::vector<std::vector<int16_t>> contents(n_groups);
  for (size_t gi = 0; gi < n_groups; ++gi) contents[gi] = v_.groups[gi].known;
  for (int owner = 0; owner < 2; ++owner) {
    std::vector<int16_t> pool = v_.pools[owner];
    for (size_t gi = 0; gi < n_groups; ++gi) {  // restricted wildcards first
      const ViewGroup& group = v_.groups[gi];
      if (group.owner != owner) continue;
      for (const auto& w : group.wildcards) {
        if (!w.second.any()) continue;
        for (int k = 0; k < w.first; ++k) {
          std::vector<size_t> allowed;
          for (size_t i = 0; i < pool.size(); ++i)
            if (!w.second.test(pool[i])) allowed.push_back(i);
          if (allowed.empty()) throw std::runtime_error("no card fits a restricted wildcard of the view");
          contents[gi].push_back(pop_at(pool, allowed[rng.below(allowed.size())]));
        }
      }
    }
    rng.shuffle(pool.data(), (int)pool.size());
    for (size_t gi = 0; gi < n_groups; ++gi) {
      const ViewGroup& group = v_.groups[gi];
      if (group.owner != owner) continue;
      for (const auto& w : group.wildcards) {
        if (w.second.any()) continue;
        for (int k = 0; k < w.first; ++k) {
          contents[gi].push_back(pool.back());
          pool.pop_back();
        }
      }
    }
    decks[owner] = pool;
  }
  placed.assign(n_groups, {});
  for (size_t gi = 0; gi < n_groups; ++gi) {
    std::vector<int16_t> names = contents[gi];
    rng.shuffle(names.data(), (int)names.size());
    const size_t n_slots = group_slots_[gi].size();
    std::vector<int16_t> chosen(n_slots, -1);
    for (int i : field_order_[gi]) {
      std::vector<size_t> options;
      for (size_t k = 0; k < names.size(); ++k)
        if (placeable_name_[names[k]] && !slot_excluded_[gi][i].test(names[k])) options.push_back(k);
      if (options.empty()) return false;
      chosen[i] = pop_at(names, options[rng.below(options.size())]);
    }
    placed[gi].resize(n_slots);
    for (size_t i = 0; i < n_slots; ++i) {
      if (chosen[i] >= 0) {
        placed[gi][i] = chosen[i];
      } else {
        placed[gi][i] = names.back();
        names.pop_back();
      }
    }
  }
  return true;
}

State Sampler::build(const std::vector<std::vector<int16_t>>& placed, const std::vector<int16_t> decks[2]) const {
  std::vector<size_t> cursor(ids_of_code_.size(), 0);
  auto take = [&](int code) {
    if (code < 0 || (size_t)code >= ids_of_code_.size() || cursor[code] >= ids_of_code_[code].size())
      throw std::runtime_error("the view names more copies of a card than the deck has");
    return ids_of_code_[code][cursor[code]++];
  };
  // Which group name fills each hidden location.
  std::vector<int16_t> field_fill[2][COLUMNS], hand_fill[2];
  for (int p = 0; p < 2; ++p) {
    for (int c = 0; c < COLUMNS; ++c) field_fill[p][c].assign(v_.columns[p][c].size(), -1);
    hand_fill[p].assign(v_.hands[p].size(), -1);
  }
  for (size_t gi = 0; gi < placed.size(); ++gi) {
    const int owner = v_.groups[gi].owner;
    for (size_t i = 0; i < placed[gi].size(); ++i) {
      const Where& w = group_slots_[gi][i];
      const int16_t code = (int16_t)(placed[gi][i] * 2 + owner);
      if (w.hand) hand_fill[w.p][w.r] = code;
      else field_fill[w.p][w.c][w.r] = code;
    }
  }
  State s;
  std::memset(&s, 0, sizeof(State));
  for (int p = 0; p < 2; ++p) {
    for (int c = 0; c < COLUMNS; ++c) {
      const auto& column = v_.columns[p][c];
      s.col_len[p][c] = (uint8_t)column.size();
      for (size_t r = 0; r < column.size(); ++r) {
        const ViewSlot& slot = column[r];
        if (slot.kind == SL_FIGURE) {
          s.col[p][c][r] = FIGURE;
          continue;
        }
        const int card = take(slot.kind == SL_KNOWN ? slot.code : field_fill[p][c][r]);
        s.col[p][c][r] = (int8_t)card;
        if (slot.face_up) s.face_up.set(card);
      }
    }
    for (size_t i = 0; i < v_.hands[p].size(); ++i) {
      const ViewSlot& slot = v_.hands[p][i];
      s.hand[p].set(take(slot.kind == SL_KNOWN ? slot.code : hand_fill[p][i]));
    }
    s.pile_len[p] = (uint8_t)v_.discards[p].size();
    for (size_t i = 0; i < v_.discards[p].size(); ++i) s.pile[p][i] = (uint8_t)take(v_.discards[p][i]);
  }
  for (int p = 0; p < 2; ++p) {
    if (decks[p].size() > MAX_SIDE) throw std::runtime_error("the view's deck is larger than a side");
    s.deck_len[p] = (uint8_t)decks[p].size();
    for (size_t i = 0; i < decks[p].size(); ++i) s.deck[p][i] = (uint8_t)take(decks[p][i] * 2 + p);
  }
  s.n_pending = (uint8_t)v_.pending.size();
  for (size_t k = 0; k < v_.pending.size(); ++k) {
    const ViewPending& vp = v_.pending[k];
    Pending& pd = s.pending[k];
    pd.kind = (int8_t)vp.kind;
    pd.player = (int8_t)vp.player;
    if (vp.kind == PD_PLACE) {
      pd.n = 1;
      pd.cards[0] = (uint8_t)take(vp.place_code);
    } else if (vp.kind == PD_TOP) {
      pd.n = (uint8_t)vp.pile_positions.size();
      for (size_t i = 0; i < vp.pile_positions.size(); ++i) pd.cards[i] = s.pile[vp.player][vp.pile_positions[i]];
    }
  }
  s.phase = (int8_t)v_.phase;
  s.turn = v_.turn;
  s.turn_player = (int8_t)v_.turn_player;
  s.to_move = (int8_t)v_.to_move;
  s.ap = v_.ap;
  s.ap_spent = v_.ap_spent;
  s.winner = (int8_t)v_.winner;
  s.reason = (int8_t)v_.reason;
  return s;
}

State Sampler::sample(const GameDef&, SplitMix64& rng) const {
  if (!worlds_.empty()) return worlds_[rng.below(worlds_.size())];
  std::vector<std::vector<int16_t>> placed;
  std::vector<int16_t> decks[2];
  if (!tight_)
    for (int attempt = 0; attempt < MAX_ATTEMPTS; ++attempt)
      if (draw_once(rng, placed, decks)) return build(placed, decks);
  return sample_fitted(rng);
}

State Sampler::sample_fitted(SplitMix64& rng) const {
  std::vector<std::vector<int16_t>> placed;
  std::vector<int16_t> decks[2];
  for (int attempt = 0; attempt < MAX_ATTEMPTS; ++attempt)
    if (draw_fitted(rng, placed, decks)) return build(placed, decks);
  throw std::runtime_error("no state fits this view: its face-down slots cannot all take a placeable card they allow");
}

// The fallback for tight views, call for call as Determinizer._draw_fitted: the face-down
// slots choose first (a known name of the group, or a wildcard drawing a fitting name from
// the pool), then the wildcards left are dealt, the hand takes the group's rest.
bool Sampler::draw_fitted(SplitMix64& rng, std::vector<std::vector<int16_t>>& placed, std::vector<int16_t> decks[2]) const {
  const size_t n_groups = v_.groups.size();
  placed.assign(n_groups, {});
  for (int owner = 0; owner < 2; ++owner) {
    std::vector<int16_t> pool = v_.pools[owner];
    std::vector<size_t> groups;
    for (size_t gi = 0; gi < n_groups; ++gi)
      if (v_.groups[gi].owner == owner) groups.push_back(gi);
    std::vector<std::vector<int16_t>> known(n_groups), chosen(n_groups), filled(n_groups);
    std::vector<std::vector<Bits>> wild(n_groups);
    for (size_t gi : groups) {
      known[gi] = v_.groups[gi].known;
      for (const auto& w : v_.groups[gi].wildcards)
        for (int k = 0; k < w.first; ++k) wild[gi].push_back(w.second);
      chosen[gi].assign(group_slots_[gi].size(), -1);
    }
    for (size_t gi : groups) {
      for (int i : field_order_[gi]) {
        const Bits& slot_ex = slot_excluded_[gi][i];
        auto fits = [&](int16_t name, const Bits* ex) {
          return placeable_name_[name] && !slot_ex.test(name) && !(ex && ex->test(name));
        };
        std::vector<std::pair<bool, size_t>> options;  // (from the pool, index)
        for (size_t k = 0; k < known[gi].size(); ++k)
          if (fits(known[gi][k], nullptr)) options.push_back({false, k});
        for (size_t j = 0; j < wild[gi].size(); ++j)
          for (int16_t name : pool)
            if (fits(name, &wild[gi][j])) {
              options.push_back({true, j});
              break;
            }
        if (options.empty()) return false;
        const auto pick = options[rng.below(options.size())];
        if (!pick.first) {
          chosen[gi][i] = pop_at(known[gi], pick.second);
          continue;
        }
        const Bits ex = pop_at(wild[gi], pick.second);
        std::vector<size_t> allowed;
        for (size_t m = 0; m < pool.size(); ++m)
          if (fits(pool[m], &ex)) allowed.push_back(m);
        chosen[gi][i] = pop_at(pool, allowed[rng.below(allowed.size())]);
      }
    }
    for (size_t gi : groups)
      for (const Bits& ex : wild[gi]) {
        if (!ex.any()) continue;
        std::vector<size_t> allowed;
        for (size_t m = 0; m < pool.size(); ++m)
          if (!ex.test(pool[m])) allowed.push_back(m);
        if (allowed.empty()) return false;
        filled[gi].push_back(pop_at(pool, allowed[rng.below(allowed.size())]));
      }
    rng.shuffle(pool.data(), (int)pool.size());
    for (size_t gi : groups)
      for (const Bits& ex : wild[gi]) {
        if (ex.any()) continue;
        filled[gi].push_back(pool.back());
        pool.pop_back();
      }
    decks[owner] = pool;
    for (size_t gi : groups) {
      std::vector<int16_t> rest = known[gi];
      rest.insert(rest.end(), filled[gi].begin(), filled[gi].end());
      rng.shuffle(rest.data(), (int)rest.size());
      const size_t n_slots = group_slots_[gi].size();
      placed[gi].resize(n_slots);
      for (size_t i = 0; i < n_slots; ++i) {
        if (chosen[gi][i] >= 0) {
          placed[gi][i] = chosen[gi][i];
        } else {
          placed[gi][i] = rest.back();
          rest.pop_back();
        }
      }
    }
  }
  return true;
}

// ----- world views (PIMC) -------------------------------------------------------------------
ViewSpec world_spec(const GameDef& g, const State& s) {
  ViewSpec v;
  auto code = [&](int card) { return (int16_t)(g.cards[card].name * 2 + g.cards[card].owner); };
  for (int p = 0; p < 2; ++p) {
    for (int c = 0; c < COLUMNS; ++c)
      for (int r = 0; r < s.col_len[p][c]; ++r) {
        ViewSlot slot;
        const int x = s.col[p][c][r];
        if (x == FIGURE) {
          slot.kind = SL_FIGURE;
        } else {
          slot.code = code(x);
          slot.face_up = s.face_up.test(x);
        }
        v.columns[p][c].push_back(slot);
      }
    s.hand[p].each([&](int x) {  // ascending ids: copies of a card keep their order
      ViewSlot slot;
      slot.code = code(x);
      v.hands[p].push_back(slot);
    });
    for (int i = 0; i < s.pile_len[p]; ++i) v.discards[p].push_back(code(s.pile[p][i]));
    v.deck_sizes[p] = s.deck_len[p];
    for (int i = 0; i < s.deck_len[p]; ++i) v.pools[p].push_back(g.cards[s.deck[p][s.deck_head[p] + i]].name);
    std::sort(v.pools[p].begin(), v.pools[p].end(), [&](int a, int b) { return g.names[a] < g.names[b]; });
  }
  public_parts(g, s, v);
  return v;
}

void public_parts(const GameDef& g, const State& s, ViewSpec& v) {
  for (int k = 0; k < s.n_pending; ++k) {
    const Pending& pd = s.pending[k];
    ViewPending vp;
    vp.kind = pd.kind;
    vp.player = pd.player;
    if (pd.kind == PD_PLACE) vp.place_code = (int16_t)(g.cards[pd.cards[0]].name * 2 + g.cards[pd.cards[0]].owner);
    if (pd.kind == PD_TOP) {
      for (int i = 0; i < pd.n; ++i)
        for (int j = 0; j < s.pile_len[pd.player]; ++j)
          if (s.pile[pd.player][j] == pd.cards[i]) {
            vp.pile_positions.push_back(j);
            break;
          }
      std::sort(vp.pile_positions.begin(), vp.pile_positions.end());
    }
    v.pending.push_back(vp);
  }
  v.phase = s.phase;
  v.turn = s.turn;
  v.turn_player = s.turn_player;
  v.to_move = s.to_move;
  v.ap = s.ap;
  v.ap_spent = s.ap_spent;
  v.winner = s.winner;
  v.reason = s.reason;
}

// ----- the light playout policy -------------------------------------------------------------
namespace {

// What a challenge on a face-up defender does for the attacker, from public cards only:
// +1 wins the column, 0 even or unknown, -1 loses the attacker or worse.
int known_outcome(const GameDef& g, int attacker, int defender, bool attacker_known) {
  const CardInfo& d = g.cards[defender];
  if (d.kind == K_HOSTAGE) return 2;
  if (d.power == P_PANDORA) return -1;
  if (!attacker_known) return 0;
  const CardInfo& a = g.cards[attacker];
  if (d.power == P_MEDUSA) return a.slays_medusa ? 1 : -1;
  if (a.power == P_PYTHIA && d.falls_to_pythia) return 1;
  if (d.power == P_PYTHIA && g.pythia_always_loses) return 1;
  if (a.strength > d.strength) return 1;
  if (a.strength < d.strength) return -1;
  return 0;
}

}  // namespace

int observation(const GameDef& g, const State& s, int action, int seat) {
  const int mover = s.to_move;
  if (mover < 0 || mover == seat || (s.n_pending && s.pending[0].kind == PD_CHANCE)) return action;
  const int k = g.kind_of(action), i = action - g.offset[k];
  const int hidden = g.total_actions();
  if (k == A_SETUP) {
    const int b = g.n_names + 1;
    const int parts[3] = {i / (b * b), (i / b) % b, i % b};
    return hidden + 12 + (parts[0] ? 1 : 0) + (parts[1] ? 2 : 0) + (parts[2] ? 4 : 0);
  }
  if (k == A_PLAY) {
    const int card = card_in_hand(g, i / 12, s.hand[mover], mover);
    if (card >= 0 && g.cards[card].owner == seat) return action;
    return hidden + i % 12;
  }
  return action;
}

// The light policy's judgment of one legal action of the player to move: 2 a win in
// sight, 1 nothing against it, 0 a challenge public cards say loses, or the own hostage
// put in front. Uses only what the mover could see in this world (face-up cards and the
// own cards), so it does not play as a cheater.
int light_grade(const GameDef& g, const State& s, int a) {
  const int me = s.to_move, them = 1 - me;
  const int kind = g.kind_of(a);
  const int local = a - g.offset[kind];
  if (kind == A_CHALLENGE || kind == A_PEG_FRONT) {
    const int c = local;
    const int defender = s.col[them][c][0];
    if (defender == FIGURE || !s.face_up.test(defender)) return 1;
    int outcome;
    if (kind == A_CHALLENGE) {
      outcome = known_outcome(g, s.col[me][c][0], defender, true);
    } else {
      const CardInfo& d = g.cards[defender];
      outcome = d.kind == K_HOSTAGE ? 2 : (d.power == P_PANDORA ? -1 : (d.strength <= 1 && d.power != P_MEDUSA ? 1 : -1));
    }
    return outcome == 2 ? 2 : (outcome >= 0 ? 1 : 0);
  }
  if (kind == A_PLAY) {
    const int ref = local / 12, row = local % 4, name = ref / 3;
    return row == 0 && g.hostage[me] >= 0 && g.cards[g.hostage[me]].name == name && (ref % 3 == 0 || ref % 3 == me + 1)
               ? 0
               : 1;
  }
  return 1;
}

// Take a win in sight, never a move light_grade says is bad; otherwise uniform.
void light_step(const GameDef& g, State& s, SplitMix64& rng) {
  if (s.n_pending && s.pending[0].kind == PD_CHANCE) {
    random_step(g, s, rng);
    return;
  }
  apply_action(g, s, light_action(g, s, rng));
}

// The policy's move for the seat to move (no chance node).
int light_action(const GameDef& g, const State& s, SplitMix64& rng) {
  int buf[MAX_ACTIONS], good[MAX_ACTIONS];
  const int n = legal_actions(g, s, buf);
  if (n == 0) throw std::logic_error("no legal move in a running game");
  int n_good = 0;
  for (int i = 0; i < n; ++i) {
    const int grade = light_grade(g, s, buf[i]);
    if (grade == 2) return buf[i];
    if (grade) good[n_good++] = buf[i];
  }
  if (n_good == 0) return buf[rng.below((uint64_t)n)];
  return good[rng.below((uint64_t)n_good)];
}

}  // namespace hzn
