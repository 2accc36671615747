// Python bindings of the sampler and the search (hzai/native/search.py builds the
// flattened view passed in here).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "py_types.hpp"
#include "search.hpp"

namespace py = pybind11;
using namespace hzn;

namespace {

Bits name_mask(const py::handle& names) {
  Bits b;
  for (auto h : names.cast<py::list>()) b.set(h.cast<int>());
  return b;
}

ViewSlot slot_from(const py::handle& h) {
  auto t = h.cast<py::tuple>();  // (kind, code, group, face_up, excluded names)
  ViewSlot s;
  s.kind = (int8_t)t[0].cast<int>();
  s.code = (int16_t)t[1].cast<int>();
  s.group = (int16_t)t[2].cast<int>();
  s.face_up = t[3].cast<bool>();
  s.excluded = name_mask(t[4]);
  return s;
}

ViewSpec spec_from(const py::dict& d) {
  ViewSpec v;
  auto columns = d["columns"].cast<py::list>();
  auto hands = d["hands"].cast<py::list>();
  auto discards = d["discards"].cast<py::list>();
  auto deck_sizes = d["deck_sizes"].cast<py::list>();
  auto pools = d["pools"].cast<py::list>();
  for (int p = 0; p < 2; ++p) {
    auto side = columns[p].cast<py::list>();
    for (int c = 0; c < COLUMNS; ++c)
      for (auto h : side[c].cast<py::list>()) v.columns[p][c].push_back(slot_from(h));
    for (auto h : hands[p].cast<py::list>()) v.hands[p].push_back(slot_from(h));
    for (auto h : discards[p].cast<py::list>()) v.discards[p].push_back((int16_t)h.cast<int>());
    v.deck_size[p] = deck_sizes[p].cast<int>();
    for (auto h : pools[p].cast<py::list>()) v.pools[p].push_back((int16_t)h.cast<int>());
  }
  for (auto h : d["groups"].cast<py::list>()) {
    auto t = h.cast<py::tuple>();  // (owner, known names, [(count, excluded names)])
    ViewGroup g;
    g.owner = t[0].cast<int>();
    for (auto k : t[1].cast<py::list>()) g.known.push_back((int16_t)k.cast<int>());
    for (auto w : t[2].cast<py::list>()) {
      auto wt = w.cast<py::tuple>();
      g.wildcards.emplace_back(wt[0].cast<int>(), name_mask(wt[1]));
    }
    v.groups.push_back(std::move(g));
  }
  for (auto h : d["pending"].cast<py::list>()) {
    auto t = h.cast<py::tuple>();  // (kind, player, place code, pile positions)
    ViewPending pd;
    pd.kind = t[0].cast<int>();
    pd.player = t[1].cast<int>();
    pd.place_code = t[2].cast<int>();
    for (auto k : t[3].cast<py::list>()) pd.pile_positions.push_back(k.cast<int>());
    v.pending.push_back(pd);
  }
  v.phase = d["phase"].cast<int>();
  v.turn = d["turn"].cast<int>();
  v.turn_player = d["turn_player"].cast<int>();
  v.to_move = d["to_move"].cast<int>();
  v.ap = d["ap"].cast<int>();
  v.ap_spent = d["ap_spent"].cast<int>();
  v.winner = d["winner"].cast<int>();
  v.reason = d["reason"].cast<int>();
  return v;
}

}  // namespace

void bind_search(py::module_& m) {
  m.def("sample_view", [](const PyGame& g, const py::dict& view, uint64_t seed) {
    Sampler sampler(g.def, spec_from(view));
    SplitMix64 rng(seed);
    return PyState{g.def, sampler.sample(rng)};
  }, py::arg("game"), py::arg("view"), py::arg("seed"),
     "one determinization of a flattened view, the same as hzai.belief.Determinizer(view).sample(seed)");

  m.def("sample_speed", [](const PyGame& g, const py::dict& view, uint64_t seed, long n) {
    Sampler sampler(g.def, spec_from(view));
    SplitMix64 rng(seed);
    py::gil_scoped_release release;
    long checksum = 0;
    for (long i = 0; i < n; ++i) checksum += sampler.sample(rng).deck[0][0];
    return checksum;
  }, py::arg("game"), py::arg("view"), py::arg("seed"), py::arg("n"), "draw n samples (for benchmarks)");

  py::class_<Search, std::shared_ptr<Search>>(m, "Search")
      .def(py::init([](const PyGame& g, const py::dict& view, double exploration, int playout, uint64_t seed,
                       int threads) {
             SearchOptions o;
             o.exploration = exploration;
             o.playout = playout;
             o.seed = seed;
             o.threads = threads;
             return std::make_shared<Search>(g.def, spec_from(view), o);
           }),
           py::arg("game"), py::arg("view"), py::arg("exploration"), py::arg("playout"), py::arg("seed"),
           py::arg("threads"))
      .def("run", [](Search& s, long iterations, double millis) {
        py::gil_scoped_release release;
        return s.run(iterations, millis);
      }, py::arg("iterations") = -1, py::arg("millis") = -1.0,
         "search (GIL released) for up to `iterations` more iterations and/or `millis` ms; -1: no limit")
      .def("stop", &Search::stop, "ask a running search to stop (any thread)")
      .def("clear_stop", &Search::clear_stop)
      .def_property_readonly("iterations", &Search::iterations)
      .def_property_readonly("root_player", &Search::root_player)
      .def("root_stats", [](const Search& s) {
        std::vector<py::tuple> out;
        for (const auto& c : s.root_stats()) out.push_back(py::make_tuple(c.action, c.visits, c.value, c.availability));
        return out;
      }, "(action, visits, value sum, availability) per root move, by action id")
      .def("principal_variation", &Search::principal_variation, py::arg("action"), py::arg("max_len") = 12);
}
