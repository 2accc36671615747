// The C++ twin of Toss-up (hzai/games/tossup/game.py, README.md): the game trait of the
// generic search (search/trait.hpp), its seats for the arena (search/arena.hpp) and the
// features of self-play's records (search/selfplay.hpp). Header only: the bindings,
// tossup_bindings.cpp, are its one source file.
//
// Action ids are the reference's: TpGame is built from the reference's move texts and
// finds each move's id by its text (never restated here).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "rng.hpp"
#include "search/trait.hpp"

namespace hzn::tossup {

constexpr int CARDS = 3;      // each seat's card is 1..CARDS
constexpr int MAX_MOVES = 3;  // bet, call, a toss

// The static game: the ids of the moves, found by their texts, and where each text sorts.
struct TpGame {
  int size = 0;  // action ids 0..size-1
  int fold = -1, bet = -1, call = -1, heads = -1, tails = -1;
  int guess[CARDS] = {-1, -1, -1};  // "guess 1".."guess 3"
  std::vector<int> text_rank;       // per action id

  explicit TpGame(const std::vector<std::string>& moves) {
    size = (int)moves.size();
    auto id = [&](const std::string& text) {
      const auto at = std::find(moves.begin(), moves.end(), text);
      if (at == moves.end()) throw std::invalid_argument("the moves lack '" + text + "'");
      return (int)(at - moves.begin());
    };
    fold = id("fold"), bet = id("bet"), call = id("call"), heads = id("heads"), tails = id("tails");
    for (int c = 0; c < CARDS; ++c) guess[c] = id("guess " + std::to_string(c + 1));
    std::vector<int> order((size_t)size);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return moves[(size_t)a] < moves[(size_t)b]; });
    text_rank.assign((size_t)size, 0);
    for (int r = 0; r < size; ++r) text_rank[(size_t)order[(size_t)r]] = r;
  }
  int guessed(int a) const {  // the card a guess names, else 0
    for (int c = 0; c < CARDS; ++c)
      if (guess[c] == a) return c + 1;
    return 0;
  }
};

struct TpState {
  int cards[2] = {1, 1};
  int history[MAX_MOVES] = {-1, -1, -1};
  int n = 0;
};

// One seat's view: its card and the moves (all public); `world` set for PIMC's worlds.
struct TpView {
  int seat = 0, card = 1;
  std::vector<int> history;
  std::shared_ptr<const TpState> world;
};

inline bool tossed(const TpGame& g, int a) { return a == g.heads || a == g.tails; }

inline int current_player(const TpGame& g, const TpState& s) {
  if (s.n == 0) return 0;
  if (s.n == 1) return s.history[0] == g.bet ? 1 : search::TERMINAL;
  if (s.n == 2 && s.history[1] == g.call && s.cards[0] == s.cards[1]) return search::CHANCE;
  return search::TERMINAL;
}

// The seat's legal moves by id (the reference's order: ascending ids).
inline int legal_actions(const TpGame& g, const TpState& s, int* out) {
  const int p = current_player(g, s);
  if (p < 0) return 0;
  int k = 0;
  int moves[2 + CARDS] = {g.fold, p == 0 ? g.bet : g.call, g.guess[0], g.guess[1], g.guess[2]};
  std::sort(moves, moves + 2 + CARDS);
  for (int a : moves) out[k++] = a;
  return k;
}

inline bool is_legal(const TpGame& g, const TpState& s, int a) {
  const int p = current_player(g, s);
  if (p == search::CHANCE) return tossed(g, a);
  int buf[2 + CARDS];
  const int n = legal_actions(g, s, buf);
  return std::find(buf, buf + n, a) != buf + n;
}

inline void returns(const TpGame& g, const TpState& s, double* out) {
  out[0] = out[1] = 0.0;
  if (current_player(g, s) != search::TERMINAL) return;
  const int last = s.history[s.n - 1], seat = s.n - 1;
  if (tossed(g, last)) {
    out[last == g.heads ? 0 : 1] = 1.0;
  } else if (last == g.call) {
    out[s.cards[0] > s.cards[1] ? 0 : 1] = 1.0;
  } else {
    const bool won = g.guessed(last) == s.cards[1 - seat];
    out[won ? seat : 1 - seat] = 1.0;
  }
}

// The other seat's cards the view allows (game.py other_cards), ascending.
inline int other_cards(const TpGame& g, const TpView& v, int* out) {
  bool toss = false;
  for (int a : v.history) toss = toss || tossed(g, a);
  if (toss) {
    out[0] = v.card;
    return 1;
  }
  const bool called = !v.history.empty() && v.history.back() == g.call;
  int k = 0;
  for (int c = 1; c <= CARDS; ++c)
    if (!called || c != v.card) out[k++] = c;
  return k;
}

// TossupView.sample: the other card drawn with one `below` of the generator.
inline TpState sample(const TpGame& g, const TpView& v, SplitMix64& rng) {
  int choices[CARDS];
  const int n = other_cards(g, v, choices);
  TpState s;
  s.cards[v.seat] = v.card;
  s.cards[1 - v.seat] = choices[rng.below((uint64_t)n)];
  for (int a : v.history) s.history[s.n++] = a;
  return s;
}

struct TossupSeats;
struct TpModel;

// The game trait (search/trait.hpp).
struct Tossup {
  using Game = TpGame;
  using State = TpState;
  using View = TpView;
  using Seats = TossupSeats;
  static int num_players(const Game&) { return 2; }
  static int num_actions(const Game& g) { return g.size; }
  static int max_legal(const Game&) { return 2 + CARDS; }
  static int current_player(const Game& g, const State& s) { return tossup::current_player(g, s); }
  static int legal_actions(const Game& g, const State& s, int* out) { return tossup::legal_actions(g, s, out); }
  static void apply(const Game&, State& s, int a) { s.history[s.n++] = a; }
  static int sample_chance(const Game& g, const State&, SplitMix64& rng) {
    return rng.below(2) == 0 ? g.heads : g.tails;
  }
  static void returns(const Game& g, const State& s, double* out) { tossup::returns(g, s, out); }
  static State clone(const Game&, const State& s) { return s; }
  static int view_player(const Game& g, const View& v) {
    if (v.world) return tossup::current_player(g, *v.world);
    SplitMix64 rng(0);
    const int p = tossup::current_player(g, sample(g, v, rng));
    return p == v.seat ? p : -1;
  }
  static State determinize(const Game& g, const View& v, SplitMix64& rng) {
    return v.world ? *v.world : sample(g, v, rng);
  }
  static View world_view(const Game&, const State& s) {
    View v;
    v.world = std::make_shared<const State>(s);
    return v;
  }
  static void playout_step(const Game& g, State& s, SplitMix64& rng) {  // the light policy is the random one
    int buf[2 + CARDS];
    const int p = tossup::current_player(g, s);
    if (p == search::CHANCE) return apply(g, s, sample_chance(g, s, rng));
    const int n = tossup::legal_actions(g, s, buf);
    apply(g, s, buf[rng.below((uint64_t)n)]);
  }
  static int observation(const Game&, const State&, int a, int) { return a; }  // every move is public

  // Self-play's records (search/selfplay.hpp): one-hot features, no learned model.
  using Model = TpModel;
  static int feature_count(const Game& g) { return 2 + CARDS + 2 * g.size; }
  static int view_features(const Game& g, const View& v, int32_t* out) {
    int k = 0;
    out[k++] = v.seat;
    out[k++] = 2 + v.card - 1;
    for (size_t i = 0; i < v.history.size(); ++i) out[k++] = 2 + CARDS + (int)std::min<size_t>(i, 1) * g.size + v.history[i];
    return k;
  }
  static int state_features(const Game& g, const State& s, int32_t* out) {
    View v;
    v.seat = tossup::current_player(g, s) == 1 ? 1 : 0;
    v.card = s.cards[v.seat];
    v.history.assign(s.history, s.history + s.n);
    return view_features(g, v, out);
  }
  static int label_count(const Game&) { return 1; }
  static void hidden_labels(const Game&, const State& s, const View&, int seat, int32_t* out) {
    out[0] = s.cards[1 - seat];  // the other seat's card
  }
  static void model_values(const Game&, const Model&, const State&, double* out);
  static void model_policy(const Game&, const Model&, const View&, const int* legal, int n, double* out);
  static View model_view(const Game&, const Model&, const View& v, int, uint64_t) { return v; }
};

// No net: the arena and self-play are handed none (a guided bot is refused before this).
struct TpModel {
  bool has_value = false, has_policy = false;
  bool has_cards() const { return false; }
};
inline void Tossup::model_values(const Game&, const Model&, const State&, double* out) { out[0] = out[1] = 0.5; }
inline void Tossup::model_policy(const Game&, const Model&, const View&, const int*, int n, double* out) {
  for (int i = 0; i < n; ++i) out[i] = 1.0 / n;
}

// The seats of a running game (search/arena.hpp): every move is public, so a seat's view
// is its card and the moves.
struct TossupSeats {
  struct Watch {};
  static Watch watch(const TpGame&, const TpState&) { return {}; }
  static void play(const TpGame&, Watch&, TpState& s, int a) { s.history[s.n++] = a; }
  static TpView view(const TpGame&, const Watch&, const TpState& s, int seat) {
    TpView v;
    v.seat = seat;
    v.card = s.cards[seat];
    v.history.assign(s.history, s.history + s.n);
    return v;
  }
  static int listed_actions(const TpGame& g, const TpView& v, int* out) {
    SplitMix64 rng(0);
    return tossup::legal_actions(g, sample(g, v, rng), out);
  }
  static int text_rank(const TpGame& g, int a) { return g.text_rank[(size_t)a]; }
  static int chance_outcomes(const TpGame& g, const TpState&, int* ids, double* probs) {
    ids[0] = std::min(g.heads, g.tails), ids[1] = std::max(g.heads, g.tails);
    probs[0] = probs[1] = 0.5;
    return 2;
  }
  static int light_action(const TpGame& g, const TpState& s, SplitMix64& rng) {
    int buf[2 + CARDS];
    const int n = tossup::legal_actions(g, s, buf);
    return buf[rng.below((uint64_t)n)];
  }
};

}  // namespace hzn::tossup
