// Replay of record move texts and the view of the seat to decide (replay.hpp).
#include "replay.hpp"

#include <algorithm>

#include "knowledge.hpp"

namespace hzn {

int action_of_text(const GameDef& g, const std::string& text) {
  // by_rank lists the action ids in the byte order of their texts
  auto at = std::lower_bound(g.by_rank.begin(), g.by_rank.end(), text,
                             [&](int32_t a, const std::string& t) { return g.text[a] < t; });
  if (at == g.by_rank.end() || g.text[*at] != text) return -1;
  return *at;
}

namespace {

bool playable(const GameDef& g, const State& s, int action) {
  if (s.phase == PH_OVER) return false;
  const bool chance_due = s.n_pending && s.pending[0].kind == PD_CHANCE;
  if ((g.kind_of(action) == A_CHANCE) != chance_due) return false;
  return is_legal(g, s, action);
}

}  // namespace

int replay_texts(const GameDef& g, State& s, const std::vector<std::string>& moves) {
  for (int i = 0; i < (int)moves.size(); ++i) {
    const int action = action_of_text(g, moves[i]);
    if (action < 0 || !playable(g, s, action)) return i;
    apply_action(g, s, action);
  }
  return -1;
}

Decision decide_after(const GameDef& g, const State& start, const std::vector<std::string>& moves) {
  Decision out;
  out.state = start;
  EventLog log;
  {
    EventCapture capture(&log);
    out.stopped_at = replay_texts(g, out.state, moves);
  }
  if (out.stopped_at >= 0) return out;
  const State& s = out.state;
  if (s.phase == PH_OVER || s.to_move < 0) return out;  // no seat decides: the caller says why
  try {
    Knowledge knowledge(g, s.to_move);
    knowledge.dealt(start);
    for (const Event& e : log) knowledge.observe(e);
    out.view = knowledge.spec(s);
    out.view_built = true;
  } catch (const BeliefError&) {
    out.view_built = false;
  }
  return out;
}

}  // namespace hzn
