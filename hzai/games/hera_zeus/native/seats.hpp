// The seats of a running Hera and Zeus game, for the arena (search/arena.hpp): what each
// seat has seen, followed move by move from the rules' event log, and the view it gives.
// Each seat's knowledge by the same tracker that builds the service's decision views
// (knowledge.hpp), so a seat's view in an arena game is the view the service would build
// from the game's record.
#pragma once

#include <algorithm>
#include <vector>

#include "core.hpp"
#include "hera_zeus.hpp"
#include "knowledge.hpp"

namespace hzn {

struct HeraZeusSeats {
  struct Watch {
    std::vector<Knowledge> seats;  // one tracker per seat
    EventLog log;                  // the events of the move being applied
  };

  static Watch watch(const GameDef& g, const State& start) {
    Watch w;
    w.seats.reserve(2);
    for (int p = 0; p < 2; ++p) {
      w.seats.emplace_back(g, p);
      w.seats.back().dealt(start);
    }
    return w;
  }

  // BeliefError (a std::runtime_error) when a tracker meets an event it cannot explain.
  static void play(const GameDef& g, Watch& w, State& s, int action) {
    w.log.clear();
    {
      EventCapture capture(&w.log);
      apply_action(g, s, action);
    }
    for (Knowledge& k : w.seats)
      for (const Event& e : w.log) k.observe(e);
  }

  static Sampler view(const GameDef& g, const Watch& w, const State& s, int seat) {
    return Sampler(g, w.seats[(size_t)seat].spec(s));
  }

  // View.legal_moves: the moves of one state drawn from the view with seed 0, in text
  // order (game.view_legal_moves).
  static int listed_actions(const GameDef& g, const Sampler& view, int* out) {
    SplitMix64 rng(0);
    return legal_actions_sorted(g, view.sample(g, rng), out);
  }

  static int text_rank(const GameDef& g, int action) { return g.rank[(size_t)action]; }

  // legal.chance_outcomes: each card of the hand equally likely, by action id.
  static int chance_outcomes(const GameDef& g, const State& s, int* ids, double* probs) {
    int counts[MAX_CARDS];
    const int n = hzn::chance_outcomes(g, s, ids, counts);
    int total = 0;
    for (int i = 0; i < n; ++i) total += counts[i];
    std::vector<std::pair<int, double>> by_id;
    for (int i = 0; i < n; ++i) by_id.emplace_back(ids[i], (double)counts[i] / (double)total);
    std::sort(by_id.begin(), by_id.end());
    for (int i = 0; i < n; ++i) {
      ids[i] = by_id[(size_t)i].first;
      probs[i] = by_id[(size_t)i].second;
    }
    return n;
  }

  static int light_action(const GameDef& g, const State& s, SplitMix64& rng) { return hzn::light_action(g, s, rng); }
};

}  // namespace hzn
