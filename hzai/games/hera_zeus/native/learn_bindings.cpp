// Python bindings of the learned search (docs/learning.md): the Hera and Zeus model
// bundle built from weight arrays (hzai/native/model.py reads and checks the file), its
// outputs, the feature encodings and labels, the model attached to a search, and
// self-play records (search/selfplay.hpp) played with the GIL released.
#include <chrono>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "hz_learn.hpp"
#include "learn/py_nets.hpp"
#include "py_types.hpp"
#include "search/ismcts.hpp"
#include "search/selfplay.hpp"
#include "seats.hpp"

namespace py = pybind11;
using namespace hzn;
using namespace hzn::learn_py;

// A record's stage for reports by phase of the game (search/selfplay.hpp): 0 during the
// setup, else the turn of play (each player's turn counts one).
namespace hzn::search {
template <>
struct SelfplayStage<hzn::HeraZeus> {
  static int of(const hzn::GameDef&, const hzn::State& s) { return s.phase == hzn::PH_SETUP ? 0 : (int)s.turn; }
};
}  // namespace hzn::search

namespace {

std::vector<int32_t> features_of(const GameDef& g, const ViewSpec& v) {
  int32_t buf[MAX_FEATURES];
  const int n = view_features(g, v, buf);
  return std::vector<int32_t>(buf, buf + n);
}

}  // namespace

void bind_learn(py::module_& m) {
  using Model = std::shared_ptr<HzModel>;
  py::class_<HzModel, std::shared_ptr<HzModel>>(m, "HzModel",
                                                "the learned models of Hera and Zeus, evaluated in C++ (docs/learning.md)")
      .def(py::init([](const PyGame& g, const std::string& id, const py::list& value_trunk,
                       const py::list& value_heads, const py::list& policy_trunk, const py::list& policy_heads) {
             auto model = std::make_shared<HzModel>();
             model->id = id;
             const int n_in = feature_count(*g.def);
             model->has_value = !value_trunk.empty();
             model->has_policy = !policy_trunk.empty();
             if (model->has_value) model->value = net_of(n_in, value_trunk, value_heads, "value net");
             if (model->has_policy) model->policy = net_of(n_in, policy_trunk, policy_heads, "policy net");
             try {
               model->check(*g.def);
             } catch (const std::invalid_argument& e) {
               throw py::value_error(e.what());
             }
             return model;
           }),
           py::arg("game"), py::arg("id"), py::arg("value_trunk"), py::arg("value_heads"), py::arg("policy_trunk"),
           py::arg("policy_heads"),
           "trunk layers as (w[in][out], b), heads as (w[out][in], b); an empty trunk: no such net")
      .def_readonly("id", &HzModel::id)
      .def_readonly("has_value", &HzModel::has_value)
      .def_readonly("has_policy", &HzModel::has_policy)
      .def_property_readonly("has_cards", [](const HzModel& mo) { return mo.has_policy; },
                             "whether the model has card-location heads (they share the policy net's trunk)")
      .def("values", [](const HzModel& mo, const PyState& s) {
        if (!mo.has_value) throw py::value_error("this model has no value net");
        double out[2];
        model_values(*s.def, mo, s.s, out);
        return std::vector<double>{out[0], out[1]};
      }, py::arg("state"), "each seat's score of a state by the value net")
      .def("policy", [](const HzModel& mo, const PyGame& g, const ViewSpec& v, const std::vector<int>& legal) {
        if (!mo.has_policy) throw py::value_error("this model has no policy net");
        for (int a : legal)
          if (a < 0 || a >= g.def->total_actions()) throw py::value_error("action id out of range");
        std::vector<double> out(legal.size());
        model_policy(*g.def, mo, v, legal.data(), (int)legal.size(), out.data());
        return out;
      }, py::arg("game"), py::arg("view"), py::arg("legal"), "the policy's probabilities of these actions of the view")
      .def("cards", [](const HzModel& mo, const PyGame& g, const ViewSpec& v) {
        if (!mo.has_policy) throw py::value_error("this model has no card-location heads");
        std::vector<double> hostage(HOSTAGE_CLASSES), slots((size_t)FIELD_SLOTS * g.def->n_names);
        model_cards(*g.def, mo, v, hostage.data(), slots.data());
        return py::make_tuple(hostage, slots);
      }, py::arg("game"), py::arg("view"),
         "(hostage classes, per-slot name probabilities) of the opponent of the view's seat")
      .def("time_values", [](const HzModel& mo, const PyState& s, long n) {
        // Benchmarks: n evaluations of the value net on one state (features included), in ns each.
        if (!mo.has_value) throw py::value_error("this model has no value net");
        if (n < 1 || n > 100000000) throw py::value_error("n must be within 1..1e8");
        double out[2], sum = 0.0, ns = 0.0;
        {
          py::gil_scoped_release unlocked;  // back before the tuple is made
          const auto start = std::chrono::steady_clock::now();
          for (long i = 0; i < n; ++i) {
            model_values(*s.def, mo, s.s, out);
            sum += out[0];
          }
          ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        }
        return py::make_tuple(ns / (double)n, sum / (double)n);
      }, py::arg("state"), py::arg("n"), "(ns an evaluation, mean value): the value net timed on one state")
      .def("card_view", [](const HzModel& mo, const PyGame& g, const ViewSpec& v, int pool, uint64_t seed) {
        if (pool < 1 || pool > 100000) throw py::value_error("pool must be within 1..100000");
        return with_card_model(*g.def, mo, v, pool, seed);
      }, py::arg("game"), py::arg("view"), py::arg("pool"), py::arg("seed"),
         "the view with its worlds weighted by the card-location model");

  py::object hz = m.attr("Game");
  hz.attr("feature_count") = py::cpp_function([](const PyGame& g) { return feature_count(*g.def); }, py::is_method(hz),
                                              "the size of the feature encoding (view and state alike)");
  hz.attr("view_features") = py::cpp_function(
      [](const PyGame& g, const ViewSpec& v) {
        try {
          return features_of(*g.def, v);
        } catch (const std::invalid_argument& e) {
          throw py::value_error(e.what());
        }
      },
      py::is_method(hz), py::arg("view"), "the active features of a seat's view (ascending)");
  hz.attr("state_features") = py::cpp_function(
      [](const PyGame& g, const PyState& s) {
        if (s.def != g.def) throw py::value_error("a state of another game");
        int32_t buf[MAX_FEATURES];
        const int n = state_features(*g.def, s.s, buf);
        return std::vector<int32_t>(buf, buf + n);
      },
      py::is_method(hz), py::arg("state"), "the active features of a full state (ascending)");
  hz.attr("hidden_labels") = py::cpp_function(
      [](const PyGame& g, const PyState& s, const ViewSpec& v, int seat) {
        if (seat < 0 || seat > 1) throw py::value_error("seat must be 0 or 1");
        std::vector<int32_t> out(1 + FIELD_SLOTS);
        hidden_labels(*g.def, s.s, v, seat, out.data());
        return out;
      },
      py::is_method(hz), py::arg("state"), py::arg("view"), py::arg("seat"),
      "the opponent's hostage class and the names of the opponent's hidden field cards (-1: not hidden)");

  py::object search_cls = m.attr("Search");
  search_cls.attr("set_model") = py::cpp_function(
      [](search::Ismcts<HeraZeus>& s, const Model& model, bool value, bool policy, double cpuct, double mix) {
        if (value && !model->has_value) throw py::value_error("the model has no value net");
        if (policy && !model->has_policy) throw py::value_error("the model has no policy net");
        try {
          s.set_model(std::shared_ptr<const HzModel>(model), value, policy, cpuct, mix);
        } catch (const std::invalid_argument& e) {
          throw py::value_error(e.what());
        }
      },
      py::is_method(search_cls), py::arg("model"), py::arg("value"), py::arg("policy"), py::arg("cpuct") = 0.25, py::arg("mix") = 1.0,
      "guide the search by the model: value at the leaves, policy at the root (before it runs)");
  search_cls.attr("root_prior") = py::cpp_function(
      [](const search::Ismcts<HeraZeus>& s) { return s.root_prior(); }, py::is_method(search_cls),
      "the policy's probability of each root move by action id (empty without a policy)");

  hz.attr("selfplay") = py::cpp_function(
      [](const PyGame& g, const search::BotSpec& bot, const Model& model, const std::vector<PyState>& starts,
         const std::vector<uint64_t>& seeds, int threads, int explore_moves, double temperature, double full_share,
         long fast_budget, double keep, double fast_temperature) {
        search::SelfplayOptions opt;
        opt.explore_moves = explore_moves;
        opt.temperature = temperature;
        opt.full_share = full_share;
        opt.fast_budget = fast_budget;
        opt.keep = keep;
        opt.fast_temperature = fast_temperature;
        check_selfplay_args(threads, starts.size(), seeds.size(), opt);
        std::vector<State> states;
        for (const PyState& st : starts) {
          if (st.def != g.def) throw py::value_error("a start state of another game");
          states.push_back(st.s);
        }
        return selfplay_records<HeraZeus>(g.def, bot, model, states, seeds, threads, opt, 1 + FIELD_SLOTS);
      },
      py::is_method(hz), py::arg("bot"), py::arg("model"), py::arg("starts"), py::arg("seeds"), py::arg("threads") = 1,
      py::arg("explore_moves") = 8, py::arg("temperature") = 1.0, py::arg("full_share") = 1.0,
      py::arg("fast_budget") = 0, py::arg("keep") = 1.0, py::arg("fast_temperature") = 0.0,
      "self-play records of one bot in every seat (search/selfplay.hpp): one dict of arrays a game");
}
