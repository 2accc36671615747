// Python bindings of Hera and Zeus' native core (register_hera_zeus, in the module
// hzai._native). The thin Python layer in hzai/games/hera_zeus/native/state.py turns
// decks, variants and reference-engine states into the plain values used here.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "core.hpp"
#include "hera_zeus.hpp"
#include "py_types.hpp"
#include "search/playout.hpp"

void bind_hz_search(pybind11::module_& m);  // search_bindings.cpp
void bind_hz_arena(pybind11::module_& m);   // search_bindings.cpp
void bind_replay(pybind11::module_& m);     // replay_bindings.cpp
void bind_learn(pybind11::module_& m);      // learn_bindings.cpp
void bind_pbi(pybind11::module_& m);        // pbi_bindings.cpp

namespace py = pybind11;
using namespace hzn;

namespace {

// The texts of the enums, from their one source (tables.def).
const char* const PHASES[] = {
#define HZ_PHASE(ID, TEXT) TEXT,
#include "tables.def"
};
const char* const PENDING_KINDS[] = {
#define HZ_PENDING(ID, TEXT) TEXT,
#include "tables.def"
};
const char* const REASONS[] = {
#define HZ_REASON(ID, TEXT) TEXT,
#include "tables.def"
};
constexpr int N_PHASES = sizeof(PHASES) / sizeof(PHASES[0]);
constexpr int N_PENDING_KINDS = sizeof(PENDING_KINDS) / sizeof(PENDING_KINDS[0]);
constexpr int N_REASONS = sizeof(REASONS) / sizeof(REASONS[0]);

int index_of(const char* const* table, int n, const std::string& value, const char* what) {
  for (int i = 0; i < n; ++i)
    if (value == table[i]) return i;
  throw py::value_error(std::string("unknown ") + what + ": " + value);
}

PyState new_state(const std::shared_ptr<const GameDef>& def) {
  PyState st{def, State()};
  std::memset(&st.s, 0, sizeof(State));
  st.s.phase = PH_SETUP;
  st.s.to_move = 0;
  st.s.winner = -1;
  return st;
}

py::dict get_raw(const PyState& st) {
  const State& s = st.s;
  py::dict d;
  py::list hands, decks, discards, columns;
  for (int p = 0; p < 2; ++p) {
    py::list hand;
    s.hand[p].each([&](int x) { hand.append(x); });
    hands.append(hand);
    py::list deck;
    for (int i = 0; i < s.deck_len[p]; ++i) deck.append((int)s.deck[p][s.deck_head[p] + i]);
    decks.append(deck);
    py::list pile;
    for (int i = 0; i < s.pile_len[p]; ++i) pile.append((int)s.pile[p][i]);
    discards.append(pile);
    py::list side;
    for (int c = 0; c < COLUMNS; ++c) {
      py::list column;
      for (int r = 0; r < s.col_len[p][c]; ++r) column.append((int)s.col[p][c][r]);
      side.append(column);
    }
    columns.append(side);
  }
  py::list face_up;
  s.face_up.each([&](int x) { face_up.append(x); });
  py::list pending;
  for (int i = 0; i < s.n_pending; ++i) {
    py::list cards;
    for (int k = 0; k < s.pending[i].n; ++k) cards.append((int)s.pending[i].cards[k]);
    pending.append(py::make_tuple(PENDING_KINDS[s.pending[i].kind], (int)s.pending[i].player, cards));
  }
  d["hands"] = hands;
  d["decks"] = decks;
  d["discards"] = discards;
  d["columns"] = columns;
  d["face_up"] = face_up;
  d["pending"] = pending;
  d["phase"] = PHASES[s.phase];
  d["to_move"] = s.to_move < 0 ? py::object(py::none()) : py::object(py::int_((int)s.to_move));
  d["turn_player"] = (int)s.turn_player;
  d["turn"] = s.turn;
  d["ap"] = s.ap;
  d["ap_spent"] = s.ap_spent;
  d["winner"] = s.winner < 0 ? py::object(py::none()) : py::object(py::int_((int)s.winner));
  d["reason"] = s.reason == RS_NONE ? py::object(py::none()) : py::object(py::str(REASONS[s.reason]));
  return d;
}

void set_raw(PyState& st, const py::dict& d) {
  const GameDef& g = *st.def;
  State s;
  std::memset(&s, 0, sizeof(State));
  Bits seen;
  auto card = [&](py::handle h) {
    const int x = h.cast<int>();
    if (x < 0 || x >= g.n_cards) throw py::value_error("card id out of range");
    if (seen.test(x)) throw py::value_error("card " + std::to_string(x) + " is in two places");
    seen.set(x);
    return x;
  };
  auto hands = d["hands"].cast<py::list>();
  auto decks = d["decks"].cast<py::list>();
  auto discards = d["discards"].cast<py::list>();
  auto columns = d["columns"].cast<py::list>();
  for (int p = 0; p < 2; ++p) {
    auto hand = hands[p].cast<py::list>();
    if ((int)hand.size() > MAX_HAND) throw py::value_error("hand too large for the native core");
    for (auto h : hand) s.hand[p].set(card(h));
    auto deck = decks[p].cast<py::list>();
    if ((int)deck.size() > MAX_SIDE) throw py::value_error("deck too large");
    s.deck_len[p] = (uint8_t)deck.size();
    for (size_t i = 0; i < deck.size(); ++i) s.deck[p][i] = (uint8_t)card(deck[i]);
    auto pile = discards[p].cast<py::list>();
    s.pile_len[p] = (uint8_t)pile.size();
    for (size_t i = 0; i < pile.size(); ++i) s.pile[p][i] = (uint8_t)card(pile[i]);
    auto side = columns[p].cast<py::list>();
    if (side.size() != COLUMNS) throw py::value_error("a side has three columns");
    int figures = 0;
    for (int c = 0; c < COLUMNS; ++c) {
      auto column = side[c].cast<py::list>();
      if (column.size() > DEPTH) throw py::value_error("a column holds at most four occupants");
      s.col_len[p][c] = (uint8_t)column.size();
      for (size_t r = 0; r < column.size(); ++r) {
        const int x = column[r].cast<int>();
        if (x == FIGURE) {
          if (r != 0) throw py::value_error("a figure stands only at r1");
          ++figures;
          s.col[p][c][r] = FIGURE;
        } else {
          s.col[p][c][r] = (int8_t)card(column[r]);
        }
      }
    }
    if (figures > 1) throw py::value_error("one figure per side");
  }
  for (auto h : d["face_up"].cast<py::list>()) s.face_up.set(h.cast<int>());
  auto pending = d["pending"].cast<py::list>();
  if ((int)pending.size() > MAX_PENDING) throw py::value_error("too many pending decisions");
  s.n_pending = (uint8_t)pending.size();
  for (size_t i = 0; i < pending.size(); ++i) {
    auto t = pending[i].cast<py::tuple>();
    Pending& pd = s.pending[i];
    pd.kind = (int8_t)index_of(PENDING_KINDS, N_PENDING_KINDS, t[0].cast<std::string>(), "pending kind");
    pd.player = (int8_t)t[1].cast<int>();
    auto cards = t[2].cast<py::list>();
    if ((int)cards.size() > MAX_BLOCK) throw py::value_error("pending block too large");
    pd.n = (uint8_t)cards.size();
    for (size_t k = 0; k < cards.size(); ++k) {
      const int x = cards[k].cast<int>();
      if (pd.kind == PD_PLACE) card(cards[k]);  // the card to place is nowhere else
      pd.cards[k] = (uint8_t)x;
    }
  }
  s.phase = (int8_t)index_of(PHASES, N_PHASES, d["phase"].cast<std::string>(), "phase");
  s.to_move = d["to_move"].is_none() ? -1 : (int8_t)d["to_move"].cast<int>();
  s.turn_player = (int8_t)d["turn_player"].cast<int>();
  s.turn = d["turn"].cast<int>();
  s.ap = d["ap"].cast<int>();
  s.ap_spent = d["ap_spent"].cast<int>();
  s.winner = d["winner"].is_none() ? -1 : (int8_t)d["winner"].cast<int>();
  s.reason = d["reason"].is_none() ? RS_NONE : (int8_t)index_of(REASONS, N_REASONS, d["reason"].cast<std::string>(), "reason");
  if (seen.count() + (s.n_pending && s.pending[0].kind == PD_PLACE ? 0 : 0) != g.n_cards)
    throw py::value_error("every card must be in exactly one place (" + std::to_string(seen.count()) + " of " +
                          std::to_string(g.n_cards) + ")");
  st.s = s;
}

std::vector<int> legal_sorted(const PyState& st) {
  int buf[MAX_ACTIONS];
  const int n = legal_actions_sorted(*st.def, st.s, buf);
  return std::vector<int>(buf, buf + n);
}

void check_action(const PyState& st, int action) {
  if (st.s.phase == PH_OVER) throw py::value_error("the game is over");
  if (!is_legal(*st.def, st.s, action)) {
    const std::string text =
        (action >= 0 && action < st.def->total_actions()) ? st.def->text[action] : std::to_string(action);
    throw py::value_error("illegal action " + std::to_string(action) + " (" + text + ") in this position");
  }
}

// Game i of a batch is random_playout(state, seed + i): the result does not depend on
// how the games are spread over threads.
py::tuple random_playouts(const PyState& st, long n_games, uint64_t seed, int threads) {
  if (n_games < 0) throw py::value_error("n_games must be ≥ 0");
  if (threads < 1) throw py::value_error("threads must be ≥ 1");
  py::array_t<int8_t> winners(n_games);
  py::array_t<int32_t> lengths(n_games);
  py::array_t<int32_t> turns(n_games);
  int8_t* w = winners.mutable_data();
  int32_t* len = lengths.mutable_data();
  int32_t* tu = turns.mutable_data();
  const GameDef& g = *st.def;
  State start = st.s;
  start.moves_played = 0;
  {
    py::gil_scoped_release release;
    // The reference engine's playout (text order), so game i is random_playout(seed + i).
    search::playout_batch<HeraZeus>(
        g, start, n_games, seed, threads, [&](State& s, SplitMix64& rng) { random_step(g, s, rng); },
        [&](long i, const State& s) {
          w[i] = s.winner;
          len[i] = s.moves_played;
          tu[i] = s.turn;
        });
  }
  return py::make_tuple(winners, lengths, turns);
}

}  // namespace

// Hera and Zeus in the module hzai._native (hzai/native/module.cpp calls it).
void register_hera_zeus(py::module_& m) {
  py::class_<PyGame>(m, "Game")
      .def(py::init([](const std::vector<py::tuple>& cards, int first_player, bool figure_removal_pegasus,
                       bool pythia_always_loses, int turn_limit) {
             std::vector<CardSpec> specs;
             for (const auto& t : cards) {
               specs.push_back(CardSpec{t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<int>(),
                                        t[3].cast<int>(), t[4].cast<int>(), t[5].cast<int>(), t[6].cast<bool>(),
                                        t[7].cast<bool>()});
             }
             try {
               return PyGame{std::make_shared<const GameDef>(specs, first_player, figure_removal_pegasus,
                                                             pythia_always_loses, turn_limit)};
             } catch (const std::invalid_argument& e) {
               throw py::value_error(e.what());
             }
           }),
           py::arg("cards"), py::arg("first_player"), py::arg("figure_removal_pegasus"),
           py::arg("pythia_always_loses"), py::arg("turn_limit"))
      .def_property_readonly("n_actions", [](const PyGame& g) { return g.def->total_actions(); })
      .def_property_readonly("names", [](const PyGame& g) { return g.def->names; })
      .def_property_readonly("offsets", [](const PyGame& g) {
        return std::vector<int>(g.def->offset, g.def->offset + A_COUNT + 1);
      })
      .def("action_text", [](const PyGame& g, int a) {
        if (a < 0 || a >= g.def->total_actions()) throw py::value_error("action id out of range");
        return g.def->text[a];
      })
      .def("new_state", [](const PyGame& g) { return new_state(g.def); }, "the empty setup state (no cards dealt)")
      .def("deal", [](const PyGame& g, uint64_t seed) {
        PyState st{g.def, deal(*g.def, seed)};
        return st;
      }, py::arg("seed"), "the state right after the deal of record.deal(game, seed)");

  py::class_<PyState>(m, "State")
      .def("clone", [](const PyState& st) { return PyState(st); })
      .def("get_raw", &get_raw)
      .def("set_raw", &set_raw)
      .def("legal_actions", &legal_sorted, "legal action ids, sorted by their notation text")
      .def("legal_texts", [](const PyState& st) {
        std::vector<std::string> out;
        for (int a : legal_sorted(st)) out.push_back(st.def->text[a]);
        return out;
      })
      .def("chance_outcomes", [](const PyState& st) {
        int ids[MAX_CARDS], counts[MAX_CARDS];
        const int n = chance_outcomes(*st.def, st.s, ids, counts);
        std::vector<std::pair<int, int>> out;
        for (int i = 0; i < n; ++i) out.emplace_back(ids[i], counts[i]);
        return out;
      }, "(chance action id, number of hand cards it stands for), sorted by text")
      .def("apply", [](PyState& st, int action, bool check) {
        if (check) check_action(st, action);
        apply_action(*st.def, st.s, action);
      }, py::arg("action"), py::arg("check") = true)
      .def("is_legal", [](const PyState& st, int a) { return is_legal(*st.def, st.s, a); })
      .def("random_playout", [](PyState& st, uint64_t seed) {
        py::gil_scoped_release release;
        random_playout(*st.def, st.s, seed);
      }, py::arg("seed"), "plays to the end in place, as hzai.games.hera_zeus.rules.random_playout(state, seed)")
      .def_property_readonly("is_over", [](const PyState& st) { return st.s.phase == PH_OVER; })
      .def_property_readonly("is_chance", [](const PyState& st) {
        return st.s.phase != PH_OVER && st.s.n_pending && st.s.pending[0].kind == PD_CHANCE;
      })
      .def_property_readonly("winner", [](const PyState& st) {
        return st.s.winner < 0 ? py::object(py::none()) : py::object(py::int_((int)st.s.winner));
      })
      .def_property_readonly("to_move", [](const PyState& st) {
        return st.s.to_move < 0 ? py::object(py::none()) : py::object(py::int_((int)st.s.to_move));
      })
      .def_property_readonly("turn", [](const PyState& st) { return st.s.turn; })
      .def_property_readonly("reason", [](const PyState& st) {
        return st.s.reason == RS_NONE ? py::object(py::none()) : py::object(py::str(REASONS[st.s.reason]));
      }, "why the game ended, as State.reason (None while it runs)")
      .def_property_readonly("moves_played", [](const PyState& st) { return st.s.moves_played; });

  m.def("random_playouts", &random_playouts, py::arg("state"), py::arg("n_games"), py::arg("seed"),
        py::arg("threads") = 1,
        "plays n_games random games from state with the GIL released; game i uses seed + i. "
        "Returns numpy arrays (winner: 0, 1 or -1 for a draw; moves applied; final turn).");

  bind_hz_search(m);  // after Game: the searches are methods of its handle
  bind_replay(m);
  bind_hz_arena(m);
  bind_learn(m);  // HzModel
  bind_pbi(m);    // after HzModel and Inference
}
