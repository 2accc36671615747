// Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012) with
// availability counts and root parallelism (one tree per thread), written once over the
// game trait (trait.hpp). docs/search.md, docs/native.md.
//
// Each iteration draws a state from the view (G::determinize), descends the tree by
// UCB over the children whose actions are legal in that state (availability counts
// how often each child could have been chosen), expands one untried action, plays the
// game out (uniformly random or the game's own policy) and backs the result up, each
// node scored for the seat that moved into it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "playout.hpp"
#include "trait.hpp"
#include "widening.hpp"

namespace hzn::search {

struct SearchOptions {
  double exploration = 0.7;
  int playout = PO_RANDOM;
  uint64_t seed = 0;
  int threads = 1;
  // Added for issue 15 (kept together): progressive bias from G::prior, 0 = off.
  double prior_weight = 0.0;
  bool widen_root = false;  // widening.hpp at the root too (a bot's move), not only below it (analysis lists every move)
  // The tree holds the searching seat's own decisions only: every other seat's move on
  // the way down is played by the playout policy, as in the playout (policy improvement
  // by rollouts), instead of by the tree's UCB, which plays those seats as if they chose
  // with the searcher's view of the drawn world. The single-observer search only.
  bool own_only = false;
  // The widening factor at a widened root (widening.hpp; < 0: ROOT_WIDEN, WIDEN below
  // it): a root visited v times offers its 1 + floor(root_widen * sqrt(v)) best actions.
  double root_widen = -1.0;
  // With own_only and a model with a policy (set_model): every other seat's move on the
  // way down is drawn from the model's policy, the blueprint the partners share, over
  // that seat's own picture of the drawn world (G::model_state_policy), instead of the
  // playout policy (issue 32, item 2: Hanabi's SPARTA searches one seat this way).
  bool partners_blueprint = false;
};

// The options checked (std::invalid_argument naming the option) as the searches use
// them: a game without a prior (trait.hpp) searches with the prior weight 0, so one bot
// spec serves every game.
template <class G>
SearchOptions checked_options(SearchOptions o) {
  if (o.threads < 1) throw std::invalid_argument("threads must be ≥ 1");
  if (o.playout != PO_RANDOM && o.playout != PO_LIGHT) throw std::invalid_argument("unknown playout policy");
  if (!(o.exploration >= 0.0)) throw std::invalid_argument("exploration must be ≥ 0");
  if (!(o.prior_weight >= 0.0) || o.prior_weight > 100.0) throw std::invalid_argument("prior weight must be within 0..100");
  if (!(o.root_widen <= 4.0)) throw std::invalid_argument("root_widen must be ≤ 4 (< 0: the default)");
  if (!has_prior<G>::value) o.prior_weight = 0.0;
  if (o.partners_blueprint && !o.own_only)
    throw std::invalid_argument("partners_blueprint draws the partners' moves of a tree of the seat's own decisions: "
                                "it needs own_only");
  if (o.partners_blueprint && !has_state_policy<G>::value)
    throw std::invalid_argument("this game's model has no blueprint for the partners (model_state_policy)");
  return o;
}

// G::prior of each of the n legal actions into `out` (0.5 each for a game without one).
template <class G>
void priors_of(const typename G::Game& g, const typename G::State& s, const int* legal, int n, double* out) {
  for (int i = 0; i < n; ++i) {
    if constexpr (has_prior<G>::value) out[i] = G::prior(g, s, legal[i]);
    else out[i] = 0.5;
  }
}

struct Node {
  int32_t action = -1, parent = -1, first_child = -1, next_sibling = -1;
  int8_t mover = -1;
  uint32_t visits = 0, availability = 0;
  double value = 0.0;  // sum of results for `mover`: win 1, draw 0.5, loss 0
  double score = 0.0;  // the same, nudged toward quick wins and slow losses; selection uses it
};

struct alignas(64) Tree {  // one cache line at least: each thread mutates its own tree's generator
  std::vector<Node> nodes;
  SplitMix64 rng{0};
  long iterations = 0;
  std::vector<int> legal, untried;  // scratch, max_legal each
  std::vector<int32_t> slot;        // scratch, num_actions: child of the node at hand by action, else -1
  std::vector<double> prior;        // scratch, max_legal: the prior of each legal action (prior_weight > 0)
  std::vector<double> scores;       // scratch for the policy's scores (widening.hpp)
  std::vector<double> blueprint;    // scratch, max_legal: a partner's blueprint (partners_blueprint)
};

struct ChildStats {
  int action = 0;
  long visits = 0, availability = 0;
  double value = 0.0;
};

constexpr double LENGTH_NUDGE = 0.002;  // per move to the end of the game
constexpr double ROOT_PRIOR_FLOOR = 0.25;  // the share of a policy's root prior spread evenly over the legal moves
constexpr double MAX_NUDGE = 0.2;
constexpr int MAX_PATH = 4096;

// A new child of `node` for `action`, moved into by `mover` (first among its siblings,
// available once); returns its index.
inline int add_child(std::vector<Node>& nodes, int node, int action, int mover) {
  Node fresh;
  fresh.action = action;
  fresh.parent = node;
  fresh.mover = (int8_t)mover;
  fresh.availability = 1;
  fresh.next_sibling = nodes[node].first_child;
  nodes.push_back(fresh);
  const int id = (int)nodes.size() - 1;
  nodes[node].first_child = id;
  return id;
}

// One step down a tree at a decision of `mover`: UCB over the children whose actions are
// among the `n` legal ones (each such child's availability counts up), or, while some
// legal action has no child yet, a new child for one of them drawn uniformly (in the
// order of `legal`). Returns the child; `expanded` says it is new. `slot` (num_actions
// entries, all -1) finds a child by its action in one step instead of a scan of the
// siblings for every legal action, and is left all -1 again. With `prior` (one value per
// legal action) and a weight > 0: progressive bias, weight * prior / (visits + 1) added
// to each score, and a new child drawn among the untried actions of the highest prior.
// With `ranked` the legal actions come best first (widening.hpp) and the first untried
// one is expanded, no draw.
inline int descend(std::vector<Node>& nodes, int node, const int* legal, int n, int* untried, int32_t* slot,
                   int num_actions, SplitMix64& rng, double exploration, int mover, bool& expanded,
                   const double* prior = nullptr, double weight = 0.0, bool ranked = false) {
  const bool biased = prior != nullptr && weight > 0.0;
  double top = -1.0;
  for (int c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling)
    if (nodes[c].action >= 0 && nodes[c].action < num_actions) slot[nodes[c].action] = c;
  int n_untried = 0;
  int best = -1;
  double best_score = -1.0;
  for (int i = 0; i < n; ++i) {
    const int child = slot[legal[i]];
    if (child < 0) {
      if (biased) {  // only the untried actions of the highest prior so far are kept
        if (prior[i] > top) {
          top = prior[i];
          n_untried = 0;
        }
        if (prior[i] < top) continue;
      }
      untried[n_untried++] = legal[i];
      continue;
    }
    Node& ch = nodes[child];
    ch.availability += 1;
    if (n_untried) continue;  // expansion comes first; scores are not needed
    double score = ch.score / ch.visits + exploration * std::sqrt(std::log((double)ch.availability) / ch.visits);
    if (biased) score += weight * prior[i] / (ch.visits + 1.0);
    if (score > best_score) {
      best_score = score;
      best = child;
    }
  }
  for (int c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling)
    if (nodes[c].action >= 0 && nodes[c].action < num_actions) slot[nodes[c].action] = -1;
  expanded = n_untried > 0;
  if (!expanded) return best;
  return add_child(nodes, node, ranked ? untried[0] : untried[rng.below((uint64_t)n_untried)], mover);
}

// One step down at the root of a search guided by a policy (PUCT, as AlphaZero's): each
// legal action scores its mean result (an untried one: the best mean of the tried ones,
// 0.5 before any, so every move is tried once the tried ones' exploration terms have
// shrunk below its own) plus cpuct * prior * sqrt(root visits) / (1 + its visits); the best is taken,
// and made a child when it has none yet (`expanded`). `prior` is by action id. `slot` as
// in descend. Every legal child's availability counts up, as in descend.
inline int descend_puct(std::vector<Node>& nodes, int node, const int* legal, int n, int32_t* slot, int num_actions,
                        const double* prior, double cpuct, int mover, bool& expanded) {
  double fpu = -1.0;
  for (int c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
    if (nodes[c].action >= 0 && nodes[c].action < num_actions) slot[nodes[c].action] = c;
    if (nodes[c].visits) fpu = std::max(fpu, nodes[c].score / nodes[c].visits);
  }
  if (fpu < 0.0) fpu = 0.5;
  const double root = std::sqrt(std::max(1.0, (double)nodes[node].visits));
  int best_action = -1, best_child = -1;
  double best_score = -1e300;
  for (int i = 0; i < n; ++i) {
    const int child = slot[legal[i]];
    double q = fpu, visits = 0.0;
    if (child >= 0) {
      Node& ch = nodes[child];
      ch.availability += 1;
      visits = ch.visits;
      if (ch.visits) q = ch.score / ch.visits;
    }
    const double score = q + cpuct * prior[legal[i]] * root / (1.0 + visits);
    if (score > best_score) {
      best_score = score;
      best_action = legal[i];
      best_child = child;
    }
  }
  for (int c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling)
    if (nodes[c].action >= 0 && nodes[c].action < num_actions) slot[nodes[c].action] = -1;
  expanded = best_child < 0;
  if (!expanded) return best_child;
  return add_child(nodes, node, best_action, mover);
}

// The root filter of `actions` (chosen moves): by action id, 1 = searched at the root;
// empty for none (every legal move). std::invalid_argument for an id out of range.
inline std::vector<char> root_filter(const std::vector<int>& actions, int num_actions) {
  std::vector<char> only(actions.empty() ? 0 : (size_t)num_actions, 0);
  for (int a : actions) {
    if (a < 0 || a >= num_actions) throw std::invalid_argument("root action id out of range");
    only[(size_t)a] = 1;
  }
  return only;
}

// The subtree of `nodes` under `keep`, compacted into a fresh list with `keep` as its
// root (index 0, no action, no parent). Below the new root only the children moved by
// `mover` are kept: the new root is a decision of that seat, and a child another seat
// moved into (a world where the turn passed) would be found by its action id as if it
// were that seat's own; and, when `legal` is not empty, only those whose action it
// marks (by action id): a move legal in some worlds of the old view but not now (a card
// the seat has now seen it did not draw) must not be played on its old visits. An empty
// `legal` keeps every such child: another seat's tree keys the mover's moves by what
// that seat observes of them (mo_ismcts.hpp), ids that are not action ids. The new
// root's visits are its kept children's, as in a tree grown from scratch (every
// iteration passes one root child), so the visits of dropped children are not counted
// as reused (root_visits, the root's widening). Tree reuse (Ismcts::reroot) builds on it.
inline std::vector<Node> kept_subtree(const std::vector<Node>& nodes, int keep, int mover, const std::vector<char>& legal) {
  std::vector<Node> out;
  out.reserve(1024);
  Node root = nodes[(size_t)keep];
  root.action = -1;
  root.parent = -1;
  root.mover = -1;
  root.next_sibling = -1;
  root.first_child = -1;
  root.visits = 0;  // the kept children's, added below
  out.push_back(root);
  std::vector<std::pair<int, int>> todo{{keep, 0}};  // (old id, new id) whose children are still to copy
  while (!todo.empty()) {
    const auto [from, to] = todo.back();
    todo.pop_back();
    int last = -1;  // siblings keep their order
    for (int c = nodes[(size_t)from].first_child; c >= 0; c = nodes[(size_t)c].next_sibling) {
      if (from == keep) {
        const int a = nodes[(size_t)c].action;
        if (nodes[(size_t)c].mover != mover) continue;
        if (!legal.empty() && (a < 0 || a >= (int)legal.size() || !legal[(size_t)a])) continue;
        out[0].visits += nodes[(size_t)c].visits;
      }
      Node copy = nodes[(size_t)c];
      copy.parent = to;
      copy.first_child = -1;
      copy.next_sibling = -1;
      out.push_back(copy);
      const int id = (int)out.size() - 1;
      if (last < 0) out[(size_t)to].first_child = id;
      else out[(size_t)last].next_sibling = id;
      last = id;
      todo.emplace_back(c, id);
    }
  }
  return out;
}

// By action id, 1 for the actions legal for the seat to move in `view` (one world drawn
// from it: the seat's own moves follow from what it sees, the same in every world).
template <class G>
std::vector<char> view_legal(const typename G::Game& g, const typename G::View& view, uint64_t seed) {
  SplitMix64 probe(seed ^ 0x0B5E7EULL);
  const typename G::State s = G::determinize(g, view, probe);
  std::vector<int> buf((size_t)std::max(1, G::max_legal(g)));
  const int n = G::legal_actions(g, s, buf.data());
  std::vector<char> legal((size_t)G::num_actions(g), 0);
  for (int i = 0; i < n; ++i) legal[(size_t)buf[(size_t)i]] = 1;
  return legal;
}

// Tree reuse in one tree: the root child keyed `key` that `mover` moved into becomes
// the root (kept_subtree, `legal` as there); a tree without one starts afresh.
inline void keep_child(std::vector<Node>& nodes, int key, int mover, const std::vector<char>& legal) {
  for (int c = nodes[0].first_child; c >= 0; c = nodes[(size_t)c].next_sibling)
    if (nodes[(size_t)c].action == key && nodes[(size_t)c].mover == mover) {
      nodes = kept_subtree(nodes, c, mover, legal);
      return;
    }
  nodes.assign(1, Node());
}

// One generator per tree (thread) from the search seed: results do not depend on timing.
inline SplitMix64 tree_rng(uint64_t seed, int t) {
  SplitMix64 mix(seed + 0x51ED5EEDULL * (uint64_t)(t + 1));
  return SplitMix64(mix.next_u64());
}

// What both searches' reroot share: `view` must be `root_player`'s decision
// (std::invalid_argument otherwise); each thread's unit (a Tree, a Forest) keeps its
// part through `keep(unit, legal)`, `legal` being view_legal of the new view, and gets a
// fresh generator from `seed` and an iteration count of 0. The caller then takes `view`.
template <class G, class Unit, class Keep>
void reroot_units(const typename G::Game& g, int root_player, const typename G::View& view, uint64_t seed,
                  std::vector<Unit>& units, Keep keep) {
  if (G::view_player(g, view) != root_player) throw std::invalid_argument("the new view is not the same seat's decision");
  const std::vector<char> legal = view_legal<G>(g, view, seed);
  for (size_t t = 0; t < units.size(); ++t) {
    keep(units[t], legal);
    units[t].rng = tree_rng(seed, (int)t);
    units[t].iterations = 0;
  }
}

// The root children of several trees merged by action id, sorted by it.
inline std::vector<ChildStats> merged_root(const std::vector<const std::vector<Node>*>& trees) {
  std::vector<ChildStats> out;
  for (const std::vector<Node>* nodes : trees) {
    for (int child = (*nodes)[0].first_child; child >= 0; child = (*nodes)[child].next_sibling) {
      const Node& nd = (*nodes)[child];
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

// `action`, then the most visited replies (fewest visits 2; ties: the lower key) in the
// tree of `trees` that visited `action` most; a reply whose key is no action id (a move
// the tree's seat did not see in full) ends it.
inline std::vector<int> principal_line(const std::vector<const std::vector<Node>*>& trees, int action, int max_len,
                                       int num_actions) {
  const std::vector<Node>* best_tree = nullptr;
  int best_node = -1;
  uint32_t most = 0;
  for (const std::vector<Node>* nodes : trees)
    for (int child = (*nodes)[0].first_child; child >= 0; child = (*nodes)[child].next_sibling)
      if ((*nodes)[child].action == action && (*nodes)[child].visits > most) {
        most = (*nodes)[child].visits;
        best_tree = nodes;
        best_node = child;
      }
  std::vector<int> pv;
  if (!best_tree) return pv;
  const std::vector<Node>& nodes = *best_tree;
  int node = best_node;
  while (node >= 0 && (int)pv.size() < max_len) {
    if (nodes[node].action < 0 || nodes[node].action >= num_actions) break;
    pv.push_back(nodes[node].action);
    int next = -1;
    uint32_t v = 0;
    for (int c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling)
      if (nodes[c].visits > v || (nodes[c].visits == v && next >= 0 && nodes[c].action < nodes[next].action)) {
        v = nodes[c].visits;
        next = c;
      }
    if (v < 2) break;  // a reply seen once says nothing
    node = next;
  }
  return pv;
}

// Runs iterate(t) on thread t of T (0 is the caller's) until `iterations` in all (split
// over the threads; <0: no limit), `millis` of wall time (<0: no limit) or `stop`;
// returns the iterations done. The first exception of any thread is rethrown.
template <class F>
long run_threads(int T, long iterations, double millis, const std::atomic<bool>& stop, F iterate) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  std::atomic<long> done{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&](int t) {
    long quota = -1;
    if (iterations >= 0) quota = iterations / T + (t < iterations % T ? 1 : 0);
    long k = 0;
    try {
      while ((quota < 0 || k < quota) && !stop.load(std::memory_order_relaxed) && !failed.load()) {
        if (millis >= 0 && (k & 15) == 0) {
          const double elapsed = std::chrono::duration<double, std::milli>(clock::now() - start).count();
          if (elapsed >= millis) break;
        }
        iterate(t);
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

template <class G>
class Ismcts {
  static_assert(check_trait<G>());

 public:
  using Game = typename G::Game;
  using State = typename G::State;
  using View = typename G::View;

  Ismcts(std::shared_ptr<const Game> g, View view, SearchOptions options)
      : g_(std::move(g)), view_(std::move(view)), options_(checked_options<G>(options)) {
    if (G::num_players(*g_) < 1 || G::num_players(*g_) > MAX_PLAYERS)
      throw std::invalid_argument("the search plays games of 1 to 8 seats");
    root_player_ = G::view_player(*g_, view_);
    if (root_player_ < 0) throw std::invalid_argument("nothing to decide in this view");
    const size_t width = (size_t)std::max(1, G::max_legal(*g_));
    trees_.resize((size_t)options_.threads);
    for (int t = 0; t < options_.threads; ++t) {
      Tree& tree = trees_[t];
      tree.rng = tree_rng(options_.seed, t);
      tree.nodes.reserve(1024);
      tree.nodes.push_back(Node());
      tree.legal.resize(width);
      tree.untried.resize(width);
      tree.slot.assign((size_t)G::num_actions(*g_), -1);
      if (options_.prior_weight > 0.0) tree.prior.resize(width);
      if constexpr (has_policy_scores<G>::value) tree.scores.resize(width);
      if (options_.partners_blueprint) tree.blueprint.resize(width);
    }
  }

  // Runs until `iterations` more iterations (split over the threads; <0: no limit) or
  // `millis` of wall time (<0: no limit) or stop(); returns the iterations done.
  long run(long iterations, double millis) {
    return run_threads((int)trees_.size(), iterations, millis, stop_, [this](int t) { iterate(trees_[t]); });
  }

  // Only these actions are searched at the root (chosen moves, analysis' allow/avoid);
  // empty: every legal one. Set before the first iteration.
  void restrict_root(const std::vector<int>& actions) {
    if (iterations() > 0) throw std::logic_error("restrict the root before the search runs");
    root_only_ = root_filter(actions, G::num_actions(*g_));
  }
  const std::vector<char>& root_only() const { return root_only_; }

  // Tree reuse: the searching seat played root action `action`, and `view` is what it
  // knows now, again its own decision with nothing else in between (the caller checks
  // that). In every tree the child of `action` becomes the root (kept_subtree, so its
  // statistics count toward the new decision); new iterations draw their worlds from
  // `view` with generators from `seed`, as a new search would. The root filter goes;
  // the iteration counts start again from 0. std::invalid_argument when `view` is not
  // the same seat's decision.
  void reroot(int action, View view, uint64_t seed) {
    reroot_units<G>(*g_, root_player_, view, seed, trees_, [&](Tree& tree, const std::vector<char>& legal) {
      keep_child(tree.nodes, action, root_player_, legal);
    });
    view_ = std::move(view);
    options_.seed = seed;
    root_only_.clear();
    root_priors();
  }

  // Visits of the root, summed over the trees: iterations run, plus those a reused
  // root had (reroot).
  long root_visits() const {
    long n = 0;
    for (const Tree& t : trees_) n += t.nodes[0].visits;
    return n;
  }

  // Nodes over the trees (a kept tree's size: IsmctsBot bounds what it reuses).
  long node_count() const {
    long n = 0;
    for (const Tree& t : trees_) n += (long)t.nodes.size();
    return n;
  }

  using Model = typename model_of<G>::type;

  // The learned models (docs/learning.md): with `use_value` every leaf is the value net's
  // judgment of its state instead of a playout's result; with `use_policy` the root
  // chooses by PUCT over the policy net's probabilities of the view's moves (`cpuct`).
  // Set before the first iteration; a game without models (model_of void) ignores it.
  // `mix`: a leaf's result is mix * the value net's + (1 - mix) * a playout's (1: the net
  // alone, no playout).
  void set_model(std::shared_ptr<const Model> model, bool use_value, bool use_policy, double cpuct, double mix = 1.0) {
    if (iterations() > 0) throw std::logic_error("set the model before the search runs");
    if (!(cpuct > 0.0) || cpuct > 100.0) throw std::invalid_argument("cpuct must be within 0..100 (not 0)");
    if (!(mix >= 0.0 && mix <= 1.0)) throw std::invalid_argument("mix must be within 0..1");
    if constexpr (has_model_v<G> && has_state_policy<G>::value) {  // (a game's Model may be incomplete here)
      if (options_.partners_blueprint && (!model || !model->has_policy))
        throw std::invalid_argument("partners_blueprint needs a model with a policy net");
    }
    model_ = std::move(model);
    use_value_ = model_ && use_value;
    use_policy_ = model_ && use_policy;
    cpuct_ = cpuct;
    mix_ = mix;
    root_priors();
  }
  bool uses_value() const { return use_value_; }
  bool uses_policy() const { return use_policy_; }
  // The policy net's probability of each root move, by action id (empty without one).
  const std::vector<double>& root_prior() const { return root_prior_; }

  void stop() { stop_.store(true); }
  void clear_stop() { stop_.store(false); }
  int root_player() const { return root_player_; }
  int action_count() const { return G::num_actions(*g_); }
  const Game& game() const { return *g_; }

  long iterations() const {
    long n = 0;
    for (const Tree& t : trees_) n += t.iterations;
    return n;
  }

  // Merged over the trees, by action id.
  std::vector<ChildStats> root_stats() const { return merged_root(node_lists()); }

  // `action`, then the most visited replies in the tree that visited `action` most.
  std::vector<int> principal_variation(int action, int max_len) const {
    return principal_line(node_lists(), action, max_len, G::num_actions(*g_));
  }

 private:
  void iterate(Tree& tree) {
    const Game& g = *g_;
    State s = G::determinize(g, view_, tree.rng);
    int path[MAX_PATH];
    int depth = 0;
    int node = 0;
    path[depth++] = 0;
    int* buf = tree.legal.data();
    int* untried = tree.untried.data();
    bool expanded = false;
    int mover;
    int by_policy = 0;  // other seats' moves played by the policy on the way down (own_only)
    while ((mover = G::current_player(g, s)) != TERMINAL && !expanded) {
      if (mover == CHANCE) {  // chance is resolved inside the world
        G::apply(g, s, G::sample_chance(g, s, tree.rng));
        continue;
      }
      if (options_.own_only && mover != root_player_) {
        ++by_policy;
        if (!blueprint_step(s, tree, buf, mover)) policy_step<G>(g, s, tree.rng, options_.playout, buf, mover);
        continue;
      }
      int n = G::legal_actions(g, s, buf);
      if (n <= 0) throw std::logic_error("no legal move in a running game");
      if (node == 0 && !root_only_.empty()) {
        int kept = 0;
        for (int i = 0; i < n; ++i)
          if (root_only_[(size_t)buf[i]]) buf[kept++] = buf[i];
        n = kept;
        if (n == 0) throw std::invalid_argument("none of the chosen root moves is legal in this position");
      }
      bool ranked = false;  // the actions best first (widening.hpp): expand the first untried one
      if constexpr (has_policy_scores<G>::value) {
        // A widened root stays widened in the game's policy order under a learned
        // prior too (the prior then weighs the offered moves, descend_puct): every
        // move at once at a Legends root lost every game at 150 iterations, guided by
        // the blueprint or not, and widening in the blueprint's order lost them all as
        // well (docs/learning.md, "Legends").
        if (options_.playout == PO_LIGHT && (node != 0 || options_.widen_root)) {
          const double factor = node != 0 ? WIDEN : options_.root_widen >= 0.0 ? options_.root_widen : ROOT_WIDEN;
          n = widen<G>(g, s, buf, n, tree.nodes[node].visits, tree.scores.data(), untried, factor);
          ranked = true;
        }
      }
      int child;
      if (node == 0 && !root_prior_.empty()) {
        child = descend_puct(tree.nodes, 0, buf, n, tree.slot.data(), G::num_actions(g), root_prior_.data(), cpuct_,
                             mover, expanded);
      } else {
        if (options_.prior_weight > 0.0) priors_of<G>(g, s, buf, n, tree.prior.data());
        child = descend(tree.nodes, node, buf, n, untried, tree.slot.data(), G::num_actions(g), tree.rng,
                        options_.exploration, mover, expanded, tree.prior.data(), options_.prior_weight, ranked);
      }
      G::apply(g, s, tree.nodes[child].action);
      node = child;
      if (depth < MAX_PATH) path[depth++] = node;
    }
    int length = depth - 1 + by_policy;  // moves from the root to the end of the game
    double results[MAX_PLAYERS], net[MAX_PLAYERS];
    const bool valued = leaf_value(s, net);
    if (!valued || mix_ < 1.0) {
      while ((mover = G::current_player(g, s)) != TERMINAL) {
        ++length;
        policy_step<G>(g, s, tree.rng, options_.playout, buf, mover);
      }
      G::returns(g, s, results);
      if (valued)
        for (int p = 0; p < G::num_players(g); ++p) results[p] = mix_ * net[p] + (1.0 - mix_) * results[p];
    } else {
      for (int p = 0; p < G::num_players(g); ++p) results[p] = net[p];
    }
    // A win sooner is worth a little more than a win later (and a loss later a little
    // less bad): without it every move of a won position looks the same and the search
    // can dawdle instead of taking the win.
    const double nudge = std::min(LENGTH_NUDGE * length, MAX_NUDGE);
    for (int i = 1; i < depth; ++i) {
      Node& nd = tree.nodes[path[i]];
      const double result = results[nd.mover];
      nd.visits += 1;
      nd.value += result;
      nd.score += result == 1.0 ? 1.0 - nudge : (result == 0.0 ? nudge : result);
    }
    tree.nodes[0].visits += 1;
    tree.iterations += 1;
  }

  // A partner's move drawn from the blueprint (partners_blueprint); false where there is
  // none to draw from (no such option, no model, a game without model_state_policy).
  bool blueprint_step(State& s, Tree& tree, int* buf, int mover) const {
    if constexpr (has_model_v<G> && has_state_policy<G>::value) {
      if (!options_.partners_blueprint || !model_) return false;
      const int n = G::legal_actions(*g_, s, buf);
      if (n <= 0) throw std::logic_error("no legal move in a running game");
      double* p = tree.blueprint.data();
      G::model_state_policy(*g_, *model_, s, mover, buf, n, p);
      const double x = tree.rng.unit();
      double acc = 0.0;
      int pick = n - 1;
      for (int i = 0; i < n; ++i)
        if (x < (acc += p[i])) {
          pick = i;
          break;
        }
      G::apply(*g_, s, buf[pick]);
      return true;
    }
    (void)s, (void)tree, (void)buf, (void)mover;
    return false;
  }

  // The value net's results for a leaf that is not the end of the game (false: play it out).
  bool leaf_value(const State& s, double* results) const {
    if constexpr (has_model_v<G>) {
      if (use_value_ && G::current_player(*g_, s) != TERMINAL) {
        G::model_values(*g_, *model_, s, results);
        return true;
      }
    }
    (void)s;
    (void)results;
    return false;
  }

  // root_prior_ from the policy net over the view's legal moves (empty without one).
  void root_priors() {
    root_prior_.clear();
    if constexpr (has_model_v<G>) {
      if (!use_policy_) return;
      const std::vector<char> legal = view_legal<G>(*g_, view_, options_.seed);
      std::vector<int> ids;
      for (size_t a = 0; a < legal.size(); ++a)
        if (legal[a]) ids.push_back((int)a);
      std::vector<double> probs(ids.size());
      G::model_policy(*g_, *model_, view_, ids.data(), (int)ids.size(), probs.data());
      // Every legal move keeps a share of the prior (ROOT_PRIOR_FLOOR spread evenly): a
      // move the policy all but rules out is still tried once the others have been, so
      // the search can find a win the policy missed (a challenge of a face-up hostage).
      const double even = ids.empty() ? 0.0 : ROOT_PRIOR_FLOOR / (double)ids.size();
      root_prior_.assign((size_t)G::num_actions(*g_), 0.0);
      for (size_t i = 0; i < ids.size(); ++i) root_prior_[(size_t)ids[i]] = (1.0 - ROOT_PRIOR_FLOOR) * probs[i] + even;
    }
  }

  std::vector<const std::vector<Node>*> node_lists() const {
    std::vector<const std::vector<Node>*> out;
    for (const Tree& t : trees_) out.push_back(&t.nodes);
    return out;
  }

  std::shared_ptr<const Game> g_;
  View view_;
  SearchOptions options_;
  std::vector<Tree> trees_;
  std::atomic<bool> stop_{false};
  int root_player_ = 0;
  std::vector<char> root_only_;  // by action id: 1 = searched at the root; empty = all
  std::shared_ptr<const Model> model_;
  bool use_value_ = false, use_policy_ = false;
  double cpuct_ = 1.0, mix_ = 1.0;
  std::vector<double> root_prior_;  // by action id (use_policy_)
};

}  // namespace hzn::search
