// Python bindings of the Legends learned search (legends_learn.hpp, docs/learning.md):
// the model bundle built from weight arrays (hzai/native/model.py reads and checks the
// file), its outputs, the feature encodings of a seat, an action's features, the model
// attached to a search, and self-play records played with the GIL released.
#include <algorithm>
#include <chrono>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "learn/py_nets.hpp"
#include "legends_learn.hpp"
#include "legends_py.hpp"
#include "search/ismcts.hpp"
#include "search/selfplay.hpp"
#include "legends_seats.hpp"

namespace py = pybind11;
using namespace hzn;
using namespace hzn::lg;
using namespace hzn::learn_py;

namespace {

template <class F>
auto value_errors(F f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
}

std::vector<int32_t> view_features_of(const LgGame& g, const LgView& v) {
  int32_t buf[LG_MAX_FEATURES];
  const int n = value_errors([&] { return lg_view_features(g, v, buf); });
  return std::vector<int32_t>(buf, buf + n);
}

void check_actions(const LgGame& g, const std::vector<int>& legal) {
  for (int a : legal)
    if (a < 0 || a >= g.size) throw py::value_error("action id " + std::to_string(a) + " out of range");
}

}  // namespace

void bind_legends_learn(py::module_& m) {
  using Model = std::shared_ptr<LgModel>;
  py::class_<LgModel, Model>(m, "LegendsModel",
                             "the learned team value and blueprint policy of Legends, evaluated in C++ (docs/learning.md)")
      .def_readonly("id", &LgModel::id)
      .def_readonly("has_value", &LgModel::has_value)
      .def_readonly("has_policy", &LgModel::has_policy)
      .def_property_readonly("has_cards", &LgModel::has_cards, "whether the model has the card net (the card-location model)")
      .def_readonly("card_temper", &LgModel::card_temper)
      .def("card_probs", [](const LgModel& mo, const LgViewHandle& v) {
        if (!mo.has_cards()) throw py::value_error("this model has no card net");
        std::vector<double> out((size_t)LG_CARD_LABELS * LG_CARD_CLASSES);
        value_errors([&] {
          lg_card_log_probs(*v.g, mo, v.v, out.data());
          return 0;
        });
        py::list rows;
        for (int l = 0; l < LG_CARD_LABELS; ++l) {
          py::list row;
          for (int c = 0; c < LG_CARD_CLASSES; ++c) row.append(std::exp(out[(size_t)(l * LG_CARD_CLASSES + c)]));
          rows.append(row);
        }
        return rows;
      }, py::arg("view"),
         "the card net's probabilities, [label][class]: label (r - 1) * 9 + k is partner r's count of kind k "
         "(0, 1, 2, 3 or more)")
      .def("card_view", [](const LgModel& mo, const LgViewHandle& v, int pool, uint64_t seed, double temper) {
        if (pool < 0 || pool > 100000) throw py::value_error("pool must be 0..100000 worlds, not " + std::to_string(pool));
        LgView out;
        std::vector<uint64_t> seeds;
        {
          py::gil_scoped_release release;
          out = value_errors([&] { return lg_card_view(*v.g, mo, v.v, pool, seed, &seeds, temper); });
        }
        return py::make_tuple(LgViewHandle{v.g, std::move(out)}, seeds);
      }, py::arg("view"), py::arg("pool"), py::arg("seed"), py::arg("temper") = -1.0,
         "(view, seeds), the weights to the power `temper` (< 0: the model's card_temper): the view whose determinizations are the card model's resampled pool of worlds, "
         "world i being the view's sample with seeds[i] (the view itself and no seeds without a card head)")
      .def("values", [](const LgModel& mo, const LgStateHandle& s) {
        if (!mo.has_value) throw py::value_error("this model has no value net");
        std::vector<double> out((size_t)s.g->seats);
        lg_model_values(*s.g, mo, s.s, out.data());
        return out;
      }, py::arg("state"), "the team's win probability by the value net, for every seat (from the seat to act)")
      .def("policy", [](const LgModel& mo, const LgViewHandle& v, const std::vector<int>& legal) {
        if (!mo.has_policy) throw py::value_error("this model has no policy net");
        check_actions(*v.g, legal);
        std::vector<double> out(legal.size());
        value_errors([&] {
          lg_model_policy(*v.g, mo, v.v, legal.data(), (int)legal.size(), out.data());
          return 0;
        });
        return out;
      }, py::arg("view"), py::arg("legal"), "the blueprint's probabilities of these actions of the view's seat")
      .def("state_policy", [](const LgModel& mo, const LgStateHandle& s, int seat, const std::vector<int>& legal) {
        if (!mo.has_policy) throw py::value_error("this model has no policy net");
        if (seat < 0 || seat >= s.g->seats) throw py::value_error("seat out of range");
        check_actions(*s.g, legal);
        std::vector<double> out(legal.size());
        Legends::model_state_policy(*s.g, mo, s.s, seat, legal.data(), (int)legal.size(), out.data());
        return out;
      }, py::arg("state"), py::arg("seat"), py::arg("legal"),
         "the blueprint's probabilities of these actions of `seat` from its own picture of a full state: what a "
         "partner plays inside a tree with partners=1")
      .def("time_values", [](const LgModel& mo, const LgStateHandle& s, long n) {
        if (!mo.has_value) throw py::value_error("this model has no value net");
        if (n < 1 || n > 100000000) throw py::value_error("n must be within 1..1e8");
        std::vector<double> out((size_t)s.g->seats);
        double sum = 0.0, ns = 0.0;
        {
          py::gil_scoped_release unlocked;
          const auto start = std::chrono::steady_clock::now();
          for (long i = 0; i < n; ++i) {
            lg_model_values(*s.g, mo, s.s, out.data());
            sum += out[0];
          }
          ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        }
        return py::make_tuple(ns / (double)n, sum / (double)n);
      }, py::arg("state"), py::arg("n"), "(ns an evaluation, mean value): the value net timed on one state");

  py::object lgame = m.attr("LegendsGame");
  lgame.attr("new_model") = py::cpp_function(
      [](const LgGameHandle&, const std::string& id, const py::list& value_trunk, const py::list& value_heads,
         const py::list& policy_trunk, const py::list& policy_heads, const py::list& cards_trunk,
         const py::list& cards_heads, double card_temper) {
        if (!(card_temper >= 0.0 && card_temper <= 10.0))
          throw py::value_error("card_temper must be within 0..10, not " + std::to_string(card_temper));
        auto model = std::make_shared<LgModel>();
        model->id = id;
        const int n_in = lg_layout().total;
        model->has_value = !value_trunk.empty();
        model->has_policy = !policy_trunk.empty();
        if (model->has_value) model->value = net_of(n_in, value_trunk, value_heads, "value net");
        if (model->has_policy) model->policy = net_of(n_in, policy_trunk, policy_heads, "policy net");
        model->has_cards_net = !cards_trunk.empty();
        if (model->has_cards_net) model->cards = net_of(n_in, cards_trunk, cards_heads, "card net");
        model->card_temper = card_temper;
        value_errors([&] {
          model->check();
          return 0;
        });
        return model;
      },
      py::is_method(lgame), py::arg("id"), py::arg("value_trunk"), py::arg("value_heads"), py::arg("policy_trunk"),
      py::arg("policy_heads"), py::arg("cards_trunk") = py::list(), py::arg("cards_heads") = py::list(),
      py::arg("card_temper") = 1.0,
      "the native model from its layers (as HzModel's); an empty trunk: no such net");
  lgame.attr("feature_count") = py::cpp_function([](const LgGameHandle&) { return lg_layout().total; },
                                                 py::is_method(lgame),
                                                 "the size of a seat's feature encoding (the table's, then the history's)");
  lgame.attr("table_feature_count") = py::cpp_function(
      [](const LgGameHandle&) { return lg_layout().table; }, py::is_method(lgame),
      "the size of the table's features (a state's; a view's before its history): what the models made before the "
      "history read");
  lgame.attr("history_features") = py::cpp_function(
      [](const LgGameHandle& h, const LgViewHandle& v) {
        int32_t buf[LG_MAX_FEATURES];
        const int n = value_errors([&] { return lg_history_features(*h.g, v.v, buf); });
        return std::vector<int32_t>(buf, buf + n);
      },
      py::is_method(lgame), py::arg("view"), "the active history features of a seat's view (ascending, each at or above table_feature_count())");
  lgame.attr("followed_view_features") = py::cpp_function(
      [](const LgGameHandle& h, const LgStateHandle& start, const std::vector<int>& actions) {
        if (start.g != h.g && start.g->seats != h.g->seats) throw py::value_error("a state of another game");
        const LgGame& g = *h.g;
        LgState s = start.s;
        auto watch = LegendsSeats::watch(g, s);
        std::vector<int> legal((size_t)std::max(g.max_legal, 1)), ids((size_t)std::max(g.max_legal, 64));
        std::vector<double> probs(ids.size());
        for (size_t i = 0; i < actions.size(); ++i) {
          const int a = actions[i];
          bool ok = false;
          if (s.pending == P_CHANCE && s.result == R_NONE) {
            const int n = chance_outcomes(g, s, ids.data(), probs.data());
            ok = std::find(ids.begin(), ids.begin() + n, a) != ids.begin() + n;
          } else {
            const int n = legal_actions(g, s, legal.data());
            ok = std::find(legal.begin(), legal.begin() + n, a) != legal.begin() + n;
          }
          if (!ok) throw py::value_error("action " + std::to_string(i) + " (" + std::to_string(a) + ") is not legal there");
          LegendsSeats::play(g, watch, s, a);
        }
        py::list out;
        for (int seat = 0; seat < g.seats; ++seat) out.append(view_features_of(g, LegendsSeats::view(g, watch, s, seat)));
        return out;
      },
      py::is_method(lgame), py::arg("start"), py::arg("actions"),
      "every seat's view features after playing `actions` (ids, chance outcomes included) from `start`, each view "
      "followed as the arena and self-play follow a running game (legends_seats.hpp)");
  lgame.attr("action_feature_count") = py::cpp_function([](const LgGameHandle&) { return lg_action_layout().total; },
                                                        py::is_method(lgame), "the size of an action's feature encoding");
  lgame.attr("policy_kind") = "action_features";  // the policy head scores action features (hzai/learn/train.py)
  lgame.attr("team") = true;  // every seat shares the result: the root value is the team's
  lgame.attr("view_features") = py::cpp_function(
      [](const LgGameHandle& h, const LgViewHandle& v) { return view_features_of(*h.g, v.v); }, py::is_method(lgame),
      py::arg("view"), "the active features of a seat's view (ascending)");
  lgame.attr("state_features") = py::cpp_function(
      [](const LgGameHandle& h, const LgStateHandle& s, int seat) {
        if (s.g != h.g && s.g->seats != h.g->seats) throw py::value_error("a state of another game");
        if (seat < 0) seat = lg_value_seat(*h.g, s.s);
        int32_t buf[LG_MAX_FEATURES];
        const int n = value_errors([&] { return lg_state_features(*h.g, s.s, seat, buf); });
        return std::vector<int32_t>(buf, buf + n);
      },
      py::is_method(lgame), py::arg("state"), py::arg("seat") = -1,
      "the active features of a full state as `seat` would know it (-1: the seat to act)");
  lgame.attr("hidden_labels") = py::cpp_function(
      [](const LgGameHandle& h, const LgStateHandle& s, int seat) {
        if (s.g != h.g && s.g->seats != h.g->seats) throw py::value_error("a state of another game");
        if (seat < 0 || seat >= h.g->seats) throw py::value_error("seat out of range");
        std::vector<int32_t> out((size_t)LG_CARD_LABELS);
        lg_hidden_labels(*h.g, s.s, seat, out.data());
        return out;
      },
      py::is_method(lgame), py::arg("state"), py::arg("seat"),
      "the card labels of `seat`'s record: partner r's count of kind k (capped at 3) at (r - 1) * 9 + k, "
      "-1 where the game has no such partner or kind");
  lgame.attr("card_classes") = LG_CARD_CLASSES;
  lgame.attr("card_labels") = LG_CARD_LABELS;
  lgame.attr("action_features") = py::cpp_function(
      [](const LgGameHandle& h, int seat, int action) {
        if (seat < 0 || seat >= h.g->seats) throw py::value_error("seat out of range");
        check_actions(*h.g, {action});
        int32_t buf[LG_MAX_ACTION_FEATURES];
        const int n = lg_action_features(*h.g, seat, action, buf);
        return std::vector<int32_t>(buf, buf + n);
      },
      py::is_method(lgame), py::arg("seat"), py::arg("action"), "the features of an action played by `seat`");

  py::object search_cls = m.attr("LegendsSearch");
  search_cls.attr("set_model") = py::cpp_function(
      [](search::Ismcts<Legends>& s, const Model& model, bool value, bool policy, double cpuct, double mix) {
        if (value && !model->has_value) throw py::value_error("the model has no value net");
        if (policy && !model->has_policy) throw py::value_error("the model has no policy net");
        value_errors([&] {
          s.set_model(std::shared_ptr<const LgModel>(model), value, policy, cpuct, mix);
          return 0;
        });
      },
      py::is_method(search_cls), py::arg("model"), py::arg("value"), py::arg("policy"), py::arg("cpuct") = 0.25,
      py::arg("mix") = 1.0, "guide the search by the model: team value at the leaves, blueprint at the root");
  search_cls.attr("root_prior") = py::cpp_function(
      [](const search::Ismcts<Legends>& s) { return s.root_prior(); }, py::is_method(search_cls),
      "the blueprint's probability of each root move by action id (empty without a policy)");

  lgame.attr("selfplay") = py::cpp_function(
      [](const LgGameHandle& h, const search::BotSpec& bot, const Model& model, const std::vector<LgStateHandle>& starts,
         const std::vector<uint64_t>& seeds, int threads, int explore_moves, double temperature,
         const std::vector<int32_t>& text_ranks) {
        check_selfplay_args(threads, starts.size(), seeds.size(), explore_moves, temperature);
        auto g = std::make_shared<LgGame>(*h.g);
        if (!text_ranks.empty() && (int)text_ranks.size() != g->size)
          throw py::value_error("text_ranks: one rank per action id");
        g->text_rank = text_ranks;
        std::vector<LgState> states;
        for (const LgStateHandle& st : starts) {
          if (st.g != h.g) throw py::value_error("a start state of another game");
          states.push_back(st.s);
        }
        return selfplay_records<Legends>(g, bot, model, states, seeds, threads, explore_moves, temperature,
                                        Legends::label_count(*g));
      },
      py::is_method(lgame), py::arg("bot"), py::arg("model"), py::arg("starts"), py::arg("seeds"), py::arg("threads") = 1,
      py::arg("explore_moves") = 8, py::arg("temperature") = 1.0, py::arg("text_ranks") = std::vector<int32_t>{},
      "self-play records of one bot in every seat (search/selfplay.hpp): one dict of arrays a game");
}
