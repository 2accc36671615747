// Playouts over the game trait (trait.hpp): a uniformly random step, games played to
// the end, and batches of games spread over threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <thread>
#include <vector>

#include "trait.hpp"

namespace hzn::search {

enum Playout : int {
#define HZ_PLAYOUT(ID, TEXT) PO_##ID,
#include "../tables.def"
};

// One move drawn uniformly among the legal ones (in the game's order), or the chance
// outcome the game's distribution draws. `buf` holds max_legal ints.
template <class G>
void random_step(const typename G::Game& g, typename G::State& s, SplitMix64& rng, int* buf, int player) {
  if (player == CHANCE) {
    G::apply(g, s, G::sample_chance(g, s, rng));
    return;
  }
  const int n = G::legal_actions(g, s, buf);
  if (n <= 0) throw std::logic_error("no legal move in a running game");
  G::apply(g, s, buf[rng.below((uint64_t)n)]);
}

// One step of the chosen policy (PO_RANDOM or PO_LIGHT: the game's own) for `player`,
// the current player, which is not TERMINAL.
template <class G>
void policy_step(const typename G::Game& g, typename G::State& s, SplitMix64& rng, int policy, int* buf, int player) {
  if (policy == PO_LIGHT) G::playout_step(g, s, rng);
  else random_step<G>(g, s, rng, buf, player);
}

// Calls fn(i) for i in 0..n-1 on `threads` threads, indices handed out `chunk` at a time
// on demand; the first exception stops the others and is rethrown.
template <class Fn>
void parallel_indices(long n, int threads, long chunk, Fn fn) {
  if (n < 0) throw std::invalid_argument("the count must be ≥ 0");
  if (threads < 1) throw std::invalid_argument("threads must be ≥ 1");
  std::atomic<long> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  auto work = [&] {
    try {
      while (!failed.load()) {
        const long lo = next.fetch_add(chunk);
        if (lo >= n) break;
        const long hi = std::min(n, lo + chunk);
        for (long i = lo; i < hi; ++i) fn(i);
      }
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
}

// Game i of a batch is `step` applied from a copy of `start` with SplitMix64(seed + i)
// until the end, then `finish(i, state)`: results do not depend on how the games are
// spread over the threads. Chunks are handed out on demand, so a thread slowed down by
// other work on its core does not hold the others up at the end.
template <class G, class Step, class Finish>
void playout_batch(const typename G::Game& g, const typename G::State& start, long n_games, uint64_t seed,
                   int threads, Step step, Finish finish) {
  if (n_games < 0) throw std::invalid_argument("n_games must be ≥ 0");
  parallel_indices(n_games, threads, 8, [&](long i) {
    typename G::State s = G::clone(g, start);
    SplitMix64 rng(seed + (uint64_t)i);
    while (G::current_player(g, s) != TERMINAL) step(s, rng);
    finish(i, s);
  });
}

}  // namespace hzn::search
