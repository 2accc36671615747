// What the learned models' bindings of every game share (learn_bindings.cpp,
// legends_learn_bindings.cpp): nets built from the weight arrays hzai/native/model.py
// read and checked, and self-play games (search/selfplay.hpp) as flat arrays.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "../search/selfplay.hpp"
#include "mlp.hpp"

namespace hzn::learn_py {

namespace py = pybind11;

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

// A layer from (w, b): w of shape (rows, cols) as stored (trunk: (in, out); head:
// (out, in)), b of the layer's outputs.
inline learn::Layer layer_of(const py::handle& pair, bool head, const std::string& what) {
  auto t = pair.cast<py::tuple>();
  if (t.size() != 2) throw py::value_error(what + ": a layer is a (weights, biases) pair");
  FloatArray w = t[0].cast<FloatArray>(), b = t[1].cast<FloatArray>();
  if (w.ndim() != 2 || b.ndim() != 1) throw py::value_error(what + ": weights must be 2-D and biases 1-D");
  learn::Layer l;
  l.in = (int)(head ? w.shape(1) : w.shape(0));
  l.out = (int)(head ? w.shape(0) : w.shape(1));
  if (b.shape(0) != l.out) throw py::value_error(what + ": biases do not match the weights' outputs");
  l.w.assign(w.data(), w.data() + w.size());
  l.b.assign(b.data(), b.data() + b.size());
  for (float x : l.w)
    if (!std::isfinite(x)) throw py::value_error(what + ": a weight is not finite");
  for (float x : l.b)
    if (!std::isfinite(x)) throw py::value_error(what + ": a bias is not finite");
  return l;
}

inline learn::Net net_of(int n_in, const py::list& trunk, const py::list& heads, const std::string& what) {
  learn::Net net;
  net.n_in = n_in;
  for (size_t i = 0; i < trunk.size(); ++i) net.trunk.push_back(layer_of(trunk[i], false, what + " layer " + std::to_string(i)));
  for (size_t i = 0; i < heads.size(); ++i) net.heads.push_back(layer_of(heads[i], true, what + " head " + std::to_string(i)));
  return net;
}

template <class T>
py::array_t<T> array_of(const std::vector<T>& v) {
  py::array_t<T> a((py::ssize_t)v.size());
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

// The games' records as flat arrays (CSR for the variable-length parts), one dict a game.
inline py::dict game_arrays(const search::SelfplayGame& game, int labels) {
  std::vector<int32_t> vidx, vptr{0}, sidx, sptr{0}, pact, pptr{0}, seat, move, lab;
  std::vector<int32_t> action, turn;
  std::vector<float> pprob, value, oracle;
  std::vector<uint8_t> explored, full;
  for (const auto& r : game.records) {
    vidx.insert(vidx.end(), r.view_features.begin(), r.view_features.end());
    vptr.push_back((int32_t)vidx.size());
    sidx.insert(sidx.end(), r.state_features.begin(), r.state_features.end());
    sptr.push_back((int32_t)sidx.size());
    for (const auto& [a, p] : r.policy) {
      pact.push_back(a);
      pprob.push_back(p);
    }
    pptr.push_back((int32_t)pact.size());
    seat.push_back(r.seat);
    move.push_back(r.move);
    explored.push_back(r.explored ? 1 : 0);
    full.push_back(r.full ? 1 : 0);
    value.push_back(r.root_value);
    oracle.push_back(r.oracle_value);
    action.push_back(r.action);
    turn.push_back(r.turn);
    lab.insert(lab.end(), r.labels.begin(), r.labels.end());
  }
  py::dict d;
  d["view_idx"] = array_of(vidx);
  d["view_ptr"] = array_of(vptr);
  d["state_idx"] = array_of(sidx);
  d["state_ptr"] = array_of(sptr);
  d["policy_action"] = array_of(pact);
  d["policy_prob"] = array_of(pprob);
  d["policy_ptr"] = array_of(pptr);
  d["seat"] = array_of(seat);
  d["move"] = array_of(move);
  d["explored"] = array_of(explored);
  d["root_value"] = array_of(value);
  d["full"] = array_of(full);
  d["oracle_value"] = array_of(oracle);
  d["action"] = array_of(action);
  d["turn"] = array_of(turn);
  d["decisions"] = game.decisions;
  d["full_decisions"] = game.full_decisions;
  py::array_t<int32_t> l = array_of(lab);
  d["labels"] = l.reshape({(py::ssize_t)game.records.size(), (py::ssize_t)labels});
  d["returns"] = array_of(game.returns);
  d["error"] = game.error;
  return d;
}


// The checks a game's `selfplay` binding makes of its arguments (ValueError naming them).
inline void check_selfplay_args(int threads, size_t starts, size_t seeds, int explore_moves, double temperature) {
  if (threads < 1 || threads > 256) throw py::value_error("threads must be within 1..256");
  if (starts != seeds) throw py::value_error("one seed per start");
  if (explore_moves < 0 || !(temperature >= 0.0) || temperature > 100.0)
    throw py::value_error("explore_moves must be ≥ 0 and temperature within 0..100");
}

// The same, with playout-cap randomisation's options (search/selfplay.hpp).
inline void check_selfplay_args(int threads, size_t starts, size_t seeds, const search::SelfplayOptions& opt) {
  check_selfplay_args(threads, starts, seeds, opt.explore_moves, opt.temperature);
  try {
    search::check_selfplay_options(opt);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
}

// Self-play of one bot (with `model`, or none) in every seat of game G from each start,
// on `threads` threads with the GIL released (search/selfplay.hpp); a game that fails
// keeps its error. One dict of arrays a game (game_arrays, `labels` per record).
template <class G, class Def, class M, class S>
py::list selfplay_records(const Def& def, const search::BotSpec& bot, const std::shared_ptr<M>& model,
                          const std::vector<S>& states, const std::vector<uint64_t>& seeds, int threads,
                          const search::SelfplayOptions& opt, int labels) {
  std::shared_ptr<search::Arena<G>> arena;
  try {
    std::vector<std::shared_ptr<const M>> models;
    if (model) models.push_back(model);
    arena = std::make_shared<search::Arena<G>>(def, std::vector<search::BotSpec>{bot}, models);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  if (opt.full_share < 1.0 && opt.fast_budget == 0 && (!model || !model->has_policy))
    throw py::value_error("policy-only fast decisions (fast_budget 0, full_share below 1) need a model with a policy net");
  std::vector<search::SelfplayGame> games(states.size());
  {
    py::gil_scoped_release unlocked;
    search::parallel_indices((long)states.size(), threads, 1, [&](long i) {
      try {
        games[(size_t)i] = search::selfplay_game<G>(*arena, 0, states[(size_t)i], seeds[(size_t)i], opt, model.get());
      } catch (const std::runtime_error& e) {
        games[(size_t)i] = search::SelfplayGame{};
        games[(size_t)i].error = e.what();
      }
    });
  }
  py::list out;
  for (const auto& game : games) out.append(game_arrays(game, labels));
  return out;
}

// Every decision a full search (today's records), as the games whose bindings take no
// playout-cap options call it.
template <class G, class Def, class M, class S>
py::list selfplay_records(const Def& def, const search::BotSpec& bot, const std::shared_ptr<M>& model,
                          const std::vector<S>& states, const std::vector<uint64_t>& seeds, int threads,
                          int explore_moves, double temperature, int labels) {
  search::SelfplayOptions opt;
  opt.explore_moves = explore_moves;
  opt.temperature = temperature;
  return selfplay_records<G>(def, bot, model, states, seeds, threads, opt, labels);
}

}  // namespace hzn::learn_py
