// Whole games between native bots, written once over the game trait (trait.hpp): the
// arena loop of hzai/search/arena.py (play_game, play_team_game) in C++, games spread
// over threads. docs/native.md, "The arena".
//
// A game plugs its seats in with `G::Seats`, a struct of static functions that follow a
// running game for every seat at once:
//
//   using Watch = ...;   // what every seat has seen of one game so far
//   Watch watch(const Game&, const State& start)           the seats at a fresh deal
//   void  play(const Game&, Watch&, State&, int action)     apply, and every seat observes
//   View  view(const Game&, const Watch&, const State&, int seat)   what `seat` knows now,
//                                                            built from what it observed
//   int   listed_actions(const Game&, const View&, int* out) the legal moves of the view
//                                                            in the order its reference
//                                                            View.legal_moves lists them
//   int   text_rank(const Game&, int action)                 where the action's notation
//                                                            sorts (the tie-break of analyze)
//   int   chance_outcomes(const Game&, const State&, int* ids, double* probs)  by id
//   int   light_action(const Game&, const State&, SplitMix64&)  the playout policy's move
//
// No peeking: a bot is handed only `view(...)` of its seat, never the state; the state
// serves the referee (chance) and the end.
//
// Game i: from `starts[i]`, seed `seeds[i]`, bot `seating[i][p]` in seat p. As the
// Python loop: decision k of a game is seeded mix_seed(seed, k); a referee draws chance
// outcomes from SplitMix64(seed ^ 0xA7E4A) by their probabilities in id order.
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ismcts.hpp"
#include "pimc.hpp"
#include "playout.hpp"

namespace hzn::search {

// The kinds of native bot (hzai/native/tables.def; Python reads it as ARENA_BOTS).
enum BotKind : int {
#define HZ_ARENA_BOT(ID, TEXT) BOT_##ID,
#include "../tables.def"
};

struct BotSpec {
  int kind = BOT_RANDOM;
  long iterations = 1000;  // ISMCTS: the whole budget; PIMC: split over the worlds
  double exploration = 0.7;
  int playout = PO_RANDOM;
  int worlds = 8;
  int threads = 1;  // ISMCTS's trees (root parallelism)
  bool own_only = false;  // ISMCTS: SearchOptions::own_only
  double root_widen = -1.0;  // ISMCTS: SearchOptions::root_widen
  // ISMCTS guided by the arena's learned model (docs/learning.md): which parts it uses
  // (value at the leaves, policy at the root, card model for its worlds), PUCT's constant
  // and how many worlds the card model weighs. No model: today's search.
  int model = -1;  // index into the arena's models; -1: none
  bool use_value = false, use_policy = false, use_cards = false;
  double cpuct = 0.25;  // hzai.search.ismcts.DEFAULT_CPUCT
  int pool = 200;
  double mix = 1.0;  // a leaf: mix * the value net + (1 - mix) * a playout
  bool partners = false;  // ISMCTS with own_only: partners' moves in the tree from the model's blueprint
};

struct ArenaOutcome {
  std::vector<double> returns;  // per seat
  int moves = 0;                // decisions (chance outcomes not counted)
  std::vector<int> actions;     // every action applied, chance outcomes included (when kept)
  std::vector<double> think_ms; // per seat
  std::vector<int> decisions;   // per seat
  std::string error;            // set when the game could not be played here (see Seats)
};

constexpr uint64_t REFEREE_SALT = 0xA7E4A;  // hzai/search/arena.py
constexpr uint64_t RANDOM_SALT = 0x5EED;     // hzai/search/simple.py RandomBot
constexpr uint64_t LIGHT_SALT = 0x116E7;     // hzai/search/simple.py LightBot
constexpr uint64_t CARDS_SALT = 0xCA4D5;     // the card model's pool: mix_seed(decision seed, CARDS_SALT)

inline void check_bot(const BotSpec& b) {
  if (b.kind < BOT_RANDOM || b.kind > BOT_PIMC) throw std::invalid_argument("unknown bot kind");
  if (b.kind >= BOT_ISMCTS && b.iterations < 1) throw std::invalid_argument("a searching bot needs ≥ 1 iteration");
  if (b.kind == BOT_PIMC && b.worlds < 1) throw std::invalid_argument("worlds must be ≥ 1");
  if (b.threads < 1) throw std::invalid_argument("threads must be ≥ 1");
  if (!(b.root_widen <= 4.0)) throw std::invalid_argument("root_widen must be ≤ 4 (< 0: the default)");
  if (!(b.cpuct > 0.0) || b.cpuct > 100.0) throw std::invalid_argument("cpuct must be within 0..100 (not 0)");
  if (b.pool < 1 || b.pool > 100000) throw std::invalid_argument("pool must be within 1..100000");
  if (!(b.mix >= 0.0 && b.mix <= 1.0)) throw std::invalid_argument("mix must be within 0..1");
  if (b.partners && (b.kind != BOT_ISMCTS || !b.own_only || b.model < 0))
    throw std::invalid_argument("partners draws the partners' moves from a model's blueprint: an ISMCTS bot with "
                                "own_only and a model");
}

inline bool guided(const BotSpec& b) {
  return b.model >= 0 && (b.use_value || b.use_policy || b.use_cards || b.partners);
}

// The light bot's move: the playout policy's move in one world drawn from the view.
template <class G>
int light_move(const typename G::Game& g, const typename G::View& view, uint64_t seed) {
  SplitMix64 rng(seed ^ LIGHT_SALT);
  const typename G::State world = G::determinize(g, view, rng);
  return G::Seats::light_action(g, world, rng);
}

// The chance outcome drawn as hzai.search.arena.referee_step draws it.
template <class G>
int chance_draw(const typename G::Game& g, const typename G::State& s, SplitMix64& referee) {
  std::vector<int> ids((size_t)G::max_legal(g) + 1);
  std::vector<double> probs(ids.size());
  const int n = G::Seats::chance_outcomes(g, s, ids.data(), probs.data());
  if (n <= 0) throw std::logic_error("a chance node without outcomes");
  double point = (double)referee.next_u64() * 0x1.0p-64;
  int action = ids[0];
  for (int i = 0; i < n; ++i) {
    action = ids[(size_t)i];
    point -= probs[(size_t)i];
    if (point < 0) break;
  }
  return action;
}

template <class G>
class Arena {
  static_assert(check_trait<G>());

 public:
  using Game = typename G::Game;
  using State = typename G::State;
  using View = typename G::View;
  using Seats = typename G::Seats;

  using Model = typename model_of<G>::type;

  // `models`: what the guided bots (BotSpec::model, use_*) search with.
  Arena(std::shared_ptr<const Game> g, std::vector<BotSpec> bots, std::vector<std::shared_ptr<const Model>> models = {})
      : g_(std::move(g)), bots_(std::move(bots)), models_(std::move(models)) {
    if (bots_.empty()) throw std::invalid_argument("no bot");
    for (const BotSpec& b : bots_) {
      check_bot(b);
      if (b.model >= (int)models_.size() || (b.model >= 0 && !models_[(size_t)b.model]))
        throw std::invalid_argument("a bot names a model the arena was not given");
      if (guided(b) && b.kind != BOT_ISMCTS) throw std::invalid_argument("only an ISMCTS bot is guided by a model");
    }
  }

  // One game, played to its end on this thread; `s` ends as the final state.
  ArenaOutcome play(const State& start, uint64_t seed, const std::vector<int>& seating, bool keep_actions,
                    State& s) const {
    const Game& g = *g_;
    const int n = G::num_players(g);
    if ((int)seating.size() != n) throw std::invalid_argument("seating must name a bot for every seat");
    for (int b : seating)
      if (b < 0 || b >= (int)bots_.size()) throw std::invalid_argument("seating names no such bot");
    ArenaOutcome out;
    out.returns.assign((size_t)n, 0.0);
    out.think_ms.assign((size_t)n, 0.0);
    out.decisions.assign((size_t)n, 0);
    s = G::clone(g, start);
    auto watch = Seats::watch(g, s);
    SplitMix64 referee(seed ^ REFEREE_SALT);
    int player;
    while ((player = G::current_player(g, s)) != TERMINAL) {
      int action;
      if (player == CHANCE) {
        action = chance_draw<G>(g, s, referee);
      } else {
        const auto begin = std::chrono::steady_clock::now();
        action = decide(bots_[(size_t)seating[(size_t)player]], Seats::view(g, watch, s, player),
                        mix_seed(seed, (uint64_t)out.moves));
        out.think_ms[(size_t)player] +=
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        out.decisions[(size_t)player] += 1;
        out.moves += 1;
      }
      if (keep_actions) out.actions.push_back(action);
      Seats::play(g, watch, s, action);
    }
    G::returns(g, s, out.returns.data());
    return out;
  }

  // Game i from starts[i] with seeds[i] and seating[i], spread over `threads` threads;
  // `finish(i, outcome, final state)` once each game ends (from the thread that played
  // it). A game that throws std::runtime_error (a seat's tracker or sampler that cannot
  // go on) is reported with its error text; any other exception stops the batch.
  template <class Finish>
  void play_all(const std::vector<State>& starts, const std::vector<uint64_t>& seeds,
                const std::vector<std::vector<int>>& seating, bool keep_actions, int threads, Finish finish) const {
    if (starts.size() != seeds.size() || starts.size() != seating.size())
      throw std::invalid_argument("starts, seeds and seating must have one entry per game");
    parallel_indices((long)starts.size(), threads, 1, [&](long i) {
      ArenaOutcome o;
      State end = G::clone(*g_, starts[(size_t)i]);
      try {
        o = play(starts[(size_t)i], seeds[(size_t)i], seating[(size_t)i], keep_actions, end);
      } catch (const std::runtime_error& e) {
        o = ArenaOutcome{};
        o.error = e.what();
      }
      finish(i, std::move(o), end);
    });
  }

 private:
  int decide(const BotSpec& b, View view, uint64_t seed) const {
    const Game& g = *g_;
    if (b.kind == BOT_RANDOM) {
      std::vector<int> listed((size_t)G::max_legal(g));
      const int n = Seats::listed_actions(g, view, listed.data());
      if (n <= 0) throw std::logic_error("no legal move for the seat to decide");
      SplitMix64 rng(seed ^ RANDOM_SALT);
      return listed[(size_t)rng.below((uint64_t)n)];
    }
    if (b.kind == BOT_LIGHT) return light_move<G>(g, view, seed);
    if (b.kind == BOT_ISMCTS) return best_of(search_root(b, std::move(view), seed));
    SearchOptions o;
    o.exploration = b.exploration;
    o.playout = b.playout;
    o.seed = seed;
    if (b.kind == BOT_PIMC) {
      o.threads = 1;
      Pimc<G> pimc(g_, std::move(view), o, b.worlds);
      const int action = pimc.decide(std::max(1L, b.iterations / b.worlds), -1.0);
      if (action < 0) throw std::logic_error("PIMC found no move");
      return action;
    }
    throw std::logic_error("unknown bot kind");
  }

 public:
  // The root of an ISMCTS bot's search of `view` (b.kind BOT_ISMCTS), its budget spent.
  std::vector<ChildStats> search_root(const BotSpec& b, View view, uint64_t seed) const {
    SearchOptions o;
    o.exploration = b.exploration;
    o.playout = b.playout;
    o.seed = seed;
    o.threads = b.threads;
    o.widen_root = true;  // a bot's move, as IsmctsBot.decide searches it (widening.hpp)
    o.own_only = b.own_only;
    o.partners_blueprint = b.partners;
    o.root_widen = b.root_widen;
    if constexpr (has_model_v<G>) {
      if (guided(b) && b.use_cards)  // a pool of at most the budget's worlds, as hzai.search.ismcts.guided
        view = G::model_view(*g_, *models_[(size_t)b.model], view, (int)std::min<long>(b.pool, b.iterations),
                             mix_seed(seed, CARDS_SALT));
    }
    Ismcts<G> search(g_, std::move(view), o);
    if constexpr (has_model_v<G>) {
      if (guided(b)) search.set_model(models_[(size_t)b.model], b.use_value, b.use_policy, b.cpuct, b.mix);
    }
    search.run(b.iterations, -1.0);
    return search.root_stats();
  }

  // hzai.search.ismcts.analyze's best move: most visits, then the higher mean value,
  // then the notation that sorts first.
  int best_of(const std::vector<ChildStats>& stats) const {
    const ChildStats* best = nullptr;
    for (const ChildStats& c : stats) {
      if (!best) {
        best = &c;
        continue;
      }
      const double mean = c.visits ? c.value / (double)c.visits : 0.0;
      const double best_mean = best->visits ? best->value / (double)best->visits : 0.0;
      if (c.visits != best->visits ? c.visits > best->visits
                                   : mean != best_mean ? mean > best_mean
                                                       : Seats::text_rank(*g_, c.action) < Seats::text_rank(*g_, best->action))
        best = &c;
    }
    if (!best) throw std::logic_error("the search found no move");
    return best->action;
  }

  const BotSpec& bot(int i) const { return bots_.at((size_t)i); }
  const Game& game() const { return *g_; }

 private:
  std::shared_ptr<const Game> g_;
  std::vector<BotSpec> bots_;
  std::vector<std::shared_ptr<const Model>> models_;
};

}  // namespace hzn::search
