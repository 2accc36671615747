// Python bindings of the arena (search/arena.hpp): bot specs and game outcomes as typed
// structs, and `arena(...)` on each native game handle that has seats for it, playing
// its games with the GIL released (hzai/search/arena.py names no game).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "hz_learn.hpp"
#include "legends_py.hpp"
#include "native_games.hpp"
#include "py_types.hpp"
#include "search/arena.hpp"
#include "seats.hpp"

namespace py = pybind11;
using namespace hzn;
using search::ArenaOutcome;
using search::BotSpec;

namespace {

// Plays the games and pairs each outcome with its final state, wrapped by `wrap`.
template <class G, class Wrap>
py::list play_games(std::shared_ptr<const typename G::Game> g, const std::vector<BotSpec>& bots,
                    std::vector<typename G::State> starts, const std::vector<uint64_t>& seeds,
                    const std::vector<std::vector<int>>& seating, int threads, bool keep_actions, Wrap wrap,
                    std::vector<std::shared_ptr<const typename search::model_of<G>::type>> models = {}) {
  if (threads < 1 || threads > 256) throw py::value_error("threads must be within 1..256");
  std::unique_ptr<search::Arena<G>> made;
  try {
    made = std::make_unique<search::Arena<G>>(g, bots, models);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  const search::Arena<G>& arena = *made;
  std::vector<ArenaOutcome> outcomes(starts.size());
  std::vector<typename G::State> ends(starts);
  {
    py::gil_scoped_release unlocked;
    arena.play_all(starts, seeds, seating, keep_actions, threads,
                   [&](long i, ArenaOutcome&& o, const typename G::State& end) {
                     outcomes[(size_t)i] = std::move(o);
                     ends[(size_t)i] = end;
                   });
  }
  py::list out;
  for (size_t i = 0; i < outcomes.size(); ++i) out.append(py::make_tuple(outcomes[i], wrap(ends[i])));
  return out;
}

using search::BOT_ISMCTS, search::BOT_LIGHT, search::BOT_PIMC, search::BOT_RANDOM;

// The arena of each native game (the list: native_games.hpp): the bot kinds it plays
// natively, whether it needs the notation's sort ranks, and `arena(...)` on its handle.
template <class G>
void bind_game_arena(py::object handle);

template <>
void bind_game_arena<HeraZeus>(py::object handle) {
  handle.attr("arena_kinds") = std::vector<int>{BOT_RANDOM, BOT_LIGHT, BOT_ISMCTS, BOT_PIMC};
  handle.attr("arena_needs_text_ranks") = false;
  handle.attr("arena") = py::cpp_function(
      [](const PyGame& g, const std::vector<BotSpec>& bots, const std::vector<PyState>& starts,
         const std::vector<uint64_t>& seeds, const std::vector<std::vector<int>>& seating, int threads,
         bool keep_actions, const std::vector<std::shared_ptr<HzModel>>& models) {
        std::vector<State> states;
        for (const PyState& st : starts) {
          if (st.def != g.def) throw py::value_error("a start state of another game");
          states.push_back(st.s);
        }
        auto def = g.def;
        return play_games<HeraZeus>(def, bots, std::move(states), seeds, seating, threads, keep_actions,
                                    [def](const State& s) { return PyState{def, s}; },
                                    std::vector<std::shared_ptr<const HzModel>>(models.begin(), models.end()));
      },
      py::is_method(handle), py::arg("bots"), py::arg("starts"), py::arg("seeds"), py::arg("seating"),
      py::arg("threads") = 1, py::arg("keep_actions") = false,
      py::arg("models") = std::vector<std::shared_ptr<HzModel>>{},
      "game i from starts[i] with seeds[i], bot seating[i][p] in seat p; [(ArenaOutcome, final State)]");
}

template <>
void bind_game_arena<lg::Legends>(py::object handle) {
  handle.attr("arena_kinds") = std::vector<int>{BOT_LIGHT, BOT_ISMCTS, BOT_PIMC};
  handle.attr("arena_needs_text_ranks") = true;
  handle.attr("arena") = py::cpp_function(
      [](const lg::LgGameHandle& h, const std::vector<BotSpec>& bots, const std::vector<lg::LgStateHandle>& starts,
         const std::vector<uint64_t>& seeds, const std::vector<std::vector<int>>& seating, int threads,
         bool keep_actions, const std::vector<int32_t>& text_ranks, const std::vector<std::shared_ptr<lg::LgModel>>& models) {
        for (const BotSpec& b : bots)
          if (b.kind == BOT_RANDOM)
            throw py::value_error("the Legends twin does not list moves in the reference's order: "
                                  "its random bot plays in Python");
        auto g = std::make_shared<lg::LgGame>(*h.g);
        if (!text_ranks.empty() && (int)text_ranks.size() != g->size)
          throw py::value_error("text_ranks: one rank per action id");
        g->text_rank = text_ranks;
        std::vector<lg::LgState> states;
        for (const lg::LgStateHandle& st : starts) {
          if (st.g != h.g) throw py::value_error("a start state of another game");
          states.push_back(st.s);
        }
        std::shared_ptr<const lg::LgGame> shared = g, origin = h.g;
        return play_games<lg::Legends>(shared, bots, std::move(states), seeds, seating, threads, keep_actions,
                                       [origin](const lg::LgState& s) { return lg::LgStateHandle{origin, s}; },
                                       std::vector<std::shared_ptr<const lg::LgModel>>(models.begin(), models.end()));
      },
      py::is_method(handle), py::arg("bots"), py::arg("starts"), py::arg("seeds"), py::arg("seating"),
      py::arg("threads") = 1, py::arg("keep_actions") = false, py::arg("text_ranks") = std::vector<int32_t>{},
      py::arg("models") = std::vector<std::shared_ptr<lg::LgModel>>{},
      "as Game.arena; text_ranks: where each action's notation sorts (the search's tie-break); models: what the "
      "guided bots search with (legends_learn.hpp)");
}

// The playout policy's move in one world drawn from the view (the light bot), on the handle.
template <class G>
void bind_light_move(py::object handle) {
  using B = Binding<G>;
  handle.attr("light_move") = py::cpp_function(
      [](const typename B::Handle& h, const typename B::ViewArg& v, uint64_t seed) {
        auto g = B::game(h, v);
        return search::light_move<G>(*g, B::view(*g, v), seed);
      },
      py::is_method(handle), py::arg("view"), py::arg("seed"),
      "the playout policy's move in one world drawn from the view (the light bot)");
}

}  // namespace

void bind_arena(py::module_& m) {
  py::class_<BotSpec>(m, "BotSpec", "a native bot of the arena: random, light, ismcts or pimc")
      .def(py::init([](int kind, long iterations, double exploration, int playout, int worlds, int threads,
                       bool own_only, double root_widen, int model, bool use_value, bool use_policy, bool use_cards,
                       double cpuct, int pool, double mix, bool partners) {
             BotSpec b{kind, iterations, exploration, playout, worlds, threads, own_only, root_widen,
                       model, use_value, use_policy, use_cards, cpuct, pool, mix, partners};
             try {
               search::check_bot(b);
             } catch (const std::invalid_argument& e) {
               throw py::value_error(e.what());
             }
             return b;
           }),
           py::arg("kind"), py::arg("iterations") = 1000, py::arg("exploration") = 0.7, py::arg("playout") = 0,
           py::arg("worlds") = 8, py::arg("threads") = 1, py::arg("own_only") = false,
           py::arg("root_widen") = -1.0, py::arg("model") = -1, py::arg("use_value") = false, py::arg("use_policy") = false,
           py::arg("use_cards") = false, py::arg("cpuct") = 0.25, py::arg("pool") = 200,
           py::arg("mix") = 1.0, py::arg("partners") = false)
      .def_readonly("partners", &BotSpec::partners,
                    "ISMCTS with own_only: the partners' moves in the tree drawn from the model's blueprint")
      .def_readonly("mix", &BotSpec::mix, "ISMCTS: a leaf is mix * the value net + (1 - mix) * a playout")
      .def_readonly("model", &BotSpec::model, "index into the arena's models (-1: none)")
      .def_readonly("use_value", &BotSpec::use_value, "ISMCTS: the learned value at the leaves")
      .def_readonly("use_policy", &BotSpec::use_policy, "ISMCTS: the learned policy at the root (PUCT)")
      .def_readonly("use_cards", &BotSpec::use_cards, "ISMCTS: worlds weighted by the learned card model")
      .def_readonly("cpuct", &BotSpec::cpuct)
      .def_readonly("pool", &BotSpec::pool)
      .def_readonly("kind", &BotSpec::kind, "0 random, 1 light, 2 ismcts, 3 pimc")
      .def_readonly("iterations", &BotSpec::iterations)
      .def_readonly("exploration", &BotSpec::exploration)
      .def_readonly("playout", &BotSpec::playout)
      .def_readonly("worlds", &BotSpec::worlds)
      .def_readonly("threads", &BotSpec::threads)
      .def_readonly("own_only", &BotSpec::own_only)
      .def_readonly("root_widen", &BotSpec::root_widen);
  py::class_<ArenaOutcome>(m, "ArenaOutcome", "one arena game: returns per seat, decisions, the actions if kept")
      .def_readonly("returns", &ArenaOutcome::returns)
      .def_readonly("moves", &ArenaOutcome::moves, "decisions made (chance outcomes not counted)")
      .def_readonly("actions", &ArenaOutcome::actions, "every action applied, chance included (keep_actions)")
      .def_readonly("think_ms", &ArenaOutcome::think_ms, "per seat")
      .def_readonly("decisions", &ArenaOutcome::decisions, "per seat")
      .def_readonly("error", &ArenaOutcome::error, "why the game could not be played here ('' when it was)");

  for_each_native_game(NativeGames{}, [&m](auto tag) {
    using G = typename decltype(tag)::type;
    py::object handle = m.attr(Binding<G>::handle);
    bind_game_arena<G>(handle);
    bind_light_move<G>(handle);
  });
}
