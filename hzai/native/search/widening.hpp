// Policy-guided progressive widening for the tree search (ismcts.hpp), for a game whose
// trait offers its playout policy's scores (an optional member, detected at compile time):
//
//   void policy_scores(const Game&, const State&, const int* actions, int n, double* out)
//
// With the game's own playout policy (PO_LIGHT), a node visited v times offers only its
// 1 + floor(sqrt(v) / 4) best actions by those scores (ties: the lower action id first), and
// expands them best first. Without it every untried action of a node is expanded, in
// random order, before any is chosen again, so each playout starts with a random move at
// the tree's frontier; in a game where most moves are bad (Legends: a card given away, a
// DI discarded) that random move, not the policy, decides the playout, and the moves
// whose next decisions are harmless (the Oracle's return orders) look best. The root is
// widened only with SearchOptions::widen_root (a bot's move; an analysis lists every
// move), and at its own pace: 1 + floor(sqrt(v) / 8) (ROOT_WIDEN, below). A game without
// the member is searched exactly as before. docs/native.md.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

namespace hzn::search {

// A node below the root visited v times offers its 1 + floor(WIDEN * sqrt(v)) best
// actions: 8 at 1000 visits, 2 or 3 at the visits such a node gets. Slow widening keeps
// the search near the policy (a strong one) unless playouts show a move clearly better:
// at 1 (and at 0.5, also at the root) the search lost more Legends missions than the
// heuristic alone with 2 seats, at 0.25 it won more (benchmarks/results/legends_strength.md).
constexpr double WIDEN = 0.25;
// A widened root (a bot's move) grows half as fast: about 4 moves at 1000 iterations. The
// move is chosen by the root's visits, and with a team's small win rate the playouts'
// noise over 8 moves of nearly equal value picked one of them by chance more often than
// the policy's better one: with 4 seats the search lost more Legends missions than the
// heuristic alone, with half the root's width it won more
// (benchmarks/results/legends_strength.md). SearchOptions::root_widen overrides it.
constexpr double ROOT_WIDEN = 0.125;

template <class G, class = void>
struct has_policy_scores : std::false_type {};
template <class G>
struct has_policy_scores<G, std::void_t<decltype(G::policy_scores(
                                std::declval<const typename G::Game&>(), std::declval<const typename G::State&>(),
                                std::declval<const int*>(), 0, std::declval<double*>()))>> : std::true_type {};

// Keeps in actions[0..n) the 1 + floor(WIDEN * sqrt(visits)) best by the policy's scores, best
// first; returns how many. `scores` and `order` hold n values each.
// `factor` replaces WIDEN (ROOT_WIDEN or SearchOptions::root_widen at the root; 0: the
// best action only).
template <class G>
int widen(const typename G::Game& g, const typename G::State& s, int* actions, int n, unsigned visits, double* scores,
          int* order, double factor = WIDEN) {
  const int keep = std::min(n, 1 + (int)(factor * std::sqrt((double)visits)));
  if (keep >= n && n <= 1) return n;
  G::policy_scores(g, s, actions, n, scores);
  for (int i = 0; i < n; ++i) order[i] = i;
  auto better = [&](int a, int b) {
    if (scores[a] != scores[b]) return scores[a] > scores[b];
    return actions[a] < actions[b];
  };
  std::partial_sort(order, order + keep, order + n, better);
  for (int i = 0; i < keep; ++i) order[i] = actions[order[i]];
  std::copy(order, order + keep, actions);
  return keep;
}

}  // namespace hzn::search
