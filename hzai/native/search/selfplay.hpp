// Self-play records for training (docs/learning.md), written once over the game trait:
// one ISMCTS bot plays every seat of a game, each seat from its own view (Seats::view, as
// in the arena: no peeking), and each decision leaves a record of
//   - the deciding seat's view features (what the policy and card-location nets read),
//   - the features of the true state (what the value net reads at a leaf),
//   - the root's visit distribution over action ids (the policy target), then every
//     other legal move of the root with a share of 0: a root that widens in its
//     policy's order (widening.hpp) visits a few moves only, and a policy that scores
//     action features (Legends, hzai/learn/factored.py) is trained over the moves a
//     record lists, so the ones the search passed over must be there to learn against,
//   - the root's mean value for the deciding seat,
//   - the hidden truth as labels only (G::hidden_labels), never an input,
//   - the oracle value: the model's value net on the TRUE state, for the deciding seat
//     (what an all-seeing judge of the position would say), a label only: it is computed
//     from the referee's state after the decision's move is chosen and is written into
//     the record alone, never handed to a search or a policy (NaN without a value net),
// and the game's result once it ends. The first `explore_moves` decisions of a game are
// drawn from the root visits raised to 1 / temperature (exploration), the rest are the
// bot's own move. Game i is seeded like an arena game (decision k: mix_seed(seed, k)).
//
// Playout-cap randomisation (docs/learning.md, "Cheap self-play and blended targets"):
// each decision is a FULL search (the bot's budget, the record as above, `full` set)
// with probability `full_share`, drawn from the decision's seed; otherwise a FAST one:
// the model's policy alone (fast_budget 0: its probabilities over the view's legal moves,
// drawn at `temperature` in the opening and at `fast_temperature` after it, 0 being the
// most probable move) or a search of `fast_budget` iterations. A fast decision's record
// is kept with probability `keep` (drawn from the decision's seed too), as a value-only
// record: no policy target (an empty policy list), root value NaN, `full` clear. With
// full_share 1 every decision is today's record, move for move.
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arena.hpp"

namespace hzn::search {

struct SelfplayRecord {
  int seat = 0, move = 0;  // the deciding seat; the decision's number in the game
  int action = -1;         // the move played
  int turn = -1;           // the game's stage (SelfplayStage): 0 setup, k ≥ 1 the k-th turn, -1 unknown
  bool explored = false;   // the move was drawn (opening), not the bot's choice
  bool full = true;        // a full search's record (policy target and root value); else value-only
  float root_value = 0.5f; // the deciding seat's; NaN in a value-only record
  float oracle_value = std::numeric_limits<float>::quiet_NaN();  // the value net on the true state
  std::vector<int32_t> view_features, state_features, labels;
  std::vector<std::pair<int32_t, float>> policy;  // (action id, share of the root visits)
};

struct SelfplayGame {
  std::vector<SelfplayRecord> records;
  std::vector<double> returns;  // per seat
  int decisions = 0, full_decisions = 0;  // every decision of the game, kept or not; the full ones
  std::string error;            // set when the game could not be played (a tracker failed)
};

struct SelfplayOptions {
  int explore_moves = 8;
  double temperature = 1.0;
  double full_share = 1.0;        // share of decisions searched with the bot's whole budget
  long fast_budget = 0;           // iterations of a fast decision's search; 0: the policy alone
  double keep = 1.0;              // share of fast decisions recorded (value-only)
  double fast_temperature = 0.0;  // a fast decision after the opening: 0 the top move, else a draw
};

constexpr uint64_t EXPLORE_SALT = 0xE8B10;
constexpr uint64_t CAP_SALT = 0xCA9F0;   // full or fast
constexpr uint64_t KEEP_SALT = 0x4EE90;  // a fast decision's record kept or not

// The game's stage of a state, for reports by phase of the game: 0 the setup, k ≥ 1 the
// k-th turn of play, -1 where the game does not say (the default). A game's bindings
// specialise it (hera_zeus's learn_bindings.cpp); the search never reads it.
template <class G>
struct SelfplayStage {
  static int of(const typename G::Game&, const typename G::State&) { return -1; }
};

inline void check_selfplay_options(const SelfplayOptions& o) {
  if (o.explore_moves < 0 || !(o.temperature >= 0.0) || o.temperature > 100.0)
    throw std::invalid_argument("explore_moves must be ≥ 0 and temperature within 0..100");
  if (!(o.full_share >= 0.0 && o.full_share <= 1.0)) throw std::invalid_argument("full_share must be within 0..1");
  if (o.fast_budget < 0 || o.fast_budget > 1000000) throw std::invalid_argument("fast_budget must be within 0..1000000");
  if (!(o.keep >= 0.0 && o.keep <= 1.0)) throw std::invalid_argument("keep must be within 0..1");
  if (!(o.fast_temperature >= 0.0) || o.fast_temperature > 100.0)
    throw std::invalid_argument("fast_temperature must be within 0..100");
}

inline double unit_draw(uint64_t seed) { return (double)SplitMix64(seed).next_u64() * 0x1.0p-64; }

// Index i of `w` drawn with probability w[i]^(1/temperature) (temperature 0: the first
// largest), from `rng`.
inline size_t draw_index(const std::vector<double>& w, double temperature, SplitMix64& rng) {
  if (w.empty()) throw std::logic_error("nothing to draw from");
  size_t top = 0;
  for (size_t i = 1; i < w.size(); ++i)
    if (w[i] > w[top]) top = i;
  if (temperature <= 0.0) return top;
  std::vector<double> p(w.size());
  double sum = 0.0;
  for (size_t i = 0; i < w.size(); ++i) sum += (p[i] = w[i] > 0.0 ? std::pow(w[i] / w[top], 1.0 / temperature) : 0.0);
  double point = (double)rng.next_u64() * 0x1.0p-64 * sum;
  for (size_t i = 0; i < p.size(); ++i) {
    point -= p[i];
    if (point < 0) return i;
  }
  return top;
}

// `model`: the model the arena's bot is guided by (the policy of policy-only decisions,
// the oracle's value net), or null.
template <class G>
SelfplayGame selfplay_game(const Arena<G>& arena, int bot, const typename G::State& start, uint64_t seed,
                           const SelfplayOptions& opt, const typename model_of<G>::type* model = nullptr) {
  static_assert(has_model_v<G>, "self-play records need the game's features (trait.hpp, model_of)");
  using Seats = typename G::Seats;
  const auto& g = arena.game();
  const BotSpec& spec = arena.bot(bot);
  if (spec.kind != BOT_ISMCTS) throw std::invalid_argument("self-play needs an ISMCTS bot");
  check_selfplay_options(opt);
  const bool policy_only = opt.full_share < 1.0 && opt.fast_budget == 0;
  if (policy_only && (!model || !model->has_policy))
    throw std::invalid_argument("policy-only fast decisions (fast_budget 0, full_share below 1) need a model "
                                "with a policy net");
  BotSpec fast = spec;
  if (opt.fast_budget > 0) fast.iterations = opt.fast_budget;
  SelfplayGame out;
  const int n = G::num_players(g);
  out.returns.assign((size_t)n, 0.0);
  typename G::State s = G::clone(g, start);
  auto watch = Seats::watch(g, s);
  SplitMix64 referee(seed ^ REFEREE_SALT);
  std::vector<int32_t> buf(4096);  // more than any game's active features
  std::vector<double> values((size_t)n);
  std::vector<int> ids;
  std::vector<double> probs;
  int moves = 0, player;
  while ((player = G::current_player(g, s)) != TERMINAL) {
    int action;
    if (player == CHANCE) {
      action = chance_draw<G>(g, s, referee);
    } else {
      const uint64_t decision_seed = mix_seed(seed, (uint64_t)moves);
      const bool full = opt.full_share >= 1.0 || unit_draw(mix_seed(decision_seed, CAP_SALT)) < opt.full_share;
      const bool kept = full || (opt.keep > 0.0 && unit_draw(mix_seed(decision_seed, KEEP_SALT)) < opt.keep);
      typename G::View view = Seats::view(g, watch, s, player);
      SelfplayRecord rec;
      rec.seat = player;
      rec.move = moves;
      rec.full = full;
      if (kept) {  // features and labels first: the search takes the view
        int k = G::view_features(g, view, buf.data());
        rec.view_features.assign(buf.begin(), buf.begin() + k);
        k = G::state_features(g, s, buf.data());
        rec.state_features.assign(buf.begin(), buf.begin() + k);
        rec.labels.resize((size_t)G::label_count(g));
        G::hidden_labels(g, s, view, player, rec.labels.data());
        rec.turn = SelfplayStage<G>::of(g, s);
      }
      const bool opening = moves < opt.explore_moves && opt.temperature > 0.0;
      SplitMix64 rng(mix_seed(decision_seed, EXPLORE_SALT));
      if (!full && opt.fast_budget == 0) {  // the policy alone, from the view
        const std::vector<char> legal = view_legal<G>(g, view, decision_seed);
        ids.clear();
        for (size_t a = 0; a < legal.size(); ++a)
          if (legal[a]) ids.push_back((int)a);
        if (ids.empty()) throw std::logic_error("no legal move for the seat to decide");
        probs.assign(ids.size(), 0.0);
        G::model_policy(g, *model, view, ids.data(), (int)ids.size(), probs.data());
        const size_t top = draw_index(probs, 0.0, rng);
        const size_t i = draw_index(probs, opening ? opt.temperature : opt.fast_temperature, rng);
        action = ids[i];
        rec.explored = i != top;
        rec.root_value = std::numeric_limits<float>::quiet_NaN();
      } else {
        std::vector<char> unvisited;
        if (full) unvisited = view_legal<G>(g, view, decision_seed);  // by action id
        const std::vector<ChildStats> stats = arena.search_root(full ? spec : fast, std::move(view), decision_seed);
        long total = 0;
        double value = 0.0;
        for (const ChildStats& c : stats) {
          total += c.visits;
          value += c.value;
        }
        if (total <= 0) throw std::logic_error("the search made no visit");
        rec.root_value = full ? (float)(value / (double)total) : std::numeric_limits<float>::quiet_NaN();
        std::vector<std::pair<int32_t, float>> visits;
        for (const ChildStats& c : stats)
          if (c.visits > 0) visits.emplace_back(c.action, (float)((double)c.visits / (double)total));
        action = arena.best_of(stats);
        const double temperature = opening ? opt.temperature : (full ? 0.0 : opt.fast_temperature);
        if (temperature > 0.0) {
          // Today's draw (full decisions' records stay move for move what they were).
          double sum = 0.0;
          std::vector<double> w(visits.size());
          for (size_t i = 0; i < w.size(); ++i) sum += (w[i] = std::pow((double)visits[i].second, 1.0 / temperature));
          double point = (double)rng.next_u64() * 0x1.0p-64 * sum;
          int drawn = visits.back().first;
          for (size_t i = 0; i < w.size(); ++i) {
            point -= w[i];
            if (point < 0) {
              drawn = visits[i].first;
              break;
            }
          }
          rec.explored = drawn != action;
          action = drawn;
        }
        if (full) {
          rec.policy = std::move(visits);
          for (const auto& [a, share] : rec.policy) unvisited[(size_t)a] = 0;
          for (size_t a = 0; a < unvisited.size(); ++a)
            if (unvisited[a]) rec.policy.emplace_back((int32_t)a, 0.0f);
        }
      }
      if (kept) {
        rec.action = action;
        if (model && model->has_value) {  // the oracle: a label, from the referee's state
          G::model_values(g, *model, s, values.data());
          rec.oracle_value = (float)values[(size_t)player];
        }
        out.records.push_back(std::move(rec));
      }
      out.decisions += 1;
      out.full_decisions += full ? 1 : 0;
      moves += 1;
    }
    Seats::play(g, watch, s, action);
  }
  G::returns(g, s, out.returns.data());
  return out;
}

}  // namespace hzn::search
