// Determinization sampler and ISMCTS (search.hpp, docs/search.md).
#include "search.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace hzn {

namespace {
constexpr int MAX_ATTEMPTS = 1000;  // as hzai/belief/sampler.py
constexpr double LENGTH_NUDGE = 0.002;  // per move to the end of the game
constexpr double MAX_NUDGE = 0.2;

template <class T>
T pop_at(std::vector<T>& v, size_t i) {
  T x = v[i];
  v.erase(v.begin() + (long)i);
  return x;
}
}  // namespace

// ----- Sampler -----------------------------------------------------------------------------
Sampler::Sampler(std::shared_ptr<const GameDef> g, ViewSpec spec) : g_(std::move(g)), v_(std::move(spec)) {
  const GameDef& g0 = *g_;
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
  const GameDef& g = *g_;
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
  (void)g;
  return s;
}

State Sampler::sample(SplitMix64& rng) const {
  std::vector<std::vector<int16_t>> placed;
  std::vector<int16_t> decks[2];
  for (int attempt = 0; attempt < MAX_ATTEMPTS; ++attempt)
    if (draw_once(rng, placed, decks)) return build(placed, decks);
  throw std::runtime_error("no state fits this view: too few placeable cards for the face-down slots");
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

// Take a win in sight, never make a challenge that public cards say loses, never put
// the own hostage in front; otherwise uniform. Uses only what the mover could see in
// this world (face-up cards and the own cards), so it does not play as a cheater.
void light_step(const GameDef& g, State& s, SplitMix64& rng) {
  if (s.n_pending && s.pending[0].kind == PD_CHANCE) {
    random_step(g, s, rng);
    return;
  }
  int buf[MAX_ACTIONS], good[MAX_ACTIONS];
  const int n = legal_actions(g, s, buf);
  if (n == 0) throw std::logic_error("no legal move in a running game");
  const int me = s.to_move, them = 1 - me;
  int n_good = 0;
  for (int i = 0; i < n; ++i) {
    const int a = buf[i];
    const int kind = g.kind_of(a);
    const int local = a - g.offset[kind];
    bool keep = true;
    if (kind == A_CHALLENGE || kind == A_PEG_FRONT) {
      const int c = local;
      const int defender = s.col[them][c][0];
      if (defender != FIGURE && s.face_up.test(defender)) {
        const int attacker = kind == A_CHALLENGE ? s.col[me][c][0] : -1;
        int outcome;
        if (kind == A_CHALLENGE) {
          outcome = known_outcome(g, attacker, defender, true);
        } else {
          const CardInfo& d = g.cards[defender];
          outcome = d.kind == K_HOSTAGE ? 2 : (d.power == P_PANDORA ? -1 : (d.strength <= 1 && d.power != P_MEDUSA ? 1 : -1));
        }
        if (outcome == 2) {
          apply_action(g, s, a);
          return;
        }
        keep = outcome >= 0;
      }
    } else if (kind == A_PLAY) {
      const int ref = local / 12, row = local % 4, name = ref / 3;
      keep = !(row == 0 && g.hostage[me] >= 0 && g.cards[g.hostage[me]].name == name && (ref % 3 == 0 || ref % 3 == me + 1));
    }
    if (keep) good[n_good++] = a;
  }
  if (n_good == 0) apply_action(g, s, buf[rng.below((uint64_t)n)]);
  else apply_action(g, s, good[rng.below((uint64_t)n_good)]);
}

// ----- Search --------------------------------------------------------------------------------
Search::Search(std::shared_ptr<const GameDef> g, ViewSpec spec, SearchOptions options)
    : g_(g), sampler_(g, spec), options_(options) {
  if (options_.threads < 1) throw std::invalid_argument("threads must be ≥ 1");
  if (spec.phase == PH_OVER || spec.to_move < 0) throw std::invalid_argument("nothing to decide in this view");
  root_player_ = spec.to_move;
  trees_.resize((size_t)options_.threads);
  for (int t = 0; t < options_.threads; ++t) {
    Tree& tree = trees_[t];
    // One generator per tree from the search seed: results do not depend on timing.
    SplitMix64 mix(options_.seed + 0x51ED5EEDULL * (uint64_t)(t + 1));
    tree.rng = SplitMix64(mix.next_u64());
    tree.nodes.reserve(1024);
    tree.nodes.push_back(Node());
  }
}

void Search::iterate(Tree& tree) {
  const GameDef& g = *g_;
  State s = sampler_.sample(tree.rng);
  int path[4096];
  int depth = 0;
  int node = 0;
  path[depth++] = 0;
  int buf[MAX_ACTIONS];
  int untried[MAX_ACTIONS];
  bool expanded = false;
  while (s.phase != PH_OVER && !expanded) {
    if (s.n_pending && s.pending[0].kind == PD_CHANCE) {  // chance is resolved inside the world
      random_step(g, s, tree.rng);
      continue;
    }
    const int n = legal_actions(g, s, buf);
    const int mover = s.to_move;
    int n_untried = 0;
    int best = -1;
    double best_score = -1.0;
    for (int i = 0; i < n; ++i) {
      int child = tree.nodes[node].first_child;
      while (child >= 0 && tree.nodes[child].action != buf[i]) child = tree.nodes[child].next_sibling;
      if (child < 0) {
        untried[n_untried++] = buf[i];
        continue;
      }
      Node& ch = tree.nodes[child];
      ch.availability += 1;
      if (n_untried) continue;  // expansion comes first; scores are not needed
      const double score = ch.score / ch.visits +
                           options_.exploration * std::sqrt(std::log((double)ch.availability) / ch.visits);
      if (score > best_score) {
        best_score = score;
        best = child;
      }
    }
    if (n_untried) {
      const int action = untried[tree.rng.below((uint64_t)n_untried)];
      Node fresh;
      fresh.action = action;
      fresh.parent = node;
      fresh.mover = (int8_t)mover;
      fresh.availability = 1;
      fresh.next_sibling = tree.nodes[node].first_child;
      tree.nodes.push_back(fresh);
      const int id = (int)tree.nodes.size() - 1;
      tree.nodes[node].first_child = id;
      apply_action(g, s, action);
      node = id;
      expanded = true;
    } else {
      apply_action(g, s, tree.nodes[best].action);
      node = best;
    }
    if (depth < 4096) path[depth++] = node;
  }
  int length = depth - 1;  // moves from the root to the end of the game
  while (s.phase != PH_OVER) {
    ++length;
    if (options_.playout == PO_LIGHT) light_step(g, s, tree.rng);
    else {
      if (s.n_pending && s.pending[0].kind == PD_CHANCE) {
        random_step(g, s, tree.rng);
        continue;
      }
      const int n = legal_actions(g, s, buf);
      apply_action(g, s, buf[tree.rng.below((uint64_t)n)]);
    }
  }
  // A win sooner is worth a little more than a win later (and a loss later a little
  // less bad): without it every move of a won position looks the same and the search
  // can dawdle instead of taking the hostage.
  const double nudge = std::min(LENGTH_NUDGE * length, MAX_NUDGE);
  for (int i = 1; i < depth; ++i) {
    Node& nd = tree.nodes[path[i]];
    const double result = s.winner < 0 ? 0.5 : (s.winner == nd.mover ? 1.0 : 0.0);
    nd.visits += 1;
    nd.value += result;
    nd.score += result == 1.0 ? 1.0 - nudge : (result == 0.0 ? nudge : 0.5);
  }
  tree.nodes[0].visits += 1;
  tree.iterations += 1;
}

long Search::run(long iterations, double millis) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const int T = (int)trees_.size();
  std::atomic<long> done{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&](int t) {
    long quota = -1;
    if (iterations >= 0) quota = iterations / T + (t < iterations % T ? 1 : 0);
    Tree& tree = trees_[t];
    long k = 0;
    try {
      while ((quota < 0 || k < quota) && !stop_.load(std::memory_order_relaxed) && !failed.load()) {
        if (millis >= 0 && (k & 15) == 0) {
          const double elapsed = std::chrono::duration<double, std::milli>(clock::now() - start).count();
          if (elapsed >= millis) break;
        }
        iterate(tree);
        ++k;
      }
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
    done.fetch_add(k);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < T; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
  return done.load();
}

long Search::iterations() const {
  long n = 0;
  for (const Tree& t : trees_) n += t.iterations;
  return n;
}

std::vector<ChildStats> Search::root_stats() const {
  std::vector<ChildStats> out;
  for (const Tree& tree : trees_) {
    for (int child = tree.nodes[0].first_child; child >= 0; child = tree.nodes[child].next_sibling) {
      const Node& nd = tree.nodes[child];
      auto it = std::find_if(out.begin(), out.end(), [&](const ChildStats& c) { return c.action == nd.action; });
      if (it == out.end()) {
        out.push_back(ChildStats{nd.action, 0, 0, 0.0});
        it = out.end() - 1;
      }
      it->visits += nd.visits;
      it->availability += nd.availability;
      it->value += nd.value;
    }
  }
  std::sort(out.begin(), out.end(), [](const ChildStats& a, const ChildStats& b) { return a.action < b.action; });
  return out;
}

std::vector<int> Search::principal_variation(int action, int max_len) const {
  // Follow the tree that visited `action` most, then its most visited children.
  const Tree* best_tree = nullptr;
  int best_node = -1;
  uint32_t most = 0;
  for (const Tree& tree : trees_)
    for (int child = tree.nodes[0].first_child; child >= 0; child = tree.nodes[child].next_sibling)
      if (tree.nodes[child].action == action && tree.nodes[child].visits > most) {
        most = tree.nodes[child].visits;
        best_tree = &tree;
        best_node = child;
      }
  std::vector<int> pv;
  if (!best_tree) return pv;
  int node = best_node;
  while (node >= 0 && (int)pv.size() < max_len) {
    pv.push_back(best_tree->nodes[node].action);
    int next = -1;
    uint32_t v = 0;
    for (int c = best_tree->nodes[node].first_child; c >= 0; c = best_tree->nodes[c].next_sibling)
      if (best_tree->nodes[c].visits > v || (best_tree->nodes[c].visits == v && next >= 0 && best_tree->nodes[c].action < best_tree->nodes[next].action)) {
        v = best_tree->nodes[c].visits;
        next = c;
      }
    if (v < 2) break;  // a reply seen once says nothing
    node = next;
  }
  return pv;
}

}  // namespace hzn
