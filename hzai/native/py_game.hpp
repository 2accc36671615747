// The PyGame adapter: a game written in Python, searched by the same templates as the
// native games (search/trait.hpp). Every call into Python takes the GIL; the search of
// a Python game runs on one thread with the GIL held between calls (its moves are
// Python code anyway). The Python names it calls are the seam's (docs/native.md):
//   State: clone(), current_seat, is_chance, is_terminal, legal_actions(),
//          apply_action(a), chance_outcomes_actions(), returns()
//   View:  sample(seed), current_seat, game;  Game: num_actions, seats,
//          observation(state, action, seat) (the multi-observer search only)
#pragma once

#include <pybind11/pybind11.h>

#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>

#include "search/trait.hpp"

namespace hzn {

namespace py = pybind11;

struct PythonGame {
  struct Game {
    py::object game;
    int num_actions = 0;
    int seats = 0;
  };
  using State = py::object;
  struct View {
    py::object view;   // a Python View: sample(seed) draws states
    py::object world;  // or (when set) one state, cloned for every draw: a PIMC world
    int seat = -1;
  };

  static constexpr int MAX_ACTIONS = 1 << 20;  // a bound on hostile sizes

  // The static game of a Python view, checked.
  static Game game_of(const py::object& view) {
    py::gil_scoped_acquire gil;
    Game g;
    g.game = view.attr("game");
    const long long n = g.game.attr("num_actions").cast<long long>();
    if (n < 1 || n > MAX_ACTIONS) throw std::invalid_argument("game.num_actions must be within 1.." + std::to_string(MAX_ACTIONS));
    g.num_actions = (int)n;
    g.seats = (int)py::len(g.game.attr("seats"));
    if (g.seats < 1 || g.seats > search::MAX_PLAYERS) throw std::invalid_argument("game.seats: the search plays 1 to 8 seats");
    return g;
  }

  static View view_of(const Game& g, const py::object& view) {
    py::gil_scoped_acquire gil;
    View v;
    v.view = view;
    const py::object seat = view.attr("current_seat");
    v.seat = seat.is_none() ? -1 : seat_index(g, seat, "view.current_seat");
    return v;
  }

  static int num_players(const Game& g) { return g.seats; }
  static int num_actions(const Game& g) { return g.num_actions; }
  static int max_legal(const Game& g) { return g.num_actions; }

  static int current_player(const Game& g, const State& s) {
    py::gil_scoped_acquire gil;
    if (s.attr("is_terminal").cast<bool>()) return search::TERMINAL;
    if (s.attr("is_chance").cast<bool>()) return search::CHANCE;
    const py::object seat = s.attr("current_seat");
    if (seat.is_none()) throw std::invalid_argument("state.current_seat is None in a state that is neither chance nor over");
    return seat_index(g, seat, "state.current_seat");
  }

  static int legal_actions(const Game& g, const State& s, int* out) {
    py::gil_scoped_acquire gil;
    const py::sequence actions = s.attr("legal_actions")();
    const size_t n = py::len(actions);
    if (n > (size_t)g.num_actions) throw std::invalid_argument("state.legal_actions() lists more actions than num_actions");
    for (size_t i = 0; i < n; ++i) out[i] = action_index(g, actions[i], "state.legal_actions()");
    return (int)n;
  }

  static void apply(const Game&, State& s, int action) {
    py::gil_scoped_acquire gil;
    s.attr("apply_action")(action);
  }

  // Drawn with the probabilities the game gives (normalised), from one number of the
  // generator, outcomes in the game's order.
  static int sample_chance(const Game& g, const State& s, SplitMix64& rng) {
    py::gil_scoped_acquire gil;
    const py::sequence outcomes = s.attr("chance_outcomes_actions")();
    const size_t n = py::len(outcomes);
    if (n == 0) throw std::invalid_argument("state.chance_outcomes_actions() is empty at a chance node");
    std::vector<std::pair<int, double>> items;
    double total = 0.0;
    for (size_t i = 0; i < n; ++i) {
      const py::sequence pair = outcomes[i];
      if (py::len(pair) != 2) throw std::invalid_argument("state.chance_outcomes_actions() gives (action, probability) pairs");
      const int a = action_index(g, pair[0], "state.chance_outcomes_actions()");
      const double p = pair[1].cast<double>();
      if (!(p >= 0.0) || !std::isfinite(p)) throw std::invalid_argument("a chance probability must be finite and ≥ 0");
      items.emplace_back(a, p);
      total += p;
    }
    if (!(total > 0.0)) throw std::invalid_argument("the chance probabilities sum to 0");
    const double u = rng.unit() * total;
    double acc = 0.0;
    for (const auto& [a, p] : items) {
      acc += p;
      if (u < acc) return a;
    }
    for (size_t i = items.size(); i-- > 0;)  // rounding at the top end: the last possible outcome
      if (items[i].second > 0.0) return items[i].first;
    return items.back().first;
  }

  static void returns(const Game& g, const State& s, double* out) {
    py::gil_scoped_acquire gil;
    const py::sequence r = s.attr("returns")();
    if ((int)py::len(r) != g.seats) throw std::invalid_argument("state.returns() gives one number per seat");
    for (int i = 0; i < g.seats; ++i) {
      out[i] = r[(size_t)i].cast<double>();
      if (!std::isfinite(out[i])) throw std::invalid_argument("state.returns() must be finite");
    }
  }

  static State clone(const Game&, const State& s) {
    py::gil_scoped_acquire gil;
    return s.attr("clone")();
  }

  static int view_player(const Game&, const View& v) { return v.seat; }

  static State determinize(const Game& g, const View& v, SplitMix64& rng) {
    py::gil_scoped_acquire gil;
    if (v.world) return clone(g, v.world);
    return v.view.attr("sample")(rng.next_u64());
  }

  static View world_view(const Game& g, const State& s) {
    py::gil_scoped_acquire gil;
    View v;
    v.world = clone(g, s);
    v.seat = current_player(g, s);
    return v;
  }

  // Game.observation (hzai.core): the action itself, or an id outside the action ids.
  static int observation(const Game& g, const State& s, int action, int seat) {
    py::gil_scoped_acquire gil;
    const long long key = g.game.attr("observation")(s, action, seat).cast<long long>();
    if (key >= 0 && key < g.num_actions && key != action)
      throw std::invalid_argument("game.observation() gave action id " + std::to_string(key) + " for action " +
                                  std::to_string(action) + ": a move not seen in full takes an id outside 0.." +
                                  std::to_string(g.num_actions - 1));
    if (key < INT_MIN || key > INT_MAX) throw std::invalid_argument("game.observation() must fit in 32 bits");
    return (int)key;
  }

  // A Python game has no playout policy of its own here: uniformly random.
  static void playout_step(const Game& g, State& s, SplitMix64& rng) {
    py::gil_scoped_acquire gil;
    if (current_player(g, s) == search::CHANCE) {
      apply(g, s, sample_chance(g, s, rng));
      return;
    }
    const py::sequence actions = s.attr("legal_actions")();
    const size_t n = py::len(actions);
    if (n == 0) throw std::invalid_argument("state.legal_actions() is empty in a running game");
    apply(g, s, action_index(g, actions[rng.below(n)], "state.legal_actions()"));
  }

 private:
  static int seat_index(const Game& g, const py::handle& seat, const char* what) {
    const int i = seat.cast<int>();
    if (i < 0 || i >= g.seats) throw std::invalid_argument(std::string(what) + " is not a seat of the game");
    return i;
  }
  static int action_index(const Game& g, const py::handle& a, const char* what) {
    const long long i = a.cast<long long>();
    if (i < 0 || i >= g.num_actions)
      throw std::invalid_argument(std::string(what) + " gave action " + std::to_string(i) + ", outside 0.." +
                                  std::to_string(g.num_actions - 1));
    return (int)i;
  }
};

}  // namespace hzn
