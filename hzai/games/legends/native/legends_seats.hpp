// The seats of a running Legends game, for the arena (search/arena.hpp): the seat's log
// as knowledge.observed writes it (kinds only where the seat saw them, no instances) and
// the public position, as view_spec hands them to the sampler
// (hzai/games/legends/native/twin.py), so the view equals native_view(state.view(seat)).
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "legends.hpp"

namespace hzn::lg {

struct LegendsSeats {
  struct Watch {
    std::vector<std::vector<int>> start_hands;  // instances per seat at the deal
    int start_pile = 0;
    LgEventLog log;  // every card movement since the deal
    std::vector<std::array<int, 3>> acts;  // every decision since the deal: (actor, pending, action); chance left out
  };

  static Watch watch(const LgGame& g, const LgState& s) {
    Watch w;
    for (int p = 0; p < g.seats; ++p) w.start_hands.emplace_back(s.hand[p], s.hand[p] + s.hn[p]);
    w.start_pile = s.dn;
    return w;
  }

  static void play(const LgGame& g, Watch& w, LgState& s, int action) {
    if (s.pending != P_CHANCE && s.result == R_NONE) w.acts.push_back({s.actor, (int)s.pending, action});
    LgEventCapture capture(&w.log);
    lg::apply(g, s, action);
  }

  // knowledge.observed's entry for seat `o`, typed as hzai.games.legends.native.twin._event does.
  static LgEvent observed(const LgState& s, const LgRawEvent& e, int o) {
    LgEvent v;
    v.type = e.type;
    v.seat = e.seat;
    auto kinds = [&](const std::vector<int>& insts) {
      std::vector<int> out;
      for (int i : insts) out.push_back(s.kind[i]);
      return out;
    };
    switch (e.type) {
      case E_DRAW: case E_TAKE_DISCARD: case E_GIVE:
        if (e.type == E_GIVE) v.other = e.other;
        v.n = (int)e.insts.size();
        v.shown = e.type == E_GIVE ? (o == e.seat || o == e.other) : o == e.seat;
        if (v.shown) v.kinds = kinds(e.insts);
        break;
      case E_PLAY:
        v.mon = e.mon;
        v.face = e.face;
        v.k = (e.face != F_DOWN || e.seat == o) ? s.kind[e.inst] : -1;
        break;
      case E_DISCARD: v.k = e.seat == o ? s.kind[e.inst] : -1; break;
      case E_REVEAL:
        v.seat = 0;
        v.n = (int)e.insts.size();
        v.kinds = kinds(e.insts);
        break;
      case E_BACK:
        v.n = (int)e.insts.size();
        v.k = s.kind[e.inst];
        v.kinds = kinds(e.insts);
        break;
      default: v.n = (int)e.insts.size(); break;  // under_draw, under_discard: counts only
    }
    return v;
  }

  // LegendsView.of + view_spec: the seat's start, its log, the public position.
  static LgView view(const LgGame& g, const Watch& w, const LgState& s, int seat) {
    LgView v;
    v.seat = seat;
    for (int i : w.start_hands[(size_t)seat]) v.own_start.push_back(s.kind[i]);
    for (const auto& h : w.start_hands) v.start_hands.push_back((int)h.size());
    v.start_pile = w.start_pile;
    for (const LgRawEvent& e : w.log) v.log.push_back(observed(s, e, seat));
    for (const auto& [actor, pending, action] : w.acts)
      v.history.push_back({actor, pending, observed_action(g, pending, actor, action, seat)});
    for (int i = 0; i < s.nmon; ++i) {
      const Monster& m = s.mon[i];
      LgMonsterView mv;
      mv.id = m.id, mv.size = m.size, mv.final_ = m.final_, mv.defeated = m.defeated;
      mv.cards.assign(m.cards, m.cards + m.ncards);
      mv.req.assign(m.req, m.req + g.attrs);
      for (int j = 0; j < m.nplayed; ++j) mv.played.push_back({m.played[j].attr, m.played[j].face, m.played[j].by});
      v.monsters.push_back(mv);
    }
    v.monster_deck_left.assign(s.mdeck, s.mdeck + s.mdn);
    std::sort(v.monster_deck_left.begin(), v.monster_deck_left.end());
    v.aside = s.aside;
    for (int p = 0; p < g.seats; ++p) v.disc.push_back(s.disc[p]), v.broken.push_back(s.broken[p]);
    v.turn = s.turn, v.turn_seat = s.turn_seat;
    v.pending = s.result != R_NONE ? P_NONE : s.pending;
    v.actor = s.actor, v.placed = s.placed, v.giver = s.giver, v.forced = s.forced;
    v.af_set = s.af_set, v.af_slay = s.af_slay, v.af_defeat = s.af_defeat;
    v.normals_entered = s.normals_entered, v.normals_defeated = s.normals_defeated;
    v.finals_defeated = s.finals_defeated, v.result = s.result, v.reason = s.reason;
    return v;
  }

  // The twin lists legal moves by id, not in the reference's order: the arena refuses
  // the random bot for Legends (it is played in Python), so this is only its fallback.
  static int listed_actions(const LgGame& g, const LgView& view, int* out) {
    return lg::legal_actions(g, sample(g, view, 0), out);
  }

  static int text_rank(const LgGame& g, int action) {
    return g.text_rank.empty() ? action : g.text_rank[(size_t)action];
  }

  static int chance_outcomes(const LgGame& g, const LgState& s, int* ids, double* probs) {
    const int n = lg::chance_outcomes(g, s, ids, probs);
    std::vector<std::pair<int, double>> by_id;
    for (int i = 0; i < n; ++i) by_id.emplace_back(ids[i], probs[i]);
    std::sort(by_id.begin(), by_id.end());
    for (int i = 0; i < n; ++i) ids[i] = by_id[(size_t)i].first, probs[i] = by_id[(size_t)i].second;
    return n;
  }

  // The move of the playouts' policy (Legends::playout_step, legends_light.cpp): the light
  // bot plays what the search's light playouts play.
  static int light_action(const LgGame& g, const LgState& s, SplitMix64& rng) { return lg::light_choice(g, s, rng); }
};

}  // namespace hzn::lg
