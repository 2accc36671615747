// Python bindings of what the searches of every game share: the search options, and the
// searches over a game written in Python (PySearch, PyPimc, PyMoSearch: py_game.hpp). A
// native game's own searches are bound in its folder (hzai/games/<game>/native/) from the
// templates of game_bindings.hpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "game_bindings.hpp"
#include "py_game.hpp"

namespace py = pybind11;
using namespace hzn;
using namespace hzn::bind;
using hzn::search::SearchOptions;

void bind_search(py::module_& m) {
  py::class_<SearchOptions>(m, "SearchOptions")
      .def(py::init([](double exploration, int playout, uint64_t seed, int threads, double prior_weight,
                       bool widen_root, bool own_only, double root_widen, bool partners_blueprint) {
             return SearchOptions{exploration, playout, seed, threads, prior_weight, widen_root, own_only, root_widen,
                                  partners_blueprint};
           }),
           py::arg("exploration") = 0.7, py::arg("playout") = 0, py::arg("seed") = 0, py::arg("threads") = 1,
           py::arg("prior_weight") = 0.0, py::arg("widen_root") = false, py::arg("own_only") = false,
           py::arg("root_widen") = -1.0, py::arg("partners_blueprint") = false)
      .def_readwrite("partners_blueprint", &SearchOptions::partners_blueprint,
                     "with own_only and a model (set_model): the other seats' moves in the tree drawn from the "
                     "model's blueprint over each seat's own picture of the world")
      .def_readwrite("root_widen", &SearchOptions::root_widen,
                     "the widening factor at the root (with widen_root); < 0: the one below it")
      .def_readwrite("own_only", &SearchOptions::own_only,
                     "the tree holds the searching seat's decisions only; the other seats' moves in it are the "
                     "playout policy's (single tree only)")
      .def_readwrite("widen_root", &SearchOptions::widen_root,
                     "policy-ordered widening at the root too (a bot's move); off: every legal root move is searched")
      .def_readwrite("exploration", &SearchOptions::exploration)
      .def_readwrite("playout", &SearchOptions::playout, "index in hzai.native.tables.PLAYOUTS")
      .def_readwrite("seed", &SearchOptions::seed)
      .def_readwrite("threads", &SearchOptions::threads)
      .def_readwrite("prior_weight", &SearchOptions::prior_weight, "progressive bias from the game's prior; 0: off");

  using PySearch = search::Ismcts<PythonGame>;
  auto py_view = [](const auto& s, const py::object& v) { return PythonGame::view_of(s.game(), v); };
  auto python_game = [](const py::object& view, const SearchOptions& o) {
    if (o.threads != 1) throw py::value_error("a game written in Python is searched on one thread (threads=1)");
    auto g = std::make_shared<const PythonGame::Game>(PythonGame::game_of(view));
    return std::make_pair(g, PythonGame::view_of(*g, view));
  };
  auto py_cls = bind_ismcts<PySearch>(m, "PySearch", false);
  bind_reroot<PySearch, py::object>(py_cls, py_view);
  py_cls
      .def(py::init([python_game](const py::object& view, const SearchOptions& o) {
             auto [g, v] = python_game(view, o);
             return std::make_shared<PySearch>(g, v, o);
           }),
           py::arg("view"), py::arg("options"),
           "ISMCTS over a Python game's view (the seam's View/State names), GIL held between calls");
  // The multi-observer search over a game written in Python (search/mo_ismcts.hpp).
  using PyMo = search::MoIsmcts<PythonGame>;
  auto py_mo = bind_ismcts<PyMo>(m, "PyMoSearch", false);
  bind_reroot<PyMo, py::object>(py_mo, py_view);
  py_mo
      .def(py::init([python_game](const py::object& view, const SearchOptions& o) {
             auto [g, v] = python_game(view, o);
             return std::make_shared<PyMo>(g, v, o);
           }),
           py::arg("view"), py::arg("options"),
           "multi-observer ISMCTS over a Python game's view (Game.observation keys the other seats' moves)")
      .def("tree_size", &PyMo::tree_size, py::arg("seat"), "nodes in that seat's tree")
      .def("tree_visits", &PyMo::tree_visits, py::arg("seat"), "root visits of that seat's tree");
  bind_pimc<PythonGame>(m, "PyPimc")
      .def(py::init([python_game](const py::object& view, const SearchOptions& o, int worlds) {
             auto [g, v] = python_game(view, o);
             return search::Pimc<PythonGame>(g, v, o, worlds);
           }),
           py::arg("view"), py::arg("options"), py::arg("worlds"));
}
