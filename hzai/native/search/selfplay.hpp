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
// and the game's result once it ends. The first `explore_moves` decisions of a game are
// drawn from the root visits raised to 1 / temperature (exploration), the rest are the
// bot's own move. Game i is seeded like an arena game (decision k: mix_seed(seed, k)).
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arena.hpp"

namespace hzn::search {

struct SelfplayRecord {
  int seat = 0, move = 0;  // the deciding seat; the decision's number in the game
  bool explored = false;   // the move was drawn from the visits, not the bot's choice
  float root_value = 0.5f;
  std::vector<int32_t> view_features, state_features, labels;
  std::vector<std::pair<int32_t, float>> policy;  // (action id, share of the root visits)
};

struct SelfplayGame {
  std::vector<SelfplayRecord> records;
  std::vector<double> returns;  // per seat
  std::string error;            // set when the game could not be played (a tracker failed)
};

struct SelfplayOptions {
  int explore_moves = 8;
  double temperature = 1.0;
};

constexpr uint64_t EXPLORE_SALT = 0xE8B10;

template <class G>
SelfplayGame selfplay_game(const Arena<G>& arena, int bot, const typename G::State& start, uint64_t seed,
                           const SelfplayOptions& opt) {
  static_assert(has_model_v<G>, "self-play records need the game's features (trait.hpp, model_of)");
  using Seats = typename G::Seats;
  const auto& g = arena.game();
  const BotSpec& spec = arena.bot(bot);
  if (spec.kind != BOT_ISMCTS) throw std::invalid_argument("self-play needs an ISMCTS bot");
  SelfplayGame out;
  const int n = G::num_players(g);
  out.returns.assign((size_t)n, 0.0);
  typename G::State s = G::clone(g, start);
  auto watch = Seats::watch(g, s);
  SplitMix64 referee(seed ^ REFEREE_SALT);
  std::vector<int32_t> buf(4096);  // more than any game's active features
  int moves = 0, player;
  while ((player = G::current_player(g, s)) != TERMINAL) {
    int action;
    if (player == CHANCE) {
      action = chance_draw<G>(g, s, referee);
    } else {
      typename G::View view = Seats::view(g, watch, s, player);
      SelfplayRecord rec;
      rec.seat = player;
      rec.move = moves;
      int k = G::view_features(g, view, buf.data());
      rec.view_features.assign(buf.begin(), buf.begin() + k);
      k = G::state_features(g, s, buf.data());
      rec.state_features.assign(buf.begin(), buf.begin() + k);
      rec.labels.resize((size_t)G::label_count(g));
      G::hidden_labels(g, s, view, player, rec.labels.data());
      const uint64_t decision_seed = mix_seed(seed, (uint64_t)moves);
      std::vector<char> unvisited = view_legal<G>(g, view, decision_seed);  // by action id
      const std::vector<ChildStats> stats = arena.search_root(spec, std::move(view), decision_seed);
      long total = 0;
      double value = 0.0;
      for (const ChildStats& c : stats) {
        total += c.visits;
        value += c.value;
      }
      if (total <= 0) throw std::logic_error("the search made no visit");
      rec.root_value = (float)(value / (double)total);
      for (const ChildStats& c : stats)
        if (c.visits > 0) rec.policy.emplace_back(c.action, (float)((double)c.visits / (double)total));
      action = arena.best_of(stats);
      if (moves < opt.explore_moves && opt.temperature > 0.0) {
        SplitMix64 rng(mix_seed(decision_seed, EXPLORE_SALT));
        double sum = 0.0;
        std::vector<double> w(rec.policy.size());
        for (size_t i = 0; i < w.size(); ++i) sum += (w[i] = std::pow((double)rec.policy[i].second, 1.0 / opt.temperature));
        double point = (double)rng.next_u64() * 0x1.0p-64 * sum;
        int drawn = rec.policy.back().first;
        for (size_t i = 0; i < w.size(); ++i) {
          point -= w[i];
          if (point < 0) {
            drawn = rec.policy[i].first;
            break;
          }
        }
        rec.explored = drawn != action;
        action = drawn;
      }
      for (const auto& [a, share] : rec.policy) unvisited[(size_t)a] = 0;
      for (size_t a = 0; a < unvisited.size(); ++a)
        if (unvisited[a]) rec.policy.emplace_back((int32_t)a, 0.0f);
      out.records.push_back(std::move(rec));
      moves += 1;
    }
    Seats::play(g, watch, s, action);
  }
  G::returns(g, s, out.returns.data());
  return out;
}

}  // namespace hzn::search
