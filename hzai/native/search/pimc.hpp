// Perfect-information Monte Carlo over the game trait: draw worlds from the view, search
// each as a seat that sees every card would (G::world_view: what chance has yet to
// decide stays hidden), and play the move most worlds chose. docs/search.md.
//
// World w is drawn with SplitMix64(mix_seed(seed, 2w)) and searched with mix_seed(seed, 2w+1) on one
// thread. The caller may drive the worlds one by one (world, then vote: a Python loop
// that can stop between them) or all at once (decide).
#pragma once

#include <map>
#include <memory>
#include <utility>

#include "ismcts.hpp"

namespace hzn::search {

template <class G>
class Pimc {
 public:
  using Game = typename G::Game;
  using View = typename G::View;
  using Search = Ismcts<G>;

  Pimc(std::shared_ptr<const Game> g, View view, SearchOptions options, int worlds)
      : g_(std::move(g)), view_(std::move(view)), options_(options), worlds_(worlds) {
    if (worlds_ < 1) throw std::invalid_argument("worlds must be ≥ 1");
    if (G::view_player(*g_, view_) < 0) throw std::invalid_argument("nothing to decide in this view");
  }

  int worlds() const { return worlds_; }

  // The search of world w (not run yet).
  std::shared_ptr<Search> world(int w) const {
    if (w < 0 || w >= worlds_) throw std::out_of_range("no such world");
    SplitMix64 rng(mix_seed(options_.seed, 2 * (uint64_t)w));
    const typename G::State state = G::determinize(*g_, view_, rng);
    SearchOptions o = options_;
    o.seed = mix_seed(options_.seed, 2 * (uint64_t)w + 1);
    o.threads = 1;
    auto search = std::make_shared<Search>(g_, G::world_view(*g_, state), o);
    search->restrict_root(root_only_);
    return search;
  }

  // Every world's search considers only these root actions (empty: all).
  void restrict_root(const std::vector<int>& actions) { root_only_ = actions; }

  // A world's search votes for its most visited move (then the higher value, then the
  // lower id); every move's visits count for breaking ties between votes. Returns false
  // when the search has no move to vote for.
  bool vote(const Search& search) {
    const auto stats = search.root_stats();
    if (stats.empty()) return false;
    const ChildStats* best = &stats[0];
    for (const ChildStats& c : stats)
      if (c.visits > best->visits || (c.visits == best->visits && c.value > best->value)) best = &c;
    tally_[best->action].first += 1;
    for (const ChildStats& c : stats) tally_[c.action].second += c.visits;
    ++voted_;
    return true;
  }

  int voted() const { return voted_; }

  // The move with the most votes, then the most visits, then the lowest id; -1 before
  // any vote.
  int choice() const {
    int best = -1;
    std::pair<long, long> most{0, 0};
    for (const auto& [action, t] : tally_)
      if (t.first > 0 && (best < 0 || t > most)) {
        most = t;
        best = action;
      }
    return best;
  }

  // Every world searched for its share, in this thread.
  int decide(long iterations_per_world, double millis_per_world) {
    for (int w = 0; w < worlds_; ++w) {
      auto search = world(w);
      search->run(iterations_per_world, millis_per_world);
      vote(*search);
    }
    return choice();
  }

 private:
  std::shared_ptr<const Game> g_;
  View view_;
  SearchOptions options_;
  int worlds_;
  std::map<int, std::pair<long, long>> tally_;  // action -> (votes, visits)
  int voted_ = 0;
  std::vector<int> root_only_;
};

}  // namespace hzn::search
