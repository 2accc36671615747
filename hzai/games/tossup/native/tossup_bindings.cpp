// Python bindings of the Toss-up twin (tossup.hpp): the game handle TossupGame, its states
// and views, the generic searches on the handle (TossupSearch, TossupPimc,
// TossupMoSearch: game_bindings.hpp), the light move, the arena and self-play;
// register_tossup, Toss-up in the module hzai._native (CMakeLists.txt finds this folder
// and generates the call).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "game_bindings.hpp"
#include "learn/py_nets.hpp"
#include "search/arena.hpp"
#include "tossup.hpp"

namespace py = pybind11;
using namespace hzn;
using namespace hzn::tossup;

namespace hzn::tossup {

struct TpGameHandle {
  std::shared_ptr<const TpGame> g;
};
struct TpStateHandle {
  std::shared_ptr<const TpGame> g;
  TpState s;
};
struct TpViewHandle {
  std::shared_ptr<const TpGame> g;
  TpView v;
};

}  // namespace hzn::tossup

namespace hzn {

// How Toss-up meets Python (game_bindings.hpp).
template <>
struct Binding<Tossup> {
  using Handle = TpGameHandle;
  using ViewArg = TpViewHandle;
  static constexpr const char* handle = "TossupGame";
  static constexpr const char* prefix = "Tossup";  // TossupSearch, TossupPimc, TossupMoSearch
  static std::shared_ptr<const TpGame> game(const Handle&, const ViewArg& v) { return v.g; }
  static const TpView& view(const TpGame& g, const ViewArg& v) {
    if (v.g.get() != &g) throw py::value_error("the view is of another game than the search's");
    return v.v;
  }
};

}  // namespace hzn

namespace {

void check_card(int card, const char* what) {
  if (card < 1 || card > CARDS) throw py::value_error(std::string(what) + " must be within 1..3, not " + std::to_string(card));
}

// The state after `history` from the deal `cards`, each move checked.
TpState state_of(const TpGame& g, const std::vector<int>& cards, const std::vector<int>& history) {
  if (cards.size() != 2) throw py::value_error("cards: one card for each of the two seats");
  check_card(cards[0], "cards[0]");
  check_card(cards[1], "cards[1]");
  TpState s;
  s.cards[0] = cards[0], s.cards[1] = cards[1];
  for (size_t i = 0; i < history.size(); ++i) {
    const int a = history[i];
    if (a < 0 || a >= g.size || !is_legal(g, s, a))
      throw py::value_error("history[" + std::to_string(i) + "]: action " + std::to_string(a) + " is not legal there");
    Tossup::apply(g, s, a);
  }
  return s;
}

std::vector<int> history_of(const TpState& s) { return std::vector<int>(s.history, s.history + s.n); }

}  // namespace

void register_tossup(py::module_& m) {
  py::class_<TpGameHandle>(m, "TossupGame", "the Toss-up twin's game (hzai/games/tossup/native/tossup.hpp)")
      .def(py::init([](const std::vector<std::string>& moves) {
             try {
               return TpGameHandle{std::make_shared<const TpGame>(moves)};
             } catch (const std::invalid_argument& e) {
               throw py::value_error(e.what());
             }
           }),
           py::arg("moves"), "from the reference's move texts by action id (hzai.games.tossup.game.MOVES)")
      .def_property_readonly("num_actions", [](const TpGameHandle& h) { return h.g->size; })
      .def("state", [](const TpGameHandle& h, const std::vector<int>& cards, const std::vector<int>& history) {
             return TpStateHandle{h.g, state_of(*h.g, cards, history)};
           }, py::arg("cards"), py::arg("history") = std::vector<int>{},
           "the state dealt `cards` (first, second) after the moves `history` (action ids), each checked")
      .def("view", [](const TpGameHandle& h, int seat, int card, const std::vector<int>& history) {
             if (seat < 0 || seat > 1) throw py::value_error("seat must be 0 or 1, not " + std::to_string(seat));
             check_card(card, "card");
             std::vector<int> cards{card, card};
             TpView v;
             v.seat = seat, v.card = card, v.history = history;
             int choices[CARDS];
             other_cards(*h.g, v, choices);
             cards[(size_t)(1 - seat)] = choices[0];
             state_of(*h.g, cards, history);  // the moves must be legal in a state the view allows
             return TpViewHandle{h.g, v};
           }, py::arg("seat"), py::arg("card"), py::arg("history") = std::vector<int>{},
           "one seat's view: its card and the moves so far (action ids)")
      .def_property_readonly("feature_count", [](const TpGameHandle& h) { return Tossup::feature_count(*h.g); });

  py::class_<TpStateHandle>(m, "TossupState", "a Toss-up state of the twin")
      .def_property_readonly("current_player", [](const TpStateHandle& h) { return current_player(*h.g, h.s); },
                             "a seat, -1 at chance, -2 at the end")
      .def_property_readonly("cards", [](const TpStateHandle& h) { return std::vector<int>{h.s.cards[0], h.s.cards[1]}; })
      .def_property_readonly("history", [](const TpStateHandle& h) { return history_of(h.s); })
      .def("legal_actions", [](const TpStateHandle& h) {
        int buf[2 + CARDS];
        return std::vector<int>(buf, buf + legal_actions(*h.g, h.s, buf));
      })
      .def("chance_outcomes", [](const TpStateHandle& h) {
        std::vector<std::pair<int, double>> out;
        if (current_player(*h.g, h.s) != search::CHANCE) return out;
        int ids[2];
        double probs[2];
        TossupSeats::chance_outcomes(*h.g, h.s, ids, probs);
        for (int i = 0; i < 2; ++i) out.emplace_back(ids[i], probs[i]);
        return out;
      }, "(action, probability) by id at a chance node; empty elsewhere")
      .def("apply", [](TpStateHandle& h, int a) {
        if (a < 0 || a >= h.g->size || !is_legal(*h.g, h.s, a))
          throw py::value_error("action " + std::to_string(a) + " is not legal here");
        Tossup::apply(*h.g, h.s, a);
      }, py::arg("action"))
      .def("returns", [](const TpStateHandle& h) {
        std::vector<double> out(2);
        returns(*h.g, h.s, out.data());
        return out;
      })
      .def("clone", [](const TpStateHandle& h) { return h; });

  py::class_<TpViewHandle>(m, "TossupView", "one seat's Toss-up view, as the twin's searches read it")
      .def_property_readonly("seat", [](const TpViewHandle& h) { return h.v.seat; })
      .def_property_readonly("current_player", [](const TpViewHandle& h) { return Tossup::view_player(*h.g, h.v); },
                             "the seat when it is to decide, else -1")
      .def("sample", [](const TpViewHandle& h, uint64_t seed) {
        SplitMix64 rng(seed);
        return TpStateHandle{h.g, sample(*h.g, h.v, rng)};
      }, py::arg("seed"), "one state the view allows: TossupView.sample(seed) of the reference");

  bind::bind_native_searches<Tossup>(m);  // after TossupGame: the searches are methods of its handle
  py::object handle = m.attr(Binding<Tossup>::handle);
  bind::bind_light_move<Tossup>(handle);
  using search::BOT_ISMCTS, search::BOT_LIGHT, search::BOT_PIMC, search::BOT_RANDOM;
  handle.attr("arena_kinds") = std::vector<int>{BOT_RANDOM, BOT_LIGHT, BOT_ISMCTS, BOT_PIMC};
  handle.attr("arena_needs_text_ranks") = false;  // the twin sorts the move texts it was made from
  auto states_of = [](const TpGameHandle& h, const std::vector<TpStateHandle>& starts) {
    std::vector<TpState> out;
    for (const TpStateHandle& st : starts) {
      if (st.g != h.g) throw py::value_error("a start state of another game");
      out.push_back(st.s);
    }
    return out;
  };
  auto no_model = [](const py::object& model) {
    if (!model.is_none()) throw py::value_error("tossup has no learned model: pass None");
  };
  handle.attr("arena") = py::cpp_function(
      [states_of, no_model](const TpGameHandle& h, const std::vector<search::BotSpec>& bots,
                            const std::vector<TpStateHandle>& starts, const std::vector<uint64_t>& seeds,
                            const std::vector<std::vector<int>>& seating, int threads, bool keep_actions,
                            const py::object& models) {
        if (!models.is_none() && py::len(models) > 0) no_model(models);
        const std::shared_ptr<const TpGame> g = h.g;
        return bind::play_games<Tossup>(g, bots, states_of(h, starts), seeds, seating, threads, keep_actions,
                                        [g](const TpState& s) { return TpStateHandle{g, s}; });
      },
      py::is_method(handle), py::arg("bots"), py::arg("starts"), py::arg("seeds"), py::arg("seating"),
      py::arg("threads") = 1, py::arg("keep_actions") = false, py::arg("models") = py::none(),
      "as Game.arena (search/arena.hpp): [(ArenaOutcome, final TossupState)]");
  handle.attr("selfplay") = py::cpp_function(
      [states_of, no_model](const TpGameHandle& h, const search::BotSpec& bot, const py::object& model,
                            const std::vector<TpStateHandle>& starts, const std::vector<uint64_t>& seeds, int threads,
                            int explore_moves, double temperature) {
        no_model(model);
        learn_py::check_selfplay_args(threads, starts.size(), seeds.size(), explore_moves, temperature);
        return learn_py::selfplay_records<Tossup>(h.g, bot, std::shared_ptr<TpModel>(), states_of(h, starts), seeds,
                                                 threads, explore_moves, temperature, Tossup::label_count(*h.g));
      },
      py::is_method(handle), py::arg("bot"), py::arg("model"), py::arg("starts"), py::arg("seeds"),
      py::arg("threads") = 1, py::arg("explore_moves") = 8, py::arg("temperature") = 1.0,
      "self-play records of one bot in every seat (search/selfplay.hpp): one dict of arrays a game");
}
