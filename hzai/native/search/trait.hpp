// The game trait: what the generic search (ismcts.hpp, pimc.hpp, playout.hpp) needs from
// a game, resolved at compile time (static dispatch, no virtual calls). docs/native.md.
//
// A game plugs in as a struct G of types and static functions:
//
//   using Game  = ...;  // the static game (rules data), read-only, shared by all threads
//   using State = ...;  // one full state, changed in place by apply
//   using View  = ...;  // the information set of one seat: determinize draws from it
//
//   int   num_players(const Game&)                      seats (1..MAX_PLAYERS)
//   int   num_actions(const Game&)                      action ids are 0..num_actions-1
//   int   max_legal(const Game&)                        most legal actions in one state
//   int   current_player(const Game&, const State&)     a seat, CHANCE or TERMINAL
//   int   legal_actions(const Game&, const State&, int* out)   count; a fixed order per state
//   void  apply(const Game&, State&, int action)
//   int   sample_chance(const Game&, const State&, SplitMix64&)  the outcome action, drawn
//                                                       with the game's distribution
//   void  returns(const Game&, const State&, double* out)  per seat at the end: win 1,
//                                                       draw 0.5, loss 0 (a team's result
//                                                       for each of its seats)
//   State clone(const Game&, const State&)              an independent copy
//   int   view_player(const Game&, const View&)         the seat to decide, or < 0
//   State determinize(const Game&, const View&, SplitMix64&)  one state consistent with it
//   View  world_view(const Game&, const State&)         what a seat that saw every card
//                                                       would know (PIMC searches those)
//   void  playout_step(const Game&, State&, SplitMix64&)  one move of the game's own
//                                                       playout policy (chance included)
//
// Optional (detected; the multi-observer search, mo_ismcts.hpp, needs it):
//   int   observation(const Game&, const State&, int action, int seat)
//         what `seat` sees of `action`, about to be played by the current player in
//         `state`: the action id itself when the seat sees it in full (always for the
//         mover's own moves), else an id outside 0..num_actions-1 that is the same for
//         every action the seat cannot tell apart there
//   double prior(const Game&, const State&, int action)
//         a cheap judgment of a legal action of the player to move, 0..1 (0.5: no
//         opinion); the searches' progressive bias (SearchOptions::prior_weight) uses it
#pragma once

#include <type_traits>
#include <utility>

#include "../rng.hpp"

namespace hzn::search {

constexpr int CHANCE = -1;    // current_player at a chance node
constexpr int TERMINAL = -2;  // current_player once the game is over
constexpr int MAX_PLAYERS = 8;

// Whether G has the optional observation member (any signature: check_trait checks it).
template <class G, class = void>
struct has_observation : std::false_type {};
template <class G>
struct has_observation<G, std::void_t<decltype(&G::observation)>> : std::true_type {};

template <class G, class = void>
struct has_prior : std::false_type {};

// Optional learned models (docs/learning.md): a game with `using Model = ...` offers
//   void model_values(const Game&, const Model&, const State&, double* out)  every
//        seat's score of a state by the value net (a leaf of the search)
//   void model_policy(const Game&, const Model&, const View&, const int* legal, int n,
//        double* out)  the policy net's probabilities of the view's n legal actions
//   View model_view(const Game&, const Model&, const View&, int pool, uint64_t seed)
//        the view with its worlds weighted by the card-location model
// and, for self-play records, feature_count / view_features / state_features /
// label_count / hidden_labels. model_of<G>::type is void for a game without them.
template <class G, class = void>
struct model_of {
  using type = void;
};
template <class G>
struct model_of<G, std::void_t<typename G::Model>> {
  using type = typename G::Model;
};
template <class G>
constexpr bool has_model_v = !std::is_void_v<typename model_of<G>::type>;
template <class G>
struct has_prior<G, std::void_t<decltype(&G::prior)>> : std::true_type {};

// Optional with a model: void model_state_policy(const Game&, const Model&, const State&,
// int seat, const int* legal, int n, double* out), the policy net's probabilities of the
// n legal actions of `seat` in a drawn world, read from that seat's own picture of it
// (the blueprint a partner plays inside the tree: SearchOptions::partners_blueprint).
template <class G, class = void>
struct has_state_policy : std::false_type {};
template <class G>
struct has_state_policy<G, std::void_t<decltype(&G::model_state_policy)>> : std::true_type {};

// Compile-time check that G has the trait's members with the expected signatures: a
// game that misses one fails here with the member's name, not deep inside a template.
template <class G>
constexpr bool check_trait() {
  using Game = typename G::Game;
  using State = typename G::State;
  using View = typename G::View;
  static_assert(std::is_same_v<decltype(G::num_players(std::declval<const Game&>())), int>, "num_players");
  static_assert(std::is_same_v<decltype(G::num_actions(std::declval<const Game&>())), int>, "num_actions");
  static_assert(std::is_same_v<decltype(G::max_legal(std::declval<const Game&>())), int>, "max_legal");
  static_assert(std::is_same_v<decltype(G::current_player(std::declval<const Game&>(), std::declval<const State&>())), int>,
                "current_player");
  static_assert(std::is_same_v<decltype(G::legal_actions(std::declval<const Game&>(), std::declval<const State&>(),
                                                         std::declval<int*>())), int>, "legal_actions");
  static_assert(std::is_same_v<decltype(G::apply(std::declval<const Game&>(), std::declval<State&>(), 0)), void>, "apply");
  static_assert(std::is_same_v<decltype(G::sample_chance(std::declval<const Game&>(), std::declval<const State&>(),
                                                         std::declval<SplitMix64&>())), int>, "sample_chance");
  static_assert(std::is_same_v<decltype(G::returns(std::declval<const Game&>(), std::declval<const State&>(),
                                                   std::declval<double*>())), void>, "returns");
  static_assert(std::is_same_v<decltype(G::clone(std::declval<const Game&>(), std::declval<const State&>())), State>, "clone");
  static_assert(std::is_same_v<decltype(G::view_player(std::declval<const Game&>(), std::declval<const View&>())), int>,
                "view_player");
  static_assert(std::is_same_v<decltype(G::determinize(std::declval<const Game&>(), std::declval<const View&>(),
                                                       std::declval<SplitMix64&>())), State>, "determinize");
  static_assert(std::is_same_v<decltype(G::world_view(std::declval<const Game&>(), std::declval<const State&>())), View>,
                "world_view");
  static_assert(std::is_same_v<decltype(G::playout_step(std::declval<const Game&>(), std::declval<State&>(),
                                                        std::declval<SplitMix64&>())), void>, "playout_step");
  return true;
}

}  // namespace hzn::search
