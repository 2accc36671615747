// Python bindings of Hera and Zeus' sampler, searches and arena: the view as typed
// structs (built field by field by hzai/games/hera_zeus/native/search.py), the samplers'
// functions, the generic searches on the game handle (Search, Pimc, MoSearch: Binding
// below, hzai/native/game_bindings.hpp), its light move and its arena.
#include <pybind11/pybind11.h>
#include <chrono>
#include <pybind11/stl.h>

#include "game_bindings.hpp"
#include "hera_zeus.hpp"
#include "hz_learn.hpp"
#include "py_types.hpp"
#include "search/arena.hpp"
#include "seats.hpp"

namespace py = pybind11;
using namespace hzn;
using hzn::search::SearchOptions;

namespace hzn {

// How Hera and Zeus meets Python (game_bindings.hpp).
template <>
struct Binding<HeraZeus> {
  using Handle = PyGame;     // module attribute `handle`: the game handle (Game.native)
  using ViewArg = ViewSpec;  // the typed view its searches take
  static constexpr const char* handle = "Game";
  static constexpr const char* prefix = "";  // Search, Pimc, MoSearch
  static std::shared_ptr<const GameDef> game(const Handle& h, const ViewArg&) { return h.def; }
  static Sampler view(const GameDef& g, const ViewArg& v) { return Sampler(g, v); }
};

}  // namespace hzn

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
      .def_readwrite("history_slots", &ViewSpec::history_slots,
                     "per opponent field slot: origin, age, covered, moved (empty: no history)")
      .def_readwrite("history_acts", &ViewSpec::history_acts, "the opponent's last action kinds, newest first")
      .def_readwrite("history_counts", &ViewSpec::history_counts, "the opponent's actions by kind")
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
}

}  // namespace

void bind_hz_search(py::module_& m) {
  bind_view(m);

  m.def("time_view_eval", [](const HzModel& mo, const PyGame& g, const ViewSpec& v, const std::vector<int>& legal,
                             long n) {
    // Benchmarks (benchmarks/history_features.py): n encodings of the view, then n policy
    // evaluations (features, trunk and the policy head over `legal`), in ns each.
    if (!mo.has_policy) throw py::value_error("this model has no policy net");
    if (n < 1 || n > 100000000) throw py::value_error("n must be within 1..1e8");
    for (int a : legal)
      if (a < 0 || a >= g.def->total_actions()) throw py::value_error("action id out of range");
    std::vector<double> out(legal.size());
    int32_t idx[MAX_FEATURES];
    double ns_features = 0.0, ns_policy = 0.0, sink = 0.0;
    {
      py::gil_scoped_release unlocked;
      auto start = std::chrono::steady_clock::now();
      for (long i = 0; i < n; ++i) sink += view_features(*g.def, v, idx);
      ns_features = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
      start = std::chrono::steady_clock::now();
      for (long i = 0; i < n; ++i) {
        model_policy(*g.def, mo, v, legal.data(), (int)legal.size(), out.data());
        sink += out.empty() ? 0.0 : out[0];
      }
      ns_policy = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    }
    return py::make_tuple(ns_features / (double)n, ns_policy / (double)n, sink);
  }, py::arg("model"), py::arg("game"), py::arg("view"), py::arg("legal"), py::arg("n"),
     "(ns an encoding of the view, ns a policy evaluation with its features, a checksum)");

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

  bind::bind_native_searches<HeraZeus>(m);

  m.def("world_spec", [](const PyState& s) { return world_spec(*s.def, s.s); }, py::arg("state"),
        "the view of a seat that saw every card of `state` (only the deck orders hidden): PIMC's worlds, and the "
        "all-seeing benchmark bots");
  m.def("observation", [](const PyState& s, int action, int seat) {
    if (seat < 0 || seat > 1) throw py::value_error("seat must be 0 or 1");
    if (action < 0 || action >= s.def->total_actions()) throw py::value_error("action id out of range");
    return observation(*s.def, s.s, action, seat);
  }, py::arg("state"), py::arg("action"), py::arg("seat"),
     "what `seat` sees of `action` by the player to move: the id itself, or an id from num_actions up when hidden");
}

// The arena on the handle (search/arena.hpp): the bot kinds it plays natively, whether it
// needs the notation's sort ranks, `arena(...)`, and the light bot's move.
void bind_hz_arena(py::module_& m) {
  using search::BOT_ISMCTS, search::BOT_LIGHT, search::BOT_PIMC, search::BOT_RANDOM;
  using search::BotSpec;
  py::object handle = m.attr(Binding<HeraZeus>::handle);
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
        return bind::play_games<HeraZeus>(def, bots, std::move(states), seeds, seating, threads, keep_actions,
                                          [def](const State& s) { return PyState{def, s}; },
                                          std::vector<std::shared_ptr<const HzModel>>(models.begin(), models.end()));
      },
      py::is_method(handle), py::arg("bots"), py::arg("starts"), py::arg("seeds"), py::arg("seating"),
      py::arg("threads") = 1, py::arg("keep_actions") = false,
      py::arg("models") = std::vector<std::shared_ptr<HzModel>>{},
      "game i from starts[i] with seeds[i], bot seating[i][p] in seat p; [(ArenaOutcome, final State)]");
  bind::bind_light_move<HeraZeus>(handle);
}
