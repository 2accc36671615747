// Policy-based inference (docs/learning.md, "Policy-based inference"): the worlds a seat's
// search draws, weighted by how likely the opponent's observed decisions are under the
// learned policy evaluated from the OPPONENT's information set in that world.
//
// Which decisions are scored, and why they are exact: a world is the table as it is now,
// not its past. The opponent's information set at an earlier decision t is rebuilt from a
// world W only where everything it held then can be read off W:
//   - its hand at t is its hand now in W plus the cards that left the hand since t, which
//     holds only while no card has come INTO its hand since t (a draw, Hades, Sirens,
//     Persephone: a drawn card's name is unknown, and a card taken back publicly cannot be
//     told apart from the others afterwards). So the scored decisions are the opponent's
//     decisions after its last hand gain, at most PBI_MAX_DECISIONS of them, the newest;
//   - a card that left the hand since t is followed physically (R-INFO-3): it lies face
//     down on the opponent's field now (its name is W's card at that slot) or its name is
//     public now (a pile, face up, a hand that took it openly);
//   - its face-down field cards at t are followed the same way;
//   - what it knew of the seat's own cards, and its history features, depend only on the
//     seat's cards and public events: the opponent's own knowledge tracker (knowledge.hpp)
//     over the game's events gives them, its private parts blanked before they are kept.
// Decisions with a pending choice (place, top) are not scored. The evidence keeps no
// private card of the opponent: its hand, mapped field cards and deck are rebuilt in every
// world from W's names alone, so two games the seat cannot tell apart give equal weights.
//
// A decision's factor is the likelihood ratio against a uniform player: with p the
// policy's probabilities over the opponent's legal moves in W at t, tempered (p^(1/T),
// normalised) and mixed with uniform, p' = (1 - eps) * p_T + eps / n, the factor is
// p'(a) / (1 / n) = n * p'(a), where a is the observed move as W writes it (a face-down
// play names W's card). A uniform policy gives 1 in every world (the pool stays as the
// sampler drew it), and eps bounds a factor below by eps, so a bluff cannot zero a world.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core.hpp"
#include "hera_zeus.hpp"

namespace hzn {

struct HzModel;

constexpr int PBI_MAX_DECISIONS = 24;  // the newest scored decisions kept, at most

// Where a card the opponent held at a decision is now, as the seat can follow it.
struct PbiTarget {
  int8_t c = -1, r = -1;  // face down (or known) on the opponent's field: W's card there
  int16_t code = -1;      // else its public code (name * 2 + owner)
};

struct PbiDecision {
  State skeleton;   // the state at t, the opponent's hand, mapped field cards and deck blanked
  ViewSpec view;    // the opponent's view at t, its hand and mapped field slots blanked
  int kind = 0;     // the observed move's kind (A_*)
  int action = -1;  // a public move: its id; a face-down play or a setup: -1
  int play_slot = -1;             // a face-down play: c * 4 + r it went to
  int played = -1;                // a face-down play: its card, an index into hand_lost
  std::vector<int> setup_played;  // a setup: per column the index into hand_lost, -1 none
  std::vector<PbiTarget> hand_lost;  // the opponent's own cards in its hand at t, gone since
  int hand_kept = 0;                 // its own cards in its hand at t still there now
  std::vector<std::pair<int, PbiTarget>> field;  // (c * DEPTH + r at t, where it is now)
  std::vector<int16_t> free_ids;  // the opponent's card ids of its hand, mapped field and deck at t,
                                  // by name, then id (name_start[name]..name_start[name + 1])
  std::vector<int> name_start;
  int turn = 0;
};

struct PbiEvidence {
  int seat = -1, opponent = -1;
  int opponent_decisions = 0;  // the opponent's decisions in the game so far
  std::vector<PbiDecision> decisions;
};

// The evidence of `seat` after `actions` (chance outcomes included) from the fresh deal
// `start`. std::invalid_argument when an action is not legal where it stands;
// BeliefError when the tracker gives up.
PbiEvidence pbi_evidence(const GameDef& g, const State& start, const std::vector<int>& actions, int seat,
                         int max_decisions = PBI_MAX_DECISIONS);

struct PbiOptions {
  double temperature = 1.0, epsilon = 0.25;
  int threads = 1;
  // true: a decision's factor is n * p'(move), the ratio to a uniform player (a uniform
  // policy leaves the pool as drawn); false: p'(move) itself, the likelihood, which also
  // favours worlds where the opponent had fewer moves to choose from.
  bool ratio = true;
};
constexpr double PBI_MIN_TEMPERATURE = 0.1, PBI_MAX_TEMPERATURE = 10.0;
constexpr double PBI_MIN_EPSILON = 0.01, PBI_MAX_EPSILON = 1.0;
void check_pbi_options(const PbiOptions& o);  // std::invalid_argument naming the option

struct PbiScores {
  std::vector<double> log_weight;  // per world: the sum of its decisions' log factors
  int decisions = 0;               // decisions in the evidence
  long scored = 0, skipped = 0;    // (decision, world) pairs scored / left out (W does not fit)
  long evaluations = 0;            // policy evaluations (distinct information sets)
};

// The log-weights of `worlds` (each a world of the seat's view) under the evidence.
PbiScores pbi_scores(const GameDef& g, const HzModel& m, const PbiEvidence& ev, const std::vector<State>& worlds,
                     const PbiOptions& o);

// `v` with its pool weighted by the evidence: the pool `v.inference` draws (its seed and
// pool; or, with no inference, a pool of `pool` worlds drawn with `seed`), each world's
// log-weight added to its slots' factors (Inference::world_log_weight). `scores` (may be
// null) gets the weights.
ViewSpec with_policy_inference(const GameDef& g, const HzModel& m, const ViewSpec& v, const PbiEvidence& ev,
                               int pool, uint64_t seed, const PbiOptions& o, PbiScores* scores = nullptr);

// (decision, world) pairs whose view features, as the scoring adds them up (the common
// part of a decision once, each world's cards on top), differ from the whole view's
// encoding (hz_learn.hpp): 0 when the fast path reads what the policy net would.
long pbi_feature_mismatches(const GameDef& g, const PbiEvidence& ev, const std::vector<State>& worlds);

// The pool `v.inference` would draw (pool > 0), in draw order, before any weighting.
std::vector<State> inference_pool(const GameDef& g, const ViewSpec& v);

}  // namespace hzn
