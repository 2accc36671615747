// What every native game's bindings share (docs/native.md, "One folder a game"): the
// Python API of the generic searches (ismcts.hpp, mo_ismcts.hpp, pimc.hpp), the searches
// and light move a game's handle gets from one template, and the arena's batch of games.
// A game says how it meets Python by one Binding<G> in its own folder
// (hzai/games/<game>/native/) and calls bind_native_searches<G> and bind_light_move<G>
// from its register_<game>(m); hzai/native names no game.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "search/arena.hpp"
#include "search/ismcts.hpp"
#include "search/mo_ismcts.hpp"
#include "search/pimc.hpp"
#include "search/playout.hpp"

namespace hzn {

// How one native game meets Python: its handle types and names, and how a search gets
// the game and the game's own view from them. Each game specializes it in its folder:
//   using Handle = ...;   the game handle's C++ type (module attribute `handle`)
//   using ViewArg = ...;  the typed view its searches take
//   static constexpr const char* handle = "...";  // the handle's Python class name
//   static constexpr const char* prefix = "...";  // Search, Pimc, MoSearch named prefix + these
//   static std::shared_ptr<const typename G::Game> game(const Handle&, const ViewArg&);
//   static <view> view(const typename G::Game&, const ViewArg&);
template <class G>
struct Binding;

namespace bind {

namespace py = pybind11;

// The same Python API for every instantiation of the search. `release` says whether
// run() lets the GIL go (native games) or keeps it (Python games call back into it).
template <class S>
py::class_<S, std::shared_ptr<S>> bind_ismcts(py::module_& m, const char* name, bool release) {
  py::class_<S, std::shared_ptr<S>> cls(m, name);
  cls.def("run", [release](S& s, long iterations, double millis) {
       if (!release) return s.run(iterations, millis);
       py::gil_scoped_release unlocked;
       return s.run(iterations, millis);
     }, py::arg("iterations") = -1, py::arg("millis") = -1.0,
     "search for up to `iterations` more iterations and/or `millis` ms (-1: no limit); returns the iterations done")
      .def("stop", &S::stop, "ask a running search to stop (any thread)")
      .def("clear_stop", &S::clear_stop)
      .def_property_readonly("iterations", &S::iterations)
      .def_property_readonly("root_player", &S::root_player)
      .def("root_stats", [](const S& s) {
        std::vector<py::tuple> out;
        for (const auto& c : s.root_stats()) out.push_back(py::make_tuple(c.action, c.visits, c.value, c.availability));
        return out;
      }, "(action, visits, value sum, availability) per root move, by action id")
      .def("principal_variation", &S::principal_variation, py::arg("action"), py::arg("max_len") = 12)
      .def("restrict_root", &S::restrict_root, py::arg("actions"),
           "search only these action ids at the root (before running; empty: every legal one)")
      .def_property_readonly("root_visits", &S::root_visits,
                             "visits of the root over the trees: the iterations run plus a reused root's (reroot)")
      .def_property_readonly("node_count", &S::node_count, "nodes over the trees (every seat's, multi-observer)");
  return cls;
}

// reroot(action, view, seed) of each instantiation: `make_view` turns the Python view
// into the search's own (tree reuse, ismcts.hpp).
template <class S, class V, class F>
void bind_reroot(py::class_<S, std::shared_ptr<S>>& cls, F make_view) {
  cls.def("reroot", [make_view](S& s, int action, const V& view, uint64_t seed) {
    if (action < 0 || action >= s.action_count()) throw py::value_error("action id out of range");
    s.reroot(action, make_view(s, view), seed);
  }, py::arg("action"), py::arg("view"), py::arg("seed"),
     "tree reuse: the root's child for `action` becomes the root, new iterations draw from `view` (the same "
     "seat's next decision) with generators from `seed`");
}

template <class G>
py::class_<search::Pimc<G>> bind_pimc(py::module_& m, const char* name) {
  using P = search::Pimc<G>;
  py::class_<P> cls(m, name);
  cls.def("world", &P::world, py::arg("w"), "the search of world w, to run and then vote")
      .def("vote", &P::vote, py::arg("search"), "count the world's most visited move; False when it has none")
      .def_property_readonly("voted", &P::voted)
      .def_property_readonly("worlds", &P::worlds)
      .def("choice", &P::choice, "the move most worlds chose (-1 before any vote)")
      .def("restrict_root", &P::restrict_root, py::arg("actions"),
           "every world searches only these action ids at the root (empty: every legal one)");
  return cls;
}

inline search::SearchOptions checked(search::SearchOptions o) {
  if (o.threads < 1 || o.threads > 256) throw py::value_error("threads must be within 1..256");
  return o;
}

// The searches of one native game G: the classes (named from Binding<G>::prefix) and
// the methods of its handle that build them: game.native.search(view, options),
// .pimc(view, options, worlds) and .mo_search(view, options) (hzai/search/ismcts.py
// names no game). The handle's class must be registered first.
template <class G>
void bind_native_searches(py::module_& m) {
  using B = Binding<G>;
  using H = typename B::Handle;
  using V = typename B::ViewArg;
  using Tree = search::Ismcts<G>;
  using Mo = search::MoIsmcts<G>;
  using search::SearchOptions;
  const std::string prefix = B::prefix;
  auto own_view = [](const auto& s, const V& v) { return B::view(s.game(), v); };
  auto tree = bind_ismcts<Tree>(m, (prefix + "Search").c_str(), true);
  bind_reroot<Tree, V>(tree, own_view);
  bind_pimc<G>(m, (prefix + "Pimc").c_str());
  auto mo = bind_ismcts<Mo>(m, (prefix + "MoSearch").c_str(), true);
  bind_reroot<Mo, V>(mo, own_view);
  mo.def("tree_size", &Mo::tree_size, py::arg("seat"), "nodes in that seat's tree (thread 0)")
      .def("tree_visits", &Mo::tree_visits, py::arg("seat"), "root visits of that seat's tree (thread 0)");

  py::object handle = m.attr(B::handle);
  handle.attr("search") = py::cpp_function(
      [](const H& h, const V& v, const SearchOptions& o) {
        auto g = B::game(h, v);
        return std::make_shared<Tree>(g, B::view(*g, v), checked(o));
      },
      py::is_method(handle), py::arg("view"), py::arg("options"), "the native ISMCTS over a view");
  handle.attr("pimc") = py::cpp_function(
      [](const H& h, const V& v, const SearchOptions& o, int worlds) {
        auto g = B::game(h, v);
        return search::Pimc<G>(g, B::view(*g, v), checked(o), worlds);
      },
      py::is_method(handle), py::arg("view"), py::arg("options"), py::arg("worlds"), "PIMC over a view");
  handle.attr("mo_search") = py::cpp_function(
      [](const H& h, const V& v, const SearchOptions& o) {
        auto g = B::game(h, v);
        return std::make_shared<Mo>(g, B::view(*g, v), checked(o));
      },
      py::is_method(handle), py::arg("view"), py::arg("options"), "the native multi-observer ISMCTS over a view");
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

// The arena's games (search/arena.hpp) with the GIL released: game i from starts[i]
// with seeds[i], each outcome paired with its final state wrapped by `wrap`. A game's
// `arena(...)` on its handle (bound in its folder) calls this.
template <class G, class Wrap>
py::list play_games(std::shared_ptr<const typename G::Game> g, const std::vector<search::BotSpec>& bots,
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
  std::vector<search::ArenaOutcome> outcomes(starts.size());
  std::vector<typename G::State> ends(starts);
  {
    py::gil_scoped_release unlocked;
    arena.play_all(starts, seeds, seating, keep_actions, threads,
                   [&](long i, search::ArenaOutcome&& o, const typename G::State& end) {
                     outcomes[(size_t)i] = std::move(o);
                     ends[(size_t)i] = end;
                   });
  }
  py::list out;
  for (size_t i = 0; i < outcomes.size(); ++i) out.append(py::make_tuple(outcomes[i], wrap(ends[i])));
  return out;
}

}  // namespace bind
}  // namespace hzn
