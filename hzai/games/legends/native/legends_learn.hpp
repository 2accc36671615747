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
constexpr int LG_MAX_FEATURES = 1280;    // active features of one picture and its history, at most
constexpr int LG_MAX_ACTION_FEATURES = 24;  // active features of one action, at most
constexpr int LG_MAX_ACTION_OUTPUTS = 512;  // action features in all (the policy head's outputs), at most

// The card-location model (the blueprint's second head): for each partner, counted from
// the seat on (the next seat is partner 1), and each kind, how many cards of that kind
// the partner holds, as one of LG_CARD_CLASSES classes (0, 1, 2, 3 or more).
constexpr int LG_CARD_CLASSES = 4;
constexpr int LG_CARD_LABELS = (MAX_SEATS - 1) * LG_KINDS;

// The kinds of a turn's action (a decision at pending P_ACTION), for the history features.
enum LgActKind : int { K_FIGHT, K_WILD, K_SLAY, K_ABILITY, K_MOVE, K_RECOVER, K_SUPPORT, K_ORACLE, K_COUNT };
constexpr int LG_HIST_LAST = 4;  // a partner's last actions, newest first

// The feature layout, the same for every mission and seat count (one model serves all).
// The table's features (a view's or a state's: [0, table)) come first, then a view's
// history (docs/learning.md, "Beliefs from partners' play"): for each partner r = 1..4
// (counted from the seat), one block of hist_stride features at history + (r - 1) *
// hist_stride, made of the h_* blocks (offsets within the partner's block); then the
// cards the seat cannot place by kind, their total, and each partner's cards it does not
// know (what the uniform sampler spreads, so that the card net can learn it).
struct LgLayout {
  int seats, special, finals, start, size_normal, free_reloc, hero, hand, hand_size, draw, discard, aside, oracle,
      mdeck, mon, mon_stride, broken, no_disc, turn, turn_seat, pending, actor, placed, giver, flags, af_defeat,
      entered, defeated, finals_defeated, table;
  int history, hist_stride, h_last, h_count, h_played, h_support_to, h_support_n, h_received, h_back_out, h_back_top,
      h_declined, h_fought, h_known;
  int unseen, unseen_total, unknown_in_hand;  // after the partners' blocks: what the seat cannot place
  int total;
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

// The active features (ascending) of seat `seat`'s view: the table's, then its history's...
int lg_view_features(const LgGame& g, const LgView& v, int32_t* out);
// ...the history's alone (all at or above lg_layout().history; none without a history)...
int lg_history_features(const LgGame& g, const LgView& v, int32_t* out);
// ...and of a full state as `seat` would know it (its own hand, the rest as counts): the
// table's only (a state keeps no history), equal to that seat's view's below `table`.
int lg_state_features(const LgGame& g, const LgState& s, int seat, int32_t* out);
// The seat whose picture a state's value is read from: the one to act, else the turn's.
int lg_value_seat(const LgGame& g, const LgState& s);
// The active features of action `a` when `seat` plays it (the policy's logit of `a` is
// the sum of the policy head's outputs at them). Count returned.
int lg_action_features(const LgGame& g, int seat, int a, int32_t* out);

// The learned models of Legends: the value net reads a seat's features -> head 0, the
// logit of the team's win; the policy net reads the same features -> head 0, one output
// per action feature (a blueprint policy shared by every seat); the card net, the
// card-location model, reads them too -> head 0, LG_CARD_CLASSES logits for each of the
// LG_CARD_LABELS labels.
struct LgModel {
  std::string id;
  learn::Net value, policy, cards;
  bool has_value = false, has_policy = false, has_cards_net = false;
  double card_temper = 1.0;  // the power of the card net's weights (1: as they are; from the file's header)
  bool has_cards() const { return has_cards_net; }
  // std::invalid_argument naming what does not fit. Each net reads the table's features
  // (the models made before the history) or all of them, as its first layer says; it
  // takes that count as its input width (n_in), and is given the features below it.
  void check();
};

// The hidden truth a seat's record is labelled with (never an input): label
// (r - 1) * LG_KINDS + k is partner r's count of kind k, capped at LG_CARD_CLASSES - 1;
// -1 for a partner or kind the game does not have.
void lg_hidden_labels(const LgGame& g, const LgState& s, int seat, int32_t* out);
// The card net's log-probabilities from the view: out[label * LG_CARD_CLASSES + c].
void lg_card_log_probs(const LgGame& g, const LgModel& m, const LgView& v, double* out);
// `v` whose determinizations are drawn from a pool of `pool` worlds sampled as `sample`
// does, weighted by the card model against the pool's own frequencies, and resampled
// (docs/learning.md, "Beliefs") with the weights to the power `temper`; `v` itself
// without a card model or pool. `seeds`, if
// given, gets each kept world's seed: world i is sample(g, v, (*seeds)[i]).
LgView lg_card_view(const LgGame& g, const LgModel& m, const LgView& v, int pool, uint64_t seed,
                    std::vector<uint64_t>* seeds = nullptr, double temper = -1.0);  // < 0: the model's

// The team's win probability of a state (every seat the same).
void lg_model_values(const LgGame& g, const LgModel& m, const LgState& s, double* out);
// The blueprint's probabilities of the n legal actions `legal` of `seat`, from its features.
void lg_model_policy_of(const LgGame& g, const LgModel& m, const int32_t* idx, int k, int seat, const int* legal, int n,
                        double* out);
void lg_model_policy(const LgGame& g, const LgModel& m, const LgView& v, const int* legal, int n, double* out);

}  // namespace hzn::lg
