// Python bindings of the policy-based inference (policy_infer.hpp): the evidence of a
// seat from a game's deal and actions, the weights of worlds, and the weighted view.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>

#include "hz_learn.hpp"
#include "knowledge.hpp"
#include "policy_infer.hpp"
#include "py_types.hpp"

namespace py = pybind11;
using namespace hzn;

namespace {

PbiOptions options_of(double temperature, double epsilon, int threads, bool ratio = true) {
  PbiOptions o;
  o.ratio = ratio;
  o.temperature = temperature;
  o.epsilon = epsilon;
  o.threads = threads;
  try {
    check_pbi_options(o);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  return o;
}

double kish(const std::vector<double>& logw) {  // effective sample size of log-weights
  if (logw.empty()) return 0.0;
  double top = -1e300, sum = 0.0, sq = 0.0;
  for (double x : logw) top = std::max(top, x);
  for (double x : logw) {
    const double w = std::exp(x - top);
    sum += w;
    sq += w * w;
  }
  return sum * sum / sq;
}

py::dict stats_of(const PbiScores& s, size_t worlds, double ms) {
  py::dict d;
  d["worlds"] = worlds;
  d["decisions"] = s.decisions;
  d["scored"] = s.scored;
  d["skipped"] = s.skipped;
  d["evaluations"] = s.evaluations;
  d["effective_worlds"] = kish(s.log_weight);
  d["ms"] = ms;
  return d;
}

// Where side q's hostage lies in s: 0 deck, 1 hand, 2 discard, 3 face up, 10 + 4c + r a
// face-down field slot (the encoding of weighted_hostage, search_bindings.cpp).
int hostage_where(const GameDef& g, const State& s, int q) {
  const int h = g.hostage[q];
  if (s.hand[q].test(h)) return 1;
  for (int k = 0; k < s.pile_len[q]; ++k)
    if (s.pile[q][k] == h) return 2;
  for (int c = 0; c < COLUMNS; ++c)
    for (int r = 0; r < s.col_len[q][c]; ++r)
      if (s.col[q][c][r] == h) return s.face_up.test(h) ? 3 : 10 + 4 * c + r;
  return 0;
}

}  // namespace

void bind_pbi(py::module_& m) {
  py::class_<PbiEvidence>(m, "PbiEvidence",
                          "the opponent's decisions a seat can score in every world (policy_infer.hpp)")
      .def_readonly("seat", &PbiEvidence::seat)
      .def_readonly("opponent", &PbiEvidence::opponent)
      .def_readonly("opponent_decisions", &PbiEvidence::opponent_decisions,
                    "the opponent's decisions in the game so far (with no pending choice)")
      .def_property_readonly("decisions", [](const PbiEvidence& e) { return e.decisions.size(); },
                             "the decisions scored: the newest after the opponent's last hand gain")
      .def_property_readonly("kinds", [](const PbiEvidence& e) {
        std::vector<std::string> out;
        for (const PbiDecision& d : e.decisions) out.push_back(ACTION_TEXT[d.kind]);
        return out;
      }, "the scored decisions' move kinds, oldest first")
      .def_property_readonly("turns", [](const PbiEvidence& e) {
        std::vector<int> out;
        for (const PbiDecision& d : e.decisions) out.push_back(d.turn);
        return out;
      });

  m.def("pbi_evidence", [](const PyState& start, const std::vector<int>& actions, int seat, int max_decisions) {
    try {
      py::gil_scoped_release release;
      return pbi_evidence(*start.def, start.s, actions, seat, max_decisions);
    } catch (const std::invalid_argument& e) {
      throw py::value_error(e.what());
    }
  }, py::arg("start"), py::arg("actions"), py::arg("seat"), py::arg("max_decisions") = PBI_MAX_DECISIONS,
     "the evidence of `seat`, to decide after `actions` (action ids, chance outcomes included) from the fresh "
     "deal `start`; ValueError for an action that is not legal; "
     "BeliefError (RuntimeError) when the opponent's tracker gives up");

  m.def("pbi_scores", [](const HzModel& mo, const PbiEvidence& ev, const std::vector<PyState>& worlds,
                         double temperature, double epsilon, int threads, bool ratio) -> py::tuple {
    const PbiOptions o = options_of(temperature, epsilon, threads, ratio);
    if (!mo.has_policy) throw py::value_error("policy-based inference needs a model with a policy net");
    std::vector<State> states;
    std::shared_ptr<const GameDef> def;
    for (const PyState& w : worlds) {
      if (def && w.def != def) throw py::value_error("worlds of two games");
      def = w.def;
      states.push_back(w.s);
    }
    if (!def) return py::make_tuple(std::vector<double>{}, stats_of(PbiScores{}, 0, 0.0));
    PbiScores s;
    double ms;
    {
      py::gil_scoped_release release;
      const auto start = std::chrono::steady_clock::now();
      s = pbi_scores(*def, mo, ev, states, o);
      ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    return py::make_tuple(s.log_weight, stats_of(s, states.size(), ms));
  }, py::arg("model"), py::arg("evidence"), py::arg("worlds"), py::arg("temperature") = 1.0,
     py::arg("epsilon") = 0.25, py::arg("threads") = 1, py::arg("ratio") = true,
     "(the log-weight of each world, stats): the sum over the evidence's decisions of log(n * p'(move)), "
     "p' the tempered policy mixed with uniform");

  m.def("pbi_view", [](const HzModel& mo, const PyGame& g, const ViewSpec& v, const PbiEvidence& ev, int pool,
                       uint64_t seed, double temperature, double epsilon, int threads, bool ratio) {
    const PbiOptions o = options_of(temperature, epsilon, threads, ratio);
    if (!mo.has_policy) throw py::value_error("policy-based inference needs a model with a policy net");
    if (pool < 1 || pool > 100000) throw py::value_error("pool must be within 1..100000");
    if (v.to_move != ev.seat) throw py::value_error("the evidence is not of the view's seat");
    PbiScores s;
    ViewSpec out;
    double ms;
    {
      py::gil_scoped_release release;
      const auto start = std::chrono::steady_clock::now();
      out = with_policy_inference(*g.def, mo, v, ev, pool, seed, o, &s);
      ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    py::dict stats = stats_of(s, (size_t)out.inference.pool, ms);
    // the pool's effective size as the search's resampling sees it (the card model's
    // factors too, when the view has them)
    {
      const std::vector<State> worlds = inference_pool(*g.def, out);
      std::vector<double> logw;
      for (size_t i = 0; i < worlds.size(); ++i)
        logw.push_back(world_log_likelihood(*g.def, worlds[i], out.inference) + out.inference.world_log_weight[i]);
      stats["effective_pool"] = kish(logw);
    }
    return py::make_tuple(out, stats);
  }, py::arg("model"), py::arg("game"), py::arg("view"), py::arg("evidence"), py::arg("pool"), py::arg("seed"),
     py::arg("temperature") = 1.0, py::arg("epsilon") = 0.25, py::arg("threads") = 1, py::arg("ratio") = true,
     "(the view with its pool weighted by the evidence, stats); a view with inference keeps its pool and "
     "seed and gains the weights");

  m.def("pbi_weighted_hostage", [](const HzModel& mo, const PyGame& g, const ViewSpec& v, const PbiEvidence& ev,
                                   long n, uint64_t seed, double temperature, double epsilon, int threads,
                                   bool ratio) {
    // n uniform worlds of the view (seed), each with its policy log-weight and where the
    // opponent's hostage lies (the encoding of weighted_hostage)
    const PbiOptions o = options_of(temperature, epsilon, threads, ratio);
    if (!mo.has_policy) throw py::value_error("policy-based inference needs a model with a policy net");
    if (n < 0 || n > 1000000) throw py::value_error("n must be within 0..1e6");
    ViewSpec plain = v;
    plain.inference = Inference();
    plain.inference.pool = (int)n;
    plain.inference.seed = seed;
    std::vector<std::pair<double, int>> out;
    PbiScores s;
    double ms;
    {
      py::gil_scoped_release release;
      const auto start = std::chrono::steady_clock::now();
      const std::vector<State> worlds = inference_pool(*g.def, plain);
      s = pbi_scores(*g.def, mo, ev, worlds, o);
      for (size_t i = 0; i < worlds.size(); ++i) out.emplace_back(s.log_weight[i], hostage_where(*g.def, worlds[i], ev.opponent));
      ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    return py::make_tuple(out, stats_of(s, (size_t)n, ms));
  }, py::arg("model"), py::arg("game"), py::arg("view"), py::arg("evidence"), py::arg("n"), py::arg("seed"),
     py::arg("temperature") = 1.0, py::arg("epsilon") = 0.25, py::arg("threads") = 1, py::arg("ratio") = true,
     "([(policy log-weight, hostage location)] over n uniform worlds of the view, stats)");

  m.def("pbi_feature_mismatches", [](const PbiEvidence& ev, const std::vector<PyState>& worlds) {
    if (worlds.empty()) return 0L;
    std::vector<State> states;
    for (const PyState& w : worlds) {
      if (w.def != worlds[0].def) throw py::value_error("worlds of two games");
      states.push_back(w.s);
    }
    return pbi_feature_mismatches(*worlds[0].def, ev, states);
  }, py::arg("evidence"), py::arg("worlds"),
     "(decision, world) pairs whose features as the scoring sums them differ from the whole view's encoding");

  m.def("inference_pool", [](const PyGame& g, const ViewSpec& v) {
    py::list worlds;
    for (const State& s : inference_pool(*g.def, v)) worlds.append(PyState{g.def, s});
    return worlds;
  }, py::arg("game"), py::arg("view"), "the pool the view's inference draws, in draw order, before weighting");

  // Inference.world_log_weight on the class bound in search_bindings.cpp
  py::object inference = m.attr("Inference");
  inference.attr("world_log_weight") = py::module_::import("builtins").attr("property")(
      py::cpp_function([](const Inference& i) { return i.world_log_weight; }),
      py::cpp_function([](Inference& i, const std::vector<double>& w) { i.world_log_weight = w; }));
}
