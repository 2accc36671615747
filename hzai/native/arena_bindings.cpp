// Python bindings of the arena's shared types (search/arena.hpp): bot specs and game
// outcomes as typed structs. Each native game binds `arena(...)` on its own handle in its
// folder (hzai/games/<game>/native/, through bind::play_games in game_bindings.hpp),
// playing its games with the GIL released (hzai/search/arena.py names no game).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "search/arena.hpp"

namespace py = pybind11;
using namespace hzn;
using search::ArenaOutcome;
using search::BotSpec;

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
}
