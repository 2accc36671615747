// Legends of Hellas for the learned search (docs/learning.md, "Legends"): the feature
// encoding of what one seat knows, written once over one picture (a `Seen`) that both a
// seat's view and a full state seen from a seat become; the compact features of an
// action the policy scores; and the model bundle the search evaluates (a team value
// net and a blueprint policy net, both over the same seat features).
//
// No peeking: a seat's picture holds its own hand, every hand's size, the sizes of the
// piles, the Oracle's open cards and the public position; never another seat's cards.
// A full state becomes the picture of the seat to act (a leaf inside the search, where
// the state is a drawn world), so the value net reads what that seat would know there.
#pragma once

#include <cstdint>
#include <string>

#include "learn/mlp.hpp"
#include "legends.hpp"

namespace hzn::lg {

constexpr int LG_KINDS = MAX_ATTR + 1;   // kinds a game may have (attributes and DI)
constexpr int LG_MAX_FEATURES = 640;     // active features of one picture, at most
constexpr int LG_MAX_ACTION_FEATURES = 24;  // active features of one action, at most

// The feature layout, the same for every mission and seat count (one model serves all).
struct LgLayout {
  int seats, special, finals, start, size_normal, free_reloc, hero, hand, hand_size, draw, discard, aside, oracle,
      mdeck, mon, mon_stride, broken, no_disc, turn, turn_seat, pending, actor, placed, giver, flags, af_defeat,
      entered, defeated, finals_defeated, total;
  LgLayout();
};
const LgLayout& lg_layout();

// The action features' layout: block, then each block's own parameters.
struct LgActionLayout {
  int block, place, fight, wild, ability, move_mon, move_card, recover, discard_kind, discard_n, back_out, back_order,
      support_to, support_kind, support_n, total;
  LgActionLayout();
};
const LgActionLayout& lg_action_layout();

// The active features (ascending) of seat `seat`'s view...
int lg_view_features(const LgGame& g, const LgView& v, int32_t* out);
// ...and of a full state as `seat` would know it (its own hand, the rest as counts).
int lg_state_features(const LgGame& g, const LgState& s, int seat, int32_t* out);
// The seat whose picture a state's value is read from: the one to act, else the turn's.
int lg_value_seat(const LgGame& g, const LgState& s);
// The active features of action `a` when `seat` plays it (the policy's logit of `a` is
// the sum of the policy head's outputs at them). Count returned.
int lg_action_features(const LgGame& g, int seat, int a, int32_t* out);

// The learned models of Legends: the value net reads a seat's features -> head 0, the
// logit of the team's win; the policy net reads the same features -> head 0, one output
// per action feature (a blueprint policy shared by every seat).
struct LgModel {
  std::string id;
  learn::Net value, policy;
  bool has_value = false, has_policy = false;
  void check() const;  // std::invalid_argument naming what does not fit
};

// The team's win probability of a state (every seat the same).
void lg_model_values(const LgGame& g, const LgModel& m, const LgState& s, double* out);
// The blueprint's probabilities of the n legal actions `legal` of `seat`, from its features.
void lg_model_policy_of(const LgGame& g, const LgModel& m, const int32_t* idx, int k, int seat, const int* legal, int n,
                        double* out);
void lg_model_policy(const LgGame& g, const LgModel& m, const LgView& v, const int* legal, int n, double* out);

}  // namespace hzn::lg
