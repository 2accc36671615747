// Python bindings of the Legends twin: the game (built from the dict that
// hzai/games/legends/native/twin.py makes of the data file, options and action-id layout), states
// loaded from and dumped to plain dicts (the differential tests compare those), random
// playouts over threads, views and their samples; register_legends, Legends in the module
// hzai._native. The searches and arena are bound in legends_search_bindings.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "legends_py.hpp"
#include "search/playout.hpp"

namespace py = pybind11;
using namespace hzn::lg;

void bind_legends_search(py::module_& m);  // legends_search_bindings.cpp
void bind_legends_arena(py::module_& m);   // legends_search_bindings.cpp
void bind_legends_learn(py::module_& m);   // legends_learn_bindings.cpp

namespace {

const char* const FACE_TEXT[] = {"up", "down", "sideways"};

template <class T>
T get(const py::dict& d, const char* key) {
  if (!d.contains(key)) throw py::value_error(std::string("missing key ") + key);
  try {
    return d[key].cast<T>();
  } catch (const py::cast_error&) {
    throw py::value_error(std::string("key ") + key + " has the wrong type");
  }
}

int text_index(const py::handle& h, const char* const* texts, int n, const char* what) {
  if (h.is_none()) {
    for (int i = 0; i < n; ++i)
      if (texts[i] == nullptr) return i;
    throw py::value_error(std::string(what) + " may not be None");
  }
  const std::string s = h.cast<std::string>();
  for (int i = 0; i < n; ++i)
    if (texts[i] && s == texts[i]) return i;
  throw py::value_error(std::string("unknown ") + what + " " + s);
}

py::object text_or_none(const char* t) { return t ? py::object(py::str(t)) : py::object(py::none()); }
py::object int_or_none(int x) { return x < 0 ? py::object(py::none()) : py::object(py::int_(x)); }
int none_or_int(const py::handle& h) { return h.is_none() ? -1 : h.cast<int>(); }

void bounded(const std::vector<int>& v, size_t most, const char* what) {
  if (v.size() > most) throw py::value_error(std::string(what) + " is too long for the native twin");
}

std::shared_ptr<const LgGame> game_of(const py::dict& d) {
  auto g = std::make_shared<LgGame>();
  g->attrs = get<int>(d, "attrs");
  g->seats = get<int>(d, "seats");
  g->first = get<int>(d, "first");
  g->turn_limit = get<int>(d, "turn_limit");
  g->free_relocation = get<bool>(d, "free_relocation");
  g->hero_attr = get<std::vector<int>>(d, "hero_attr");
  g->deck = get<std::vector<int>>(d, "deck");
  g->aside = get<int>(d, "aside");
  for (const auto& p : get<std::vector<std::vector<int>>>(d, "monsters")) {
    if (p.size() != 2) throw py::value_error("a monster card has two attributes");
    g->monster_attrs.push_back({p[0], p[1]});
  }
  const auto sizes = get<std::vector<int>>(d, "sizes");
  if (sizes.size() != 3) throw py::value_error("sizes: normal, chimera, hades");
  g->size_normal = sizes[0], g->size_chimera = sizes[1], g->size_hades = sizes[2];
  g->start = get<int>(d, "start");
  g->finals = get<int>(d, "finals");
  g->special = (Special)text_index(d["special"], SPECIAL_TEXT, 5, "special");
  for (const auto& kv : get<std::map<int, std::pair<int, int>>>(d, "triggers")) {  // defeat -> (kind, n)
    if (kv.first < 1 || kv.first > 1000) throw py::value_error("trigger defeat number out of range");
    if ((int)g->trigger.size() <= kv.first) g->trigger.resize((size_t)kv.first + 1, T_NONE), g->trigger_n.resize((size_t)kv.first + 1, 0);
    g->trigger[(size_t)kv.first] = (int8_t)kv.second.first;
    g->trigger_n[(size_t)kv.first] = kv.second.second;
  }
  const auto bases = get<std::vector<int>>(d, "bases");
  if (bases.size() != B_COUNT) throw py::value_error("bases: one offset per action block");
  for (int b = 0; b < B_COUNT; ++b) g->base[b] = bases[(size_t)b];
  g->size = get<int>(d, "size");
  g->multisets = get<std::vector<std::vector<int>>>(d, "multisets");
  const auto sb = get<std::vector<int>>(d, "seq_base");
  if (sb.size() != MAX_ORDER) throw py::value_error("seq_base: lengths 1..5");
  for (int i = 0; i < MAX_ORDER; ++i) g->seq_base[i + 1] = sb[(size_t)i];
  g->seq_count = get<int>(d, "seq_count");
  const auto weights = get<std::map<std::string, double>>(d, "weights");
  for (int i = 0; i < W_COUNT; ++i) {
    const auto it = weights.find(WEIGHT_TEXT[i]);
    if (it == weights.end()) throw py::value_error(std::string("weights: missing ") + WEIGHT_TEXT[i]);
    if (!std::isfinite(it->second)) throw py::value_error(std::string("weights: ") + WEIGHT_TEXT[i] + " must be finite");
    g->weight[i] = it->second;
  }
  if (weights.size() != (size_t)W_COUNT) throw py::value_error("weights: an unknown name");
  for (int div : {W_ABILITY_USE_DIV, W_MOVE_USE_DIV, W_ORDER_DIV})
    if (g->weight[div] == 0.0) throw py::value_error(std::string("weights: ") + WEIGHT_TEXT[div] + " divides, not 0");
  try {
    g->finish();
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  return g;
}

LgState state_of(const LgGame& g, const py::dict& d) {
  LgState s;
  const auto kind = get<std::vector<int>>(d, "kind");
  bounded(kind, MAX_CARDS, "kind");
  s.ncards = (int)kind.size();
  for (size_t i = 0; i < kind.size(); ++i) {
    if (kind[i] < 0 || kind[i] >= g.kinds) throw py::value_error("kind out of range");
    s.kind[i] = (uint8_t)kind[i];
  }
  auto inst = [&](int x) {
    if (x < 0 || x >= s.ncards) throw py::value_error("card instance out of range");
    return (uint8_t)x;
  };
  const auto hands = get<std::vector<std::vector<int>>>(d, "hands");
  if ((int)hands.size() != g.seats) throw py::value_error("hands: one per seat");
  for (int p = 0; p < g.seats; ++p) {
    bounded(hands[(size_t)p], MAX_HAND, "a hand");
    s.hn[p] = (uint8_t)hands[(size_t)p].size();
    for (size_t i = 0; i < hands[(size_t)p].size(); ++i) s.hand[p][i] = inst(hands[(size_t)p][i]);
  }
  const auto draw = get<std::vector<int>>(d, "draw");
  bounded(draw, MAX_CARDS, "draw");
  s.dn = (int)draw.size();
  for (size_t i = 0; i < draw.size(); ++i) s.draw[i] = inst(draw[i]);
  const auto discard = get<std::vector<std::pair<int, int>>>(d, "discard");
  if (discard.size() > (size_t)MAX_CARDS) throw py::value_error("discard is too long");
  s.discn = (int)discard.size();
  for (size_t i = 0; i < discard.size(); ++i) {
    if (discard[i].second < 0 || discard[i].second >= g.seats) throw py::value_error("discard: seat out of range");
    s.disc_inst[i] = inst(discard[i].first), s.disc_by[i] = (uint8_t)discard[i].second;
  }
  s.aside = get<int>(d, "aside");
  const auto oracle = get<std::vector<int>>(d, "oracle");
  bounded(oracle, ORACLE_LOOK, "oracle");
  s.on = (int)oracle.size();
  for (size_t i = 0; i < oracle.size(); ++i) s.oracle[i] = inst(oracle[i]);
  const auto md = get<std::vector<int>>(d, "monster_deck");
  bounded(md, MAX_MONSTERS, "monster_deck");
  s.mdn = (int)md.size();
  for (size_t i = 0; i < md.size(); ++i) {
    if (md[i] < 0 || md[i] >= (int)g.monster_attrs.size()) throw py::value_error("monster card out of range");
    s.mdeck[i] = (uint8_t)md[i];
  }
  const auto mons = get<std::vector<py::dict>>(d, "monsters");
  if (mons.size() > (size_t)MAX_MONSTERS) throw py::value_error("too many monsters");
  s.nmon = (int)mons.size();
  for (size_t i = 0; i < mons.size(); ++i) {
    Monster& m = s.mon[i];
    const auto& md_ = mons[i];
    m.id = (uint8_t)(i + 1);
    const auto cards = get<std::vector<int>>(md_, "cards");
    bounded(cards, 3, "monster cards");
    m.ncards = (uint8_t)cards.size();
    for (size_t j = 0; j < cards.size(); ++j) {
      if (cards[j] < 0 || cards[j] >= (int)g.monster_attrs.size()) throw py::value_error("monster card out of range");
      m.cards[j] = (uint8_t)cards[j];
    }
    const auto req = get<std::vector<int>>(md_, "req");
    if ((int)req.size() != g.attrs) throw py::value_error("req: one count per attribute");
    for (int a = 0; a < g.attrs; ++a) {
      if (req[(size_t)a] < 0 || req[(size_t)a] > MAX_PLAYED) throw py::value_error("req out of range");
      m.req[a] = (uint8_t)req[(size_t)a];
    }
    const int size = get<int>(md_, "size");
    if (size < 1 || size > MAX_PLAYED) throw py::value_error("monster size out of range");
    m.size = (uint8_t)size;
    m.final_ = get<bool>(md_, "final");
    m.defeated = get<bool>(md_, "defeated");
    const auto played = get<std::vector<py::tuple>>(md_, "played");
    if (played.size() > (size_t)size) throw py::value_error("more cards on a monster than its size");
    m.nplayed = (uint8_t)played.size();
    for (size_t j = 0; j < played.size(); ++j) {
      const auto& p = played[j];
      if (p.size() != 4) throw py::value_error("played: (instance, as, face, by)");
      const int attr = p[1].cast<int>(), by = p[3].cast<int>();
      if (attr < -1 || attr >= g.attrs || by < 0 || by >= g.seats) throw py::value_error("played card malformed");
      m.played[j] = Played{inst(p[0].cast<int>()), (int8_t)attr, (uint8_t)text_index(p[2], FACE_TEXT, 3, "face"),
                           (uint8_t)by};
      if (attr >= 0) ++m.cnt[attr];
    }
  }
  const auto disc = get<std::vector<py::object>>(d, "disc");
  const auto broken = get<std::vector<bool>>(d, "broken");
  if ((int)disc.size() != g.seats || (int)broken.size() != g.seats) throw py::value_error("disc / broken: one per seat");
  for (int p = 0; p < g.seats; ++p) s.disc[p] = (int8_t)none_or_int(disc[(size_t)p]), s.broken[p] = broken[(size_t)p];
  s.turn = get<int>(d, "turn");
  s.turn_seat = get<int>(d, "turn_seat");
  s.pending = (Pending)text_index(d["pending"], PENDING_TEXT, 8, "pending");
  s.actor = none_or_int(d["actor"]);
  s.placed = get<int>(d, "placed");
  s.giver = none_or_int(d["giver"]);
  s.forced = get<bool>(d, "forced");
  if (!d["after_fight"].is_none()) {
    const auto af = d["after_fight"].cast<std::pair<int, bool>>();
    s.af_set = true, s.af_defeat = af.first, s.af_slay = af.second;
  }
  s.normals_entered = get<int>(d, "normals_entered");
  s.normals_defeated = get<int>(d, "normals_defeated");
  s.finals_defeated = get<int>(d, "finals_defeated");
  s.result = (Result)text_index(d["result"], RESULT_TEXT, 3, "result");
  s.reason = (Reason)text_index(d["reason"], REASON_TEXT, 6, "reason");
  if (s.turn_seat < 0 || s.turn_seat >= g.seats) throw py::value_error("turn_seat out of range");
  try {
    check_state(g, s);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  return s;
}

py::dict dump(const LgGame& g, const LgState& s) {
  py::dict d;
  std::vector<int> kind(s.kind, s.kind + s.ncards);
  d["kind"] = kind;
  std::vector<std::vector<int>> hands;
  for (int p = 0; p < g.seats; ++p) hands.emplace_back(s.hand[p], s.hand[p] + s.hn[p]);
  d["hands"] = hands;
  d["draw"] = std::vector<int>(s.draw, s.draw + s.dn);
  std::vector<std::pair<int, int>> discard;
  for (int i = 0; i < s.discn; ++i) discard.emplace_back(s.disc_inst[i], s.disc_by[i]);
  d["discard"] = discard;
  d["aside"] = s.aside;
  d["oracle"] = std::vector<int>(s.oracle, s.oracle + s.on);
  d["monster_deck"] = std::vector<int>(s.mdeck, s.mdeck + s.mdn);
  py::list mons;
  for (int i = 0; i < s.nmon; ++i) {
    const Monster& m = s.mon[i];
    py::dict md;
    md["id"] = (int)m.id;
    md["cards"] = std::vector<int>(m.cards, m.cards + m.ncards);
    md["req"] = std::vector<int>(m.req, m.req + g.attrs);
    md["cnt"] = std::vector<int>(m.cnt, m.cnt + g.attrs);
    md["size"] = (int)m.size;
    md["final"] = m.final_;
    md["defeated"] = m.defeated;
    py::list played;
    for (int j = 0; j < m.nplayed; ++j) {
      const Played& p = m.played[j];
      played.append(py::make_tuple((int)p.inst, (int)p.attr, FACE_TEXT[p.face], (int)p.by));
    }
    md["played"] = played;
    mons.append(md);
  }
  d["monsters"] = mons;
  py::list disc, broken;
  for (int p = 0; p < g.seats; ++p) disc.append(int_or_none(s.disc[p])), broken.append(s.broken[p]);
  d["disc"] = disc;
  d["broken"] = broken;
  d["turn"] = s.turn;
  d["turn_seat"] = s.turn_seat;
  d["pending"] = text_or_none(PENDING_TEXT[s.pending]);
  d["actor"] = int_or_none(s.actor);
  d["placed"] = s.placed;
  d["giver"] = int_or_none(s.giver);
  d["forced"] = s.forced;
  d["after_fight"] = s.af_set ? py::object(py::make_tuple(s.af_defeat, s.af_slay)) : py::object(py::none());
  d["normals_entered"] = s.normals_entered;
  d["normals_defeated"] = s.normals_defeated;
  d["finals_defeated"] = s.finals_defeated;
  d["result"] = text_or_none(RESULT_TEXT[s.result]);
  d["reason"] = text_or_none(REASON_TEXT[s.reason]);
  return d;
}

LgEvent event_of(const py::tuple& t) {
  LgEvent e;
  e.type = t[0].cast<int>();
  e.seat = t[1].cast<int>();
  e.other = t[2].cast<int>();
  e.n = t[3].cast<int>();
  e.mon = t[4].cast<int>();
  e.face = t[5].cast<int>();
  e.k = t[6].cast<int>();
  e.shown = t[7].cast<bool>();
  e.kinds = t[8].cast<std::vector<int>>();
  return e;
}

LgView view_of(const LgGame& g, const py::dict& d) {
  LgView v;
  v.seat = get<int>(d, "seat");
  v.own_start = get<std::vector<int>>(d, "own_start");
  v.start_hands = get<std::vector<int>>(d, "start_hands");
  v.start_pile = get<int>(d, "start_pile");
  const auto log = get<std::vector<py::tuple>>(d, "log");
  if (log.size() > 1000000) throw py::value_error("view: log too long");
  for (const auto& t : log) {
    if (t.size() != 9) throw py::value_error("view: a log event has 9 fields");
    v.log.push_back(event_of(t));
  }
  if (d.contains("history")) {  // optional: a view without it has no history features
    const auto history = get<std::vector<std::tuple<int, int, int>>>(d, "history");
    if (history.size() > 1000000) throw py::value_error("view: history too long");
    for (const auto& [seat, pending, obs] : history) v.history.push_back({seat, pending, obs});
  }
  for (const auto& md : get<std::vector<py::dict>>(d, "monsters")) {
    LgMonsterView m;
    m.id = get<int>(md, "id");
    m.size = get<int>(md, "size");
    m.final_ = get<bool>(md, "final");
    m.defeated = get<bool>(md, "defeated");
    m.cards = get<std::vector<int>>(md, "cards");
    m.req = get<std::vector<int>>(md, "req");
    for (const auto& p : get<std::vector<std::tuple<int, int, int>>>(md, "played"))
      m.played.push_back({std::get<0>(p), std::get<1>(p), std::get<2>(p)});
    v.monsters.push_back(m);
  }
  v.monster_deck_left = get<std::vector<int>>(d, "monster_deck_left");
  v.aside = get<int>(d, "aside");
  for (const auto& x : get<std::vector<py::object>>(d, "disc")) v.disc.push_back(none_or_int(x));
  v.broken = get<std::vector<bool>>(d, "broken");
  v.turn = get<int>(d, "turn");
  v.turn_seat = get<int>(d, "turn_seat");
  v.pending = text_index(d["pending"], PENDING_TEXT, 8, "pending");
  v.actor = none_or_int(d["actor"]);
  v.placed = get<int>(d, "placed");
  v.giver = none_or_int(d["giver"]);
  v.forced = get<bool>(d, "forced");
  if (!d["after_fight"].is_none()) {
    const auto af = d["after_fight"].cast<std::pair<int, bool>>();
    v.af_set = true, v.af_defeat = af.first, v.af_slay = af.second;
  }
  v.normals_entered = get<int>(d, "normals_entered");
  v.normals_defeated = get<int>(d, "normals_defeated");
  v.finals_defeated = get<int>(d, "finals_defeated");
  v.result = text_index(d["result"], RESULT_TEXT, 3, "result");
  v.reason = text_index(d["reason"], REASON_TEXT, 6, "reason");
  try {
    v.check(g);
    check_state(g, sample(g, v, 0));  // well typed is not enough: one draw must give a sound state
  } catch (const std::exception& e) {
    throw py::value_error(std::string(e.what()).rfind("view: ", 0) == 0 ? e.what() : std::string("view: ") + e.what());
  }
  return v;
}

std::vector<int> legal_of(const LgGame& g, const LgState& s) {
  std::vector<int> buf((size_t)g.max_legal);
  buf.resize((size_t)legal_actions(g, s, buf.data()));
  return buf;
}

using Step = void (*)(const LgGame&, LgState&, hzn::SplitMix64&);

LgStateHandle playout(const LgStateHandle& h, uint64_t seed, Step step) {
  LgState s = h.s;
  hzn::SplitMix64 rng(seed);
  while (current_player(*h.g, s) != hzn::search::TERMINAL) step(*h.g, s, rng);
  return LgStateHandle{h.g, s};
}

std::pair<std::vector<int>, std::vector<int>> playouts(const LgStateHandle& h, long n, uint64_t seed, int threads,
                                                       Step step) {
  if (n < 0 || n > 100000000) throw py::value_error("n must be within 0..10^8");
  if (threads < 1 || threads > 256) throw py::value_error("threads must be within 1..256");
  std::vector<int8_t> won((size_t)n);
  std::vector<int> turns((size_t)n);
  {
    py::gil_scoped_release unlocked;
    hzn::search::playout_batch<Legends>(*h.g, h.s, n, seed, threads,
                                        [&](LgState& s, hzn::SplitMix64& rng) { step(*h.g, s, rng); },
                                        [&](long i, const LgState& s) {
                                          won[(size_t)i] = s.result == R_WON;
                                          turns[(size_t)i] = s.turn;
                                        });
  }
  return {std::vector<int>(won.begin(), won.end()), turns};
}

}  // namespace

void bind_legends(py::module_& m) {
  py::class_<LgGameHandle>(m, "LegendsGame", "the static game of one Legends mission (hzai/games/legends/native/twin.py)")
      .def(py::init([](const py::dict& d) { return LgGameHandle{game_of(d)}; }), py::arg("spec"))
      .def_property_readonly("num_actions", [](const LgGameHandle& h) { return h.g->size; })
      .def_property_readonly("max_legal", [](const LgGameHandle& h) { return h.g->max_legal; })
      .def_property_readonly("seats", [](const LgGameHandle& h) { return h.g->seats; })
      .def("state", [](const LgGameHandle& h, const py::dict& d) { return LgStateHandle{h.g, state_of(*h.g, d)}; },
           py::arg("dump"), "a state from a dump (hzai.games.legends.native.twin.table_dump)")
      .def("view", [](const LgGameHandle& h, const py::dict& d) { return LgViewHandle{h.g, view_of(*h.g, d)}; },
           py::arg("spec"), "a seat's view from its spec (hzai.games.legends.native.twin.view_spec)")
      .def("world_view", [](const LgGameHandle& h, const LgStateHandle& s) {
        return LgViewHandle{h.g, Legends::world_view(*h.g, s.s)};
      }, py::arg("state"), "the view of a seat that sees every card: every sample is this state");
  m.attr("LEGENDS_PENDING") = std::vector<std::string>(PENDING_TEXT, PENDING_TEXT + 7);
  m.attr("LEGENDS_BLOCKS") = std::vector<std::string>(BLOCK_TEXT, BLOCK_TEXT + B_COUNT);
  m.attr("LEGENDS_WEIGHTS") = std::vector<std::string>(WEIGHT_TEXT, WEIGHT_TEXT + W_COUNT);
  m.attr("LEGENDS_TRIGGERS") = std::vector<std::string>(TRIGGER_TEXT, TRIGGER_TEXT + 5);
  std::vector<py::object> results, reasons;
  for (const char* t : RESULT_TEXT) results.push_back(text_or_none(t));
  for (const char* t : REASON_TEXT) reasons.push_back(text_or_none(t));
  m.attr("LEGENDS_RESULTS") = results;
  std::vector<py::object> specials;
  for (const char* t : SPECIAL_TEXT) specials.push_back(text_or_none(t));
  m.attr("LEGENDS_SPECIALS") = specials;
  m.attr("LEGENDS_REASONS") = reasons;
  m.attr("LEGENDS_FACES") = std::vector<std::string>(FACE_TEXT, FACE_TEXT + 3);
  m.attr("LEGENDS_EVENTS") = std::vector<std::string>(EVENT_TEXT, EVENT_TEXT + 9);

  py::class_<LgViewHandle>(m, "LegendsView", "one seat's view as the native sampler reads it")
      .def_property_readonly("seat", [](const LgViewHandle& v) { return v.v.seat; });

  py::class_<LgStateHandle>(m, "LegendsState", "a Legends position in the native twin")
      .def("dump", [](const LgStateHandle& h) { return dump(*h.g, h.s); })
      .def("clone", [](const LgStateHandle& h) { return h; })
      .def_property_readonly("current_player", [](const LgStateHandle& h) { return current_player(*h.g, h.s); },
                             "a seat, -1 at chance, -2 at the end")
      .def("legal_actions", [](const LgStateHandle& h) { return legal_of(*h.g, h.s); }, "sorted action ids")
      .def("chance_outcomes", [](const LgStateHandle& h) {
        std::vector<int> ids((size_t)h.g->max_legal);
        std::vector<double> probs((size_t)h.g->max_legal);
        const int n = chance_outcomes(*h.g, h.s, ids.data(), probs.data());
        std::vector<std::pair<int, double>> out;
        for (int i = 0; i < n; ++i) out.emplace_back(ids[(size_t)i], probs[(size_t)i]);
        return out;
      }, "[(action id, probability)] at a chance node")
      .def("apply", [](LgStateHandle& h, int a) {
        if (h.s.pending == P_CHANCE && h.s.result == R_NONE) {
          std::vector<int> ids((size_t)h.g->max_legal);
          std::vector<double> probs((size_t)h.g->max_legal);
          const int n = chance_outcomes(*h.g, h.s, ids.data(), probs.data());
          if (std::find(ids.begin(), ids.begin() + n, a) == ids.begin() + n)
            throw py::value_error("action " + std::to_string(a) + " is not a chance outcome here");
        } else {
          const auto legal = legal_of(*h.g, h.s);
          if (std::find(legal.begin(), legal.end(), a) == legal.end())
            throw py::value_error("action " + std::to_string(a) + " is not legal here");
        }
        apply(*h.g, h.s, a);
      }, py::arg("action"), "play a legal action or chance outcome (ValueError otherwise)")
      .def_property_readonly("turn", [](const LgStateHandle& h) { return h.s.turn; })
      .def_property_readonly("reason", [](const LgStateHandle& h) { return text_or_none(REASON_TEXT[h.s.reason]); },
                             "why the game ended, as LegendsState.reason")
      .def("returns", [](const LgStateHandle& h) {
        std::vector<double> out((size_t)h.g->seats);
        Legends::returns(*h.g, h.s, out.data());
        return out;
      })
      .def("light_scores", [](const LgStateHandle& h) {
        const auto legal = legal_of(*h.g, h.s);
        std::vector<double> scores(legal.size());
        light_scores(*h.g, h.s, legal.data(), (int)legal.size(), scores.data());
        std::vector<std::pair<int, double>> out;
        for (size_t i = 0; i < legal.size(); ++i) out.emplace_back(legal[i], scores[i]);
        return out;
      }, "[(action id, score)] of the light playout policy for every legal action (none at chance or the end)")
      .def("light_step", [](LgStateHandle& h, uint64_t seed) {
        if (current_player(*h.g, h.s) == hzn::search::TERMINAL) throw py::value_error("the game is over");
        hzn::SplitMix64 rng(seed);
        light_step(*h.g, h.s, rng);
      }, py::arg("seed"), "play one move of the light policy in place (a chance outcome at chance)")
      .def("random_playout", [](const LgStateHandle& h, uint64_t seed) { return playout(h, seed, random_step); },
           py::arg("seed"), "the state at the end of a uniformly random game from here")
      .def("light_playout", [](const LgStateHandle& h, uint64_t seed) { return playout(h, seed, light_step); },
           py::arg("seed"), "the state at the end of a game from here played by the light policy");

  m.def("legends_random_playouts", [](const LgStateHandle& h, long n, uint64_t seed, int threads) {
    return playouts(h, n, seed, threads, random_step);
  }, py::arg("state"), py::arg("n"), py::arg("seed"), py::arg("threads") = 1,
     "n uniformly random games from the state (game i with seed + i): (won 0/1, turns) per game");
  m.def("legends_light_playouts", [](const LgStateHandle& h, long n, uint64_t seed, int threads) {
    return playouts(h, n, seed, threads, light_step);
  }, py::arg("state"), py::arg("n"), py::arg("seed"), py::arg("threads") = 1,
     "n games of the light policy from the state (game i with seed + i): (won 0/1, turns) per game");

  m.def("legends_sample", [](const LgViewHandle& v, uint64_t seed, const std::string& how) {
    SampleHow h = SAMPLE_AUTO;
    if (how == "rejection") h = SAMPLE_REJECTION;
    else if (how == "fitted") h = SAMPLE_FITTED;
    else if (how != "auto") throw py::value_error("how must be auto, rejection or fitted, not '" + how + "'");
    try {
      return LgStateHandle{v.g, sample(*v.g, v.v, seed, h)};
    } catch (const std::invalid_argument& e) {
      throw py::value_error(e.what());
    }
  }, py::arg("view"), py::arg("seed"), py::arg("how") = "auto",
     "one determinization, equal to hzai.games.legends.sampler.replay_for(view, seed, how): LegendsView.sample(seed) "
     "for how='auto' (the rejection draw, then the fitted draw where it fails), or either draw alone");
}

// Legends in the module hzai._native (hzai/native/module.cpp calls it).
void register_legends(py::module_& m) {
  bind_legends(m);
  bind_legends_search(m);  // after LegendsGame: the searches are methods of its handle
  bind_legends_arena(m);
  bind_legends_learn(m);  // LegendsModel
}
