// Hera and Zeus in the generic search: the determinization sampler, the light playout
// policy and the trait adapter (search/trait.hpp) over the rules of core.cpp.
//
// The sampler is hzai/games/hera_zeus/belief/sampler.py move for move (same generator calls, same
// card ids), so a view and a seed give the same state in both. docs/search.md.
#pragma once

#include <memory>
#include <vector>

#include "core.hpp"
#include "search/trait.hpp"

namespace hzn {

// ----- a player's view, as the sampler reads it (hzai/games/hera_zeus/native/search.py builds it) -------
enum SlotKind : int8_t { SL_FIGURE = 0, SL_KNOWN = 1, SL_GROUP = 2 };

struct ViewSlot {
  int8_t kind = SL_KNOWN;
  int16_t code = -1;  // known: name * 2 + owner
  int16_t group = -1;
  bool face_up = false;
  Bits excluded;  // names this hidden card cannot be (bit = name id)
};

struct ViewGroup {
  int owner = 0;
  std::vector<int16_t> known;                   // name ids, in the order of the Python sampler
  std::vector<std::pair<int, Bits>> wildcards;  // (count, excluded names)
};

struct ViewPending {
  int kind = PD_CHANCE, player = 0;
  int place_code = -1;
  std::vector<int> pile_positions;
};

// Inference over determinizations (hzai/games/hera_zeus/belief/inference.py builds it):
// a log-likelihood per name id for some hidden slots of one side, from the opponent's
// observed choices. With pool > 0 the sampler draws `pool` worlds from the view (seed
// `seed`), weights each by the sum of its slots' log factors and resamples as many; every
// later sample is one of those worlds. pool 0: plain uniform sampling.
struct SlotLikelihood {
  int c = 0, r = 0;
  std::vector<double> log_factor;  // by name id
};

struct Inference {
  int side = 1, pool = 0;
  uint64_t seed = 0;
  std::vector<SlotLikelihood> slots;
  // A log-weight per world of the pool, in draw order, added to its slots' factors (the
  // policy-based inference, policy_infer.hpp); empty: none.
  std::vector<double> world_log_weight;
};

struct ViewSpec {
  std::vector<std::vector<std::vector<ViewSlot>>> columns{2, std::vector<std::vector<ViewSlot>>(COLUMNS)};  // [side][c][r]
  std::vector<std::vector<ViewSlot>> hands{2};
  std::vector<std::vector<int16_t>> discards{2};  // codes, bottom first
  std::vector<int> deck_sizes{0, 0};
  std::vector<ViewGroup> groups;
  std::vector<std::vector<int16_t>> pools{2};  // unaccounted name ids per owner, sorted as in Python
  std::vector<ViewPending> pending;
  int phase = PH_PLAY, turn = 0, turn_player = 0, to_move = 0, ap = 0, ap_spent = 0, winner = -1, reason = RS_NONE;
  Inference inference;
  // What the seat saw its opponent do (the knowledge tracker; docs/learning.md, "History
  // in the features"). history_slots: per opponent field slot (c * DEPTH + r) four numbers,
  // HIST_* below. history_acts: the opponent's last action kinds (A_*), newest first, at
  // most HISTORY_ACTS. history_counts: its actions by kind (A_COUNT counts). All three
  // empty: no history is known (a position first seen as it stands).
  std::vector<int> history_slots, history_acts, history_counts;
};

constexpr int HISTORY_ACTS = 4;
// history_slots, per slot: HIST_ORIGIN -1 no hidden card of the opponent there, 0 put
// there at the setup, 1 played from the hand, 2 by another move, 3 not seen arriving;
// HIST_AGE turns since it arrived; HIST_COVERED cards that arrived in front of it since;
// HIST_MOVED 1 when it was moved on the field since it arrived (Dionysus).
enum HistSlot { HIST_ORIGIN = 0, HIST_AGE, HIST_COVERED, HIST_MOVED, HIST_FIELDS };

// The world a seat that saw every card would know: `s` with only the deck orders hidden
// (PIMC searches these): known cards stay where they are, the decks become pools.
ViewSpec world_spec(const GameDef& g, const State& s);

// What every seat sees alike, into `v`: the pending decisions, the phase, turn, seats,
// AP and result.
void public_parts(const GameDef& g, const State& s, ViewSpec& v);

class Sampler {
 public:
  Sampler(const GameDef& g, ViewSpec spec);  // std::invalid_argument names what is wrong
  // A world of the view: rejection draws, then the fitted draw (sample_fitted) if they all
  // fail; a tight view (no rejection draw fitted the construction's probe) goes straight to
  // the fitted draw. std::runtime_error when no state fits.
  State sample(const GameDef& g, SplitMix64& rng) const;
  State sample_fitted(SplitMix64& rng) const;  // the fitted draw alone (tight views; tests)
  const ViewSpec& spec() const { return v_; }
  const std::vector<State>& worlds() const { return worlds_; }  // the resampled pool (inference)
  double effective_pool() const { return ess_; }                 // its effective sample size

 private:
  struct Where {
    int8_t hand;  // 0 field, 1 hand
    int8_t p, c, r;
  };
  void resample(const GameDef& g);  // fills worlds_ from the inference of the spec
  bool draw_once(SplitMix64& rng, std::vector<std::vector<int16_t>>& placed, std::vector<int16_t> decks[2]) const;
  bool draw_fitted(SplitMix64& rng, std::vector<std::vector<int16_t>>& placed, std::vector<int16_t> decks[2]) const;
  State build(const std::vector<std::vector<int16_t>>& placed, const std::vector<int16_t> decks[2]) const;

  ViewSpec v_;
  std::vector<std::vector<Where>> group_slots_;
  std::vector<std::vector<Bits>> slot_excluded_;
  std::vector<std::vector<int>> field_order_;
  std::vector<bool> placeable_name_;
  std::vector<std::vector<int>> ids_of_code_;  // card ids of each name*2+owner, ascending
  std::vector<State> worlds_;
  double ess_ = 0.0;
  bool tight_ = false;
};

// The log-likelihood of world `s` under `inf` (the sum of its slots' log factors).
double world_log_likelihood(const GameDef& g, const State& s, const Inference& inf);
// std::invalid_argument naming what of `v.inference` does not fit the view or the game.
void check_inference(const GameDef& g, const ViewSpec& v);

void light_step(const GameDef& g, State& s, SplitMix64& rng);  // the rule-of-thumb playout policy
int light_action(const GameDef& g, const State& s, SplitMix64& rng);  // its move at a decision (no chance)

struct HeraZeusSeats;  // the seats of a running game, for the arena (seats.hpp)

int light_grade(const GameDef& g, const State& s, int action);  // its judgment: 2 a win, 1 fine, 0 bad

// What `seat` sees of `action` by the player to move in `s` (R-INFO; the reference's
// rules/observed.py): the action itself, except a setup's cards and a played card, which
// go face down: those are g.total_actions() + the played slot (c*4 + r), or
// g.total_actions() + 12 + the mask of the setup's filled columns. A played card the
// seat owns (taken by Sirens) keeps its back, so the seat sees it: the action itself.
int observation(const GameDef& g, const State& s, int action, int seat);

// The learned models (hz_learn.hpp, docs/learning.md), declared here for the trait.
struct HzModel;
void model_values(const GameDef& g, const HzModel& m, const State& s, double* out);
void model_policy(const GameDef& g, const HzModel& m, const ViewSpec& v, const int* legal, int n, double* out);
ViewSpec with_card_model(const GameDef& g, const HzModel& m, const ViewSpec& v, int pool, uint64_t seed);
int state_features(const GameDef& g, const State& s, int32_t* out);
int view_features(const GameDef& g, const ViewSpec& v, int32_t* out);
void hidden_labels(const GameDef& g, const State& s, const ViewSpec& v, int seat, int32_t* out);
int feature_count(const GameDef& g);

// The trait adapter: the generic search over the rules of core.cpp.
struct HeraZeus {
  using Game = GameDef;
  using State = hzn::State;
  using View = Sampler;
  using Seats = HeraZeusSeats;

  static int num_players(const Game&) { return 2; }
  static int num_actions(const Game& g) { return g.total_actions(); }
  static int max_legal(const Game&) { return MAX_ACTIONS; }
  static int current_player(const Game&, const State& s) {
    if (s.phase == PH_OVER) return search::TERMINAL;
    if (s.n_pending && s.pending[0].kind == PD_CHANCE) return search::CHANCE;
    return s.to_move;
  }
  static int legal_actions(const Game& g, const State& s, int* out) { return hzn::legal_actions(g, s, out); }
  static void apply(const Game& g, State& s, int action) { apply_action(g, s, action); }
  static int sample_chance(const Game& g, const State& s, SplitMix64& rng) { return hzn::sample_chance(g, s, rng); }
  static void returns(const Game&, const State& s, double* out) {
    for (int p = 0; p < 2; ++p) out[p] = s.winner < 0 ? 0.5 : (s.winner == p ? 1.0 : 0.0);
  }
  static State clone(const Game&, const State& s) { return s; }
  static int view_player(const Game&, const View& v) { return v.spec().phase == PH_OVER ? -1 : v.spec().to_move; }
  static State determinize(const Game& g, const View& v, SplitMix64& rng) { return v.sample(g, rng); }
  static View world_view(const Game& g, const State& s) { return Sampler(g, world_spec(g, s)); }
  static void playout_step(const Game& g, State& s, SplitMix64& rng) { light_step(g, s, rng); }
  static int observation(const Game& g, const State& s, int action, int seat) {
    return hzn::observation(g, s, action, seat);
  }
  static double prior(const Game& g, const State& s, int action) { return 0.5 * light_grade(g, s, action); }

  // Learned models and self-play records (trait.hpp, model_of).
  using Model = HzModel;
  static void model_values(const Game& g, const Model& m, const State& s, double* out) { hzn::model_values(g, m, s, out); }
  static void model_policy(const Game& g, const Model& m, const View& v, const int* legal, int n, double* out) {
    hzn::model_policy(g, m, v.spec(), legal, n, out);
  }
  static View model_view(const Game& g, const Model& m, const View& v, int pool, uint64_t seed) {
    return Sampler(g, with_card_model(g, m, v.spec(), pool, seed));
  }
  static int feature_count(const Game& g) { return hzn::feature_count(g); }
  static int view_features(const Game& g, const View& v, int32_t* out) { return hzn::view_features(g, v.spec(), out); }
  static int state_features(const Game& g, const State& s, int32_t* out) { return hzn::state_features(g, s, out); }
  static int label_count(const Game&) { return 1 + COLUMNS * DEPTH; }
  static void hidden_labels(const Game& g, const State& s, const View& v, int seat, int32_t* out) {
    hzn::hidden_labels(g, s, v.spec(), seat, out);
  }
};

}  // namespace hzn
