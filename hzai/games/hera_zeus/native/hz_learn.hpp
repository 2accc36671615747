// Hera and Zeus for the learned search (docs/learning.md): the feature encoding of a
// seat's view and of a full state, written once over one board picture so both read the
// same numbers; the hidden truth a self-play record keeps as labels; and the model
// bundle the search evaluates (a value net over states, a policy net over views with the
// card-location heads).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core.hpp"
#include "hera_zeus.hpp"
#include "learn/mlp.hpp"

namespace hzn {

// Where a side's hostage lies, as the hostage head classes it: 0 its deck, 1 its hand,
// 2 a discard pile, 3 face up on the field, 4 + 4 * column + row face down on the field.
constexpr int HOSTAGE_CLASSES = 16;
constexpr int FIELD_SLOTS = COLUMNS * DEPTH;  // 12 slots a side
constexpr int MAX_FEATURES = 512;             // active features of one encoding, at most
constexpr int MAX_COPIES = 4;                 // copies of one name counted in a hand or a pile

// The feature layout of a game (sizes follow its number of card names).
struct FeatureLayout {
  int codes = 0;  // name * 2 + owner
  int field = 0, up = 0, hand = 0, hidden = 0, pile = 0, deck = 0, glob = 0;
  // The history of a view (docs/learning.md, "History in the features"), after the table:
  // base is the table's count (a state's features, and what models before it read).
  int base = 0, hist_slot = 0, hist_act = 0, hist_count = 0, size = 0;
  explicit FeatureLayout(const GameDef& g);
};

int feature_count(const GameDef& g);  // FeatureLayout(g).size (the table and the history)

// The active features (indices < FeatureLayout::size, ascending) of a full state, as
// someone who knows every card sees it (a leaf of the search; the value net)...
int state_features(const GameDef& g, const State& s, int32_t* out);
// ...and of one seat's view, hidden cards as unknown (the policy and card-location net).
int view_features(const GameDef& g, const ViewSpec& v, int32_t* out);

// The labels of the card-location heads for the view of `seat` in the true state `s`:
// out[0] the opponent's hostage class; out[1 + 4 * c + r] the name id of the opponent's
// card at column c, row r when the view hides it, else -1. 1 + FIELD_SLOTS entries.
void hidden_labels(const GameDef& g, const State& s, const ViewSpec& v, int seat, int32_t* out);

// The shipped models of the game. The value net: state features -> head 0, the logit of
// the first seat's score (win 1, draw 0.5). The policy net: view features -> head 0 the
// logits by action id, head 1 the opponent's hostage class, head 2 the names of the
// opponent's face-down field cards (FIELD_SLOTS blocks of n_names logits).
struct HzModel {
  std::string id;  // the model's name and version, for the records
  learn::Net value, policy;
  bool has_value = false, has_policy = false;
  // std::invalid_argument naming what does not fit the game. A net may read the table's
  // features alone (FeatureLayout::base, the models before the history) or all of them
  // (size): its n_in becomes the count its first layer reads, and it is given only the
  // features below that count.
  void check(const GameDef& g);
};

// The first seat's score by the value net, and the second's (1 - it).
void model_values(const GameDef& g, const HzModel& m, const State& s, double* out);
// The policy over the n legal actions of the view's seat (probabilities summing to 1).
void model_policy(const GameDef& g, const HzModel& m, const ViewSpec& v, const int* legal, int n, double* out);
// The card-location heads of the view: the hostage classes (HOSTAGE_CLASSES) and, for
// each opponent field slot, the probability of each name (FIELD_SLOTS * n_names).
void model_cards(const GameDef& g, const HzModel& m, const ViewSpec& v, double* hostage, double* slots);
// `v` with its worlds weighted by the card model: every opponent field slot the view
// hides gets the log of the model's probability of each name (Inference, pool worlds
// drawn with `seed`); a view with nothing hidden there comes back unweighted.
ViewSpec with_card_model(const GameDef& g, const HzModel& m, const ViewSpec& v, int pool, uint64_t seed);

}  // namespace hzn
