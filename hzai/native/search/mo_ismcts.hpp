// Multi-observer information-set MCTS (Cowling, Powley and Whitehouse 2012, MO-ISMCTS)
// over the game trait (trait.hpp), with the same availability counts, playouts, length
// nudge and root parallelism as the single-observer search (ismcts.hpp). docs/search.md.
//
// Each thread keeps one tree per seat. An iteration draws a state from the view and
// walks every tree down in step with it: at a decision of seat m, m's tree chooses the
// action (UCB over the children legal in this world, or a new child), and every other
// seat p's tree follows the edge of what p observes of that action
// (G::observation): moves p cannot tell apart share one edge there, so p's later
// decisions are statistics over everything the mover might have done, not over the one
// thing this world says it did. Seat m's own decisions therefore never branch on cards
// m cannot see, and the searching seat's hidden cards stay hidden in the other seats'
// trees. The answer is read from the searching seat's trees.
#pragma once

#include <memory>
#include <stdexcept>
#include <vector>

#include "ismcts.hpp"

namespace hzn::search {

template <class G>
class MoIsmcts {
  static_assert(check_trait<G>());
  static_assert(has_observation<G>::value, "the multi-observer search needs G::observation");

 public:
  using Game = typename G::Game;
  using State = typename G::State;
  using View = typename G::View;

  MoIsmcts(std::shared_ptr<const Game> g, View view, SearchOptions options)
      : g_(std::move(g)), view_(std::move(view)), options_(checked_options<G>(options)) {
    if (options_.own_only) throw std::invalid_argument("own_only is an option of the single-observer tree only");
    seats_ = G::num_players(*g_);
    if (seats_ < 1 || seats_ > MAX_PLAYERS) throw std::invalid_argument("the search plays games of 1 to 8 seats");
    root_player_ = G::view_player(*g_, view_);
    if (root_player_ < 0) throw std::invalid_argument("nothing to decide in this view");
    const size_t width = (size_t)std::max(1, G::max_legal(*g_));
    forests_.resize((size_t)options_.threads);
    for (int t = 0; t < options_.threads; ++t) {
      Forest& f = forests_[t];
      f.rng = tree_rng(options_.seed, t);  // as ismcts.hpp: one generator per thread
      f.trees.assign((size_t)seats_, std::vector<Node>(1));
      for (auto& nodes : f.trees) nodes.reserve(1024);
      f.legal.resize(width);
      f.untried.resize(width);
      f.slot.assign((size_t)G::num_actions(*g_), -1);
      if (options_.prior_weight > 0.0) f.prior.resize(width);
      f.paths.assign((size_t)seats_, {});
    }
  }

  long run(long iterations, double millis) {
    return run_threads((int)forests_.size(), iterations, millis, stop_, [this](int t) { iterate(forests_[t]); });
  }

  void restrict_root(const std::vector<int>& actions) {
    if (iterations() > 0) throw std::logic_error("restrict the root before the search runs");
    root_only_ = root_filter(actions, G::num_actions(*g_));
  }

  void stop() { stop_.store(true); }
  void clear_stop() { stop_.store(false); }
  int root_player() const { return root_player_; }
  int action_count() const { return G::num_actions(*g_); }
  const Game& game() const { return *g_; }

  long iterations() const {
    long n = 0;
    for (const Forest& f : forests_) n += f.iterations;
    return n;
  }

  // The searching seat's root moves, merged over the threads, by action id.
  std::vector<ChildStats> root_stats() const { return merged_root(own_trees()); }

  // `action`, then the replies the searching seat's tree visited most, as far as that
  // seat sees them in full.
  std::vector<int> principal_variation(int action, int max_len) const {
    return principal_line(own_trees(), action, max_len, G::num_actions(*g_));
  }

  // Tree reuse, as Ismcts::reroot: in the searching seat's trees the child of `action`
  // becomes the root. Every other seat's tree keeps the child of the edge it observes of
  // `action` (G::observation in one world of the old view: what a seat sees of the
  // searching seat's move is the same in every world it is legal in), with only the
  // searching seat's moves below it, all of them (keyed by observation, not by action
  // id: the legality filter is the searching seat's tree's); an edge never walked
  // starts that tree afresh.
  void reroot(int action, View view, uint64_t seed) {
    SplitMix64 probe(seed ^ 0x0B5E7EULL);
    const State s = G::determinize(*g_, view_, probe);
    const std::vector<char> observed;  // no legality filter in the other seats' trees
    reroot_units<G>(*g_, root_player_, view, seed, forests_, [&](Forest& f, const std::vector<char>& legal) {
      for (int p = 0; p < seats_; ++p) {
        const bool own = p == root_player_;
        keep_child(f.trees[(size_t)p], own ? action : G::observation(*g_, s, action, p), root_player_,
                   own ? legal : observed);
      }
    });
    view_ = std::move(view);
    options_.seed = seed;
    root_only_.clear();
  }

  // Visits of the searching seat's roots, summed over the threads (as Ismcts::root_visits).
  long root_visits() const {
    long n = 0;
    for (const Forest& f : forests_) n += f.trees[(size_t)root_player_][0].visits;
    return n;
  }

  // Nodes over every seat's tree of every thread (as Ismcts::node_count).
  long node_count() const {
    long n = 0;
    for (const Forest& f : forests_)
      for (const auto& nodes : f.trees) n += (long)nodes.size();
    return n;
  }

  // Nodes in seat `seat`'s tree of thread 0 (tests and benchmarks).
  long tree_size(int seat) const {
    if (seat < 0 || seat >= seats_) throw std::out_of_range("no such seat");
    return (long)forests_[0].trees[(size_t)seat].size();
  }

  // Root visits of seat `seat`'s tree of thread 0 (tests: the trees kept by reroot).
  long tree_visits(int seat) const {
    if (seat < 0 || seat >= seats_) throw std::out_of_range("no such seat");
    return (long)forests_[0].trees[(size_t)seat][0].visits;
  }

 private:
  struct alignas(64) Forest {
    std::vector<std::vector<Node>> trees;  // by seat
    SplitMix64 rng{0};
    long iterations = 0;
    std::vector<int> legal, untried;
    std::vector<int32_t> slot;
    std::vector<double> prior;
    std::vector<std::vector<int>> paths;  // by seat: the nodes walked this iteration
  };

  // The child of `node` keyed `key` for a move of `mover`, made when missing.
  static int follow(std::vector<Node>& nodes, int node, int key, int mover) {
    for (int c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling)
      if (nodes[c].action == key && nodes[c].mover == mover) return c;
    Node fresh;
    fresh.action = key;
    fresh.parent = node;
    fresh.mover = (int8_t)mover;
    fresh.next_sibling = nodes[node].first_child;
    nodes.push_back(fresh);
    const int id = (int)nodes.size() - 1;
    nodes[node].first_child = id;
    return id;
  }

  void iterate(Forest& f) {
    const Game& g = *g_;
    State s = G::determinize(g, view_, f.rng);
    int at[MAX_PLAYERS];
    for (int p = 0; p < seats_; ++p) {
      at[p] = 0;
      f.paths[(size_t)p].clear();
    }
    int* buf = f.legal.data();
    bool expanded = false, first = true;
    int decisions = 0, mover;
    while ((mover = G::current_player(g, s)) != TERMINAL && !expanded) {
      if (mover == CHANCE) {  // chance is resolved inside the world
        G::apply(g, s, G::sample_chance(g, s, f.rng));
        continue;
      }
      int n = G::legal_actions(g, s, buf);
      if (n <= 0) throw std::logic_error("no legal move in a running game");
      if (first && !root_only_.empty()) {
        int kept = 0;
        for (int i = 0; i < n; ++i)
          if (root_only_[(size_t)buf[i]]) buf[kept++] = buf[i];
        n = kept;
        if (n == 0) throw std::invalid_argument("none of the chosen root moves is legal in this position");
      }
      first = false;
      std::vector<Node>& own = f.trees[(size_t)mover];
      if (options_.prior_weight > 0.0) priors_of<G>(g, s, buf, n, f.prior.data());
      const int child = descend(own, at[mover], buf, n, f.untried.data(), f.slot.data(), G::num_actions(g), f.rng,
                                options_.exploration, mover, expanded, f.prior.data(), options_.prior_weight);
      const int action = own[child].action;
      for (int p = 0; p < seats_; ++p) {
        if (p == mover) continue;
        const int key = G::observation(g, s, action, p);
        at[p] = follow(f.trees[(size_t)p], at[p], key, mover);
      }
      at[mover] = child;
      G::apply(g, s, action);
      ++decisions;
      if (decisions < MAX_PATH)
        for (int p = 0; p < seats_; ++p) f.paths[(size_t)p].push_back(at[p]);
    }
    int length = decisions;  // moves from the root to the end of the game, as ismcts.hpp counts them
    while ((mover = G::current_player(g, s)) != TERMINAL) {
      ++length;
      policy_step<G>(g, s, f.rng, options_.playout, buf, mover);
    }
    double results[MAX_PLAYERS];
    G::returns(g, s, results);
    const double nudge = std::min(LENGTH_NUDGE * length, MAX_NUDGE);
    for (int p = 0; p < seats_; ++p) {
      std::vector<Node>& nodes = f.trees[(size_t)p];
      for (int id : f.paths[(size_t)p]) {
        Node& nd = nodes[(size_t)id];
        const double result = results[nd.mover];
        nd.visits += 1;
        nd.value += result;
        nd.score += result == 1.0 ? 1.0 - nudge : (result == 0.0 ? nudge : result);
      }
      nodes[0].visits += 1;
    }
    f.iterations += 1;
  }

  std::vector<const std::vector<Node>*> own_trees() const {
    std::vector<const std::vector<Node>*> out;
    for (const Forest& f : forests_) out.push_back(&f.trees[(size_t)root_player_]);
    return out;
  }

  std::shared_ptr<const Game> g_;
  View view_;
  SearchOptions options_;
  std::vector<Forest> forests_;
  std::atomic<bool> stop_{false};
  int seats_ = 0, root_player_ = 0;
  std::vector<char> root_only_;
};

}  // namespace hzn::search
