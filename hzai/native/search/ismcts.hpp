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
  bool widen_root = false;  // widening.hpp at the root too (a bot's move), not only below it (analysis lists every move)
};

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
  std::vector<double> scores;        // scratch for the policy's scores (widening.hpp)
};

struct ChildStats {
  int action = 0;
  long visits = 0, availability = 0;
  double value = 0.0;
};

constexpr double LENGTH_NUDGE = 0.002;  // per move to the end of the game
constexpr double MAX_NUDGE = 0.2;
constexpr int MAX_PATH = 4096;

template <class G>
class Ismcts {
  static_assert(check_trait<G>());

 public:
  using Game = typename G::Game;
  using State = typename G::State;
  using View = typename G::View;

  Ismcts(std::shared_ptr<const Game> g, View view, SearchOptions options)
      : g_(std::move(g)), view_(std::move(view)), options_(options) {
    if (options_.threads < 1) throw std::invalid_argument("threads must be ≥ 1");
    if (options_.playout != PO_RANDOM && options_.playout != PO_LIGHT) throw std::invalid_argument("unknown playout policy");
    if (!(options_.exploration >= 0.0)) throw std::invalid_argument("exploration must be ≥ 0");
    if (G::num_players(*g_) < 1 || G::num_players(*g_) > MAX_PLAYERS)
      throw std::invalid_argument("the search plays games of 1 to 8 seats");
    root_player_ = G::view_player(*g_, view_);
    if (root_player_ < 0) throw std::invalid_argument("nothing to decide in this view");
    const size_t width = (size_t)std::max(1, G::max_legal(*g_));
    trees_.resize((size_t)options_.threads);
    for (int t = 0; t < options_.threads; ++t) {
      Tree& tree = trees_[t];
      // One generator per tree from the search seed: results do not depend on timing.
      SplitMix64 mix(options_.seed + 0x51ED5EEDULL * (uint64_t)(t + 1));
      tree.rng = SplitMix64(mix.next_u64());
      tree.nodes.reserve(1024);
      tree.nodes.push_back(Node());
      tree.legal.resize(width);
      tree.untried.resize(width);
      if constexpr (has_policy_scores<G>::value) tree.scores.resize(width);
    }
  }

  // Runs until `iterations` more iterations (split over the threads; <0: no limit) or
  // `millis` of wall time (<0: no limit) or stop(); returns the iterations done.
  long run(long iterations, double millis) {
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

  // Only these actions are searched at the root (chosen moves, analysis' allow/avoid);
  // empty: every legal one. Set before the first iteration.
  void restrict_root(const std::vector<int>& actions) {
    if (iterations() > 0) throw std::logic_error("restrict the root before the search runs");
    root_only_.assign(actions.empty() ? 0 : (size_t)G::num_actions(*g_), 0);
    for (int a : actions) {
      if (a < 0 || a >= G::num_actions(*g_)) throw std::invalid_argument("root action id out of range");
      root_only_[(size_t)a] = 1;
    }
  }
  const std::vector<char>& root_only() const { return root_only_; }

  void stop() { stop_.store(true); }
  void clear_stop() { stop_.store(false); }
  int root_player() const { return root_player_; }
  const Game& game() const { return *g_; }

  long iterations() const {
    long n = 0;
    for (const Tree& t : trees_) n += t.iterations;
    return n;
  }

  // Merged over the trees, by action id.
  std::vector<ChildStats> root_stats() const {
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

  // `action`, then the most visited replies in the tree that visited `action` most.
  std::vector<int> principal_variation(int action, int max_len) const {
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
    const std::vector<Node>& nodes = best_tree->nodes;
    int node = best_node;
    while (node >= 0 && (int)pv.size() < max_len) {
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
    while ((mover = G::current_player(g, s)) != TERMINAL && !expanded) {
      if (mover == CHANCE) {  // chance is resolved inside the world
        G::apply(g, s, G::sample_chance(g, s, tree.rng));
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
      bool ranked = false;  // the actions best first: expand the first untried one
      if constexpr (has_policy_scores<G>::value) {
        if (options_.playout == PO_LIGHT && (node != 0 || options_.widen_root)) {
          n = widen<G>(g, s, buf, n, tree.nodes[node].visits, tree.scores.data(), untried);
          ranked = true;
        }
      }
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
        const int action = ranked ? untried[0] : untried[tree.rng.below((uint64_t)n_untried)];
        Node fresh;
        fresh.action = action;
        fresh.parent = node;
        fresh.mover = (int8_t)mover;
        fresh.availability = 1;
        fresh.next_sibling = tree.nodes[node].first_child;
        tree.nodes.push_back(fresh);
        const int id = (int)tree.nodes.size() - 1;
        tree.nodes[node].first_child = id;
        G::apply(g, s, action);
        node = id;
        expanded = true;
      } else {
        G::apply(g, s, tree.nodes[best].action);
        node = best;
      }
      if (depth < MAX_PATH) path[depth++] = node;
    }
    int length = depth - 1;  // moves from the root to the end of the game
    while ((mover = G::current_player(g, s)) != TERMINAL) {
      ++length;
      policy_step<G>(g, s, tree.rng, options_.playout, buf, mover);
    }
    // A win sooner is worth a little more than a win later (and a loss later a little
    // less bad): without it every move of a won position looks the same and the search
    // can dawdle instead of taking the win.
    double results[MAX_PLAYERS];
    G::returns(g, s, results);
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

  std::shared_ptr<const Game> g_;
  View view_;
  SearchOptions options_;
  std::vector<Tree> trees_;
  std::atomic<bool> stop_{false};
  int root_player_ = 0;
  std::vector<char> root_only_;  // by action id: 1 = searched at the root; empty = all
};

}  // namespace hzn::search
