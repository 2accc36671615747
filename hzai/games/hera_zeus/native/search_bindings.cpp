// Python bindings of the sampler and the generic search: the view as typed structs
// (built field by field by hzai/games/hera_zeus/native/search.py), the searches of every
// native game (native_games.hpp: Search, Pimc, MoSearch; LegendsSearch, ...) and those
// over a game written in Python (PySearch, PyPimc, PyMoSearch).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "hera_zeus.hpp"
#include "legends_py.hpp"
#include "native_games.hpp"
#include "py_game.hpp"
#include "py_types.hpp"
#include "search/ismcts.hpp"
#include "search/mo_ismcts.hpp"
#include "search/pimc.hpp"

namespace py = pybind11;
using namespace hzn;
using hzn::search::SearchOptions;

namespace {

// A set of name ids as a sorted list of ints, and back (range checked).
std::vector<int> names_of(const Bits& b) {
  std::vector<int> out;
  b.each([&](int i) { out.push_back(i); });
  return out;
}

Bits bits_of(const std::vector<int>& names) {
  Bits b;
  for (int i : names) {
    if (i < 0 || i >= MAX_CARDS) throw py::value_error("name id out of range: " + std::to_string(i));
    b.set(i);
  }
  return b;
}

void bind_view(py::module_& m) {
  py::class_<ViewSlot>(m, "ViewSlot", "one place of a view: a figure, a known card or a card of a group")
      .def(py::init<>())
      .def_readwrite("kind", &ViewSlot::kind, "0 figure, 1 known card, 2 a card of a group")
      .def_readwrite("code", &ViewSlot::code, "known card: name id * 2 + owner")
      .def_readwrite("group", &ViewSlot::group, "index of the group the hidden card belongs to")
      .def_readwrite("face_up", &ViewSlot::face_up)
      .def_property("excluded", [](const ViewSlot& s) { return names_of(s.excluded); },
                    [](ViewSlot& s, const std::vector<int>& v) { s.excluded = bits_of(v); },
                    "name ids this hidden card cannot be");
  py::class_<ViewGroup>(m, "ViewGroup", "hidden cards of one owner known only as a group")
      .def(py::init<>())
      .def_readwrite("owner", &ViewGroup::owner)
      .def_readwrite("known", &ViewGroup::known, "name ids known to be in the group")
      .def_property("wildcards",
                    [](const ViewGroup& g) {
                      std::vector<std::pair<int, std::vector<int>>> out;
                      for (const auto& w : g.wildcards) out.emplace_back(w.first, names_of(w.second));
                      return out;
                    },
                    [](ViewGroup& g, const std::vector<std::pair<int, std::vector<int>>>& v) {
                      g.wildcards.clear();
                      for (const auto& w : v) g.wildcards.emplace_back(w.first, bits_of(w.second));
                    },
                    "(count, excluded name ids) of the unknown cards");
  py::class_<ViewPending>(m, "ViewPending", "a pending decision of the view")
      .def(py::init<>())
      .def_readwrite("kind", &ViewPending::kind, "index in hzai.native.tables.PENDING_KINDS")
      .def_readwrite("player", &ViewPending::player)
      .def_readwrite("place_code", &ViewPending::place_code, "the card to place (place), else -1")
      .def_readwrite("pile_positions", &ViewPending::pile_positions, "the cards to order (top)");
  py::class_<ViewSpec>(m, "ViewSpec", "one seat's view as the native sampler reads it")
      .def(py::init<>())
      .def_readwrite("columns", &ViewSpec::columns, "[side][column][row] ViewSlot")
      .def_readwrite("hands", &ViewSpec::hands, "[side] ViewSlot")
      .def_readwrite("discards", &ViewSpec::discards, "[side] card codes, bottom first")
      .def_readwrite("deck_sizes", &ViewSpec::deck_sizes)
      .def_readwrite("groups", &ViewSpec::groups)
      .def_readwrite("pools", &ViewSpec::pools, "[owner] unaccounted name ids")
      .def_readwrite("pending", &ViewSpec::pending)
      .def_readwrite("phase", &ViewSpec::phase)
      .def_readwrite("turn", &ViewSpec::turn)
      .def_readwrite("turn_player", &ViewSpec::turn_player)
      .def_readwrite("to_move", &ViewSpec::to_move, "-1: nobody")
      .def_readwrite("ap", &ViewSpec::ap)
      .def_readwrite("ap_spent", &ViewSpec::ap_spent)
      .def_readwrite("winner", &ViewSpec::winner, "-1: none")
      .def_readwrite("reason", &ViewSpec::reason)
      .def_readwrite("inference", &ViewSpec::inference, "weighted worlds (pool 0: none)")
      .def("copy", [](const ViewSpec& v) { return v; }, "an independent copy");
  py::class_<SlotLikelihood>(m, "SlotLikelihood", "log-likelihood factors of one hidden slot, by name id")
      .def(py::init<>())
      .def_readwrite("c", &SlotLikelihood::c)
      .def_readwrite("r", &SlotLikelihood::r)
      .def_readwrite("log_factor", &SlotLikelihood::log_factor);
  py::class_<Inference>(m, "Inference", "the opponent model's weights over determinizations")
      .def(py::init<>())
      .def_readwrite("side", &Inference::side)
      .def_readwrite("pool", &Inference::pool)
      .def_readwrite("seed", &Inference::seed)
      .def_readwrite("slots", &Inference::slots);
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
}

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

SearchOptions checked(SearchOptions o) {
  if (o.threads < 1 || o.threads > 256) throw py::value_error("threads must be within 1..256");
  return o;
}

// The searches of one native game G: the classes (named from Binding<G>::prefix) and
// the methods of its handle that build them.
template <class G>
void bind_native_searches(py::module_& m) {
  using B = Binding<G>;
  using H = typename B::Handle;
  using V = typename B::ViewArg;
  using Tree = search::Ismcts<G>;
  using Mo = search::MoIsmcts<G>;
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

}  // namespace

void bind_search(py::module_& m) {
  bind_view(m);

  m.def("sample_view", [](const PyGame& g, const ViewSpec& view, uint64_t seed, bool fitted) {
    Sampler sampler(*g.def, view);
    SplitMix64 rng(seed);
    return PyState{g.def, fitted ? sampler.sample_fitted(rng) : sampler.sample(*g.def, rng)};
  }, py::arg("game"), py::arg("view"), py::arg("seed"), py::arg("fitted") = false,
     "one determinization of a view, the same as hzai.games.hera_zeus.belief.Determinizer(view).sample(seed)\n"
     "(fitted=True: the fitted draw alone, as Determinizer.sample_fitted)");

  m.def("inferred_pool", [](const PyGame& g, const ViewSpec& view) {
    Sampler sampler(*g.def, view);
    py::list worlds;
    for (const State& s : sampler.worlds()) worlds.append(PyState{g.def, s});
    return py::make_tuple(worlds, sampler.effective_pool());
  }, py::arg("game"), py::arg("view"),
     "the resampled worlds of a view with inference and the effective size of the weighted pool");

  m.def("world_log_likelihood", [](const PyGame& g, const ViewSpec& view, const PyState& s) {
    check_inference(*g.def, view);  // a bad slot would read past the state's columns
    return world_log_likelihood(*g.def, s.s, view.inference);
  }, py::arg("game"), py::arg("view"), py::arg("state"), "the inference's log-likelihood of one world");

  m.def("weighted_hostage", [](const PyGame& g, const ViewSpec& view, uint64_t seed, long n) {
    // n uniform worlds of the view (seed), each with its log-likelihood under the view's
    // inference and where the inference side's hostage lies: 0 deck, 1 hand, 2 discard,
    // 3 face up on the field, 10 + 4 * column + row a face-down field slot
    check_inference(*g.def, view);  // pool 0 skips the sampler's own check
    ViewSpec plain = view;
    plain.inference.pool = 0;
    Sampler sampler(*g.def, plain);
    SplitMix64 rng(seed);
    const int q = view.inference.side, h = g.def->hostage[q];
    std::vector<std::pair<double, int>> out;
    {
      py::gil_scoped_release release;
      out.reserve((size_t)std::max(0L, n));
      for (long i = 0; i < n; ++i) {
        State s = sampler.sample(*g.def, rng);
        int where = 0;
        if (s.hand[q].test(h)) where = 1;
        for (int k = 0; k < s.pile_len[q]; ++k)
          if (s.pile[q][k] == h) where = 2;
        for (int c = 0; c < COLUMNS; ++c)
          for (int r = 0; r < s.col_len[q][c]; ++r)
            if (s.col[q][c][r] == h) where = s.face_up.test(h) ? 3 : 10 + 4 * c + r;
        out.emplace_back(world_log_likelihood(*g.def, s, view.inference), where);
      }
    }
    return out;
  }, py::arg("game"), py::arg("view"), py::arg("seed"), py::arg("n"),
     "(log-likelihood, hostage location) of n uniform worlds of a view with inference");

  m.def("sample_speed", [](const PyGame& g, const ViewSpec& view, uint64_t seed, long n) {
    Sampler sampler(*g.def, view);
    SplitMix64 rng(seed);
    py::gil_scoped_release release;
    long checksum = 0;
    for (long i = 0; i < n; ++i) checksum += sampler.sample(*g.def, rng).deck[0][0];
    return checksum;
  }, py::arg("game"), py::arg("view"), py::arg("seed"), py::arg("n"), "draw n samples (for benchmarks)");

  // Every native game of the list (native_games.hpp) builds its own searches on its
  // handle: game.native.search(view, options), .pimc(view, options, worlds) and
  // .mo_search(view, options) (hzai/search/ismcts.py names no game).
  for_each_native_game(NativeGames{}, [&m](auto tag) { bind_native_searches<typename decltype(tag)::type>(m); });

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
  m.def("world_spec", [](const PyState& s) { return world_spec(*s.def, s.s); }, py::arg("state"),
        "the view of a seat that saw every card of `state` (only the deck orders hidden): PIMC's worlds, and the "
        "all-seeing benchmark bots");
  m.def("observation", [](const PyState& s, int action, int seat) {
    if (seat < 0 || seat > 1) throw py::value_error("seat must be 0 or 1");
    if (action < 0 || action >= s.def->total_actions()) throw py::value_error("action id out of range");
    return observation(*s.def, s.s, action, seat);
  }, py::arg("state"), py::arg("action"), py::arg("seat"),
     "what `seat` sees of `action` by the player to move: the id itself, or an id from num_actions up when hidden");
  m.def("legends_observation", [](const lg::LgStateHandle& s, int action, int seat) {
    if (seat < 0 || seat >= s.g->seats) throw py::value_error("seat is not a seat of the game");
    if (action < 0 || action >= s.g->size) throw py::value_error("action id out of range");
    return lg::observation(*s.g, s.s, action, seat);
  }, py::arg("state"), py::arg("action"), py::arg("seat"), "the same for a Legends state");

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
