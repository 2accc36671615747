// A record's moves played by the native core, for the service: each move text is looked
// up among the texts the core writes for its action ids (GameDef::text, the notation of
// docs/notation.md, held equal to the reference engine's by tests/native) and played
// when it is legal where it stands. Anything else -- another spelling, an unknown or
// illegal move -- stops the replay at that move: the reference engine
// (hzai/games/hera_zeus/rules) is the one reader of free-form move text and the one
// writer of the errors, so the caller replays there for the exact RecordError.
#pragma once

#include <string>
#include <vector>

#include "core.hpp"
#include "hera_zeus.hpp"

namespace hzn {

// The action id whose canonical text is exactly `text`, or -1.
int action_of_text(const GameDef& g, const std::string& text);

// Play `moves` on `s`; the index of the first move not played (see above), -1 when all were.
int replay_texts(const GameDef& g, State& s, const std::vector<std::string>& moves);

struct Decision {
  int stopped_at = -1;      // replay_texts's answer; the rest is only set when it is -1
  bool view_built = false;  // false: the knowledge tracker gave up (the reference path decides)
  State state;
  ViewSpec view;            // of the seat to move after the moves (when there is one)
};

// Replay from a fresh deal `start` (no move played yet) and, when the game goes on with
// a seat to decide, build that seat's view from the replay's events.
Decision decide_after(const GameDef& g, const State& start, const std::vector<std::string>& moves);

}  // namespace hzn
