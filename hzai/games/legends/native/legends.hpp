// Legends of Hellas in C++: the twin of the reference engine hzai/games/legends/rules.py
// (same moves, same dense action ids, same card instances), its determinization (the
// port of hzai/games/legends/sampler.py, bit for bit for the same seed) and the game
// trait the generic search (search/*.hpp) runs on. docs/native.md, "Legends".
//
// Nothing here knows a card count, a monster or a mission: the data file, the game's
// options and the action-id layout of hzai.games.legends.moves.ActionCodec all come
// from Python (LgGame), parsed there once.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rng.hpp"
#include "search/trait.hpp"

namespace hzn::lg {

constexpr int MAX_CARDS = 128;     // card instances (classic: 61)
constexpr int MAX_SEATS = 5;
constexpr int MAX_HAND = 16;       // a receiver holds at most 4 + 4 before it discards
constexpr int MAX_ATTR = 8;        // attributes; kinds = attributes + DI
constexpr int MAX_MONSTERS = 16;   // monster cards in the data, so monsters in play
constexpr int MAX_PLAYED = 24;     // cards on one monster (its size N)
constexpr int MAX_LIST = 4;        // moves.MAX_LIST
constexpr int MAX_ORDER = 5;       // moves.MAX_ORDER
constexpr int MAX_MULTISETS = 720;  // multisets of 1..4 of at most 9 kinds: 714
constexpr int ORACLE_LOOK = 6;
constexpr int HAND = 4;
constexpr int RECOVER_TO = 5;

// Pending decisions, results, reasons and specials: the texts the reference uses, in
// this order (hzai/games/legends/native/twin.py reads these lists from the module).
enum Pending : int8_t { P_PLACE, P_ACTION, P_RECOVER_DISCARD, P_SUPPORT_DISCARD, P_ORACLE_RETURN, P_FORCED_RECOVER,
                        P_CHANCE, P_NONE };
enum Result : int8_t { R_NONE, R_WON, R_LOST };
enum Reason : int8_t { W_NONE, W_EXHAUSTED, W_TURN_LIMIT, W_FORCED_RECOVER, W_NO_SIXTH, W_FINAL_DEFEATED };
enum Special : int8_t { S_NONE, S_DI_RECOVER, S_DI_SWAP_DRAW, S_DI_SWAP_DISCARD, S_REPLACE_UNTIL_6 };
enum Face : uint8_t { F_UP, F_DOWN, F_SIDEWAYS };
enum Trigger : int8_t { T_NONE, T_PLUS, T_CHIMERA, T_TWO_CHIMERAS, T_HADES };
// Action blocks, in the codec's order (their bases come from Python).
enum Block : int { B_PLACE, B_FIGHT, B_WILD, B_SLAY, B_ABILITY, B_MOVE, B_RECOVER, B_DISCARD, B_ORACLE_BACK, B_SUPPORT,
                   B_ORACLE, B_CHANCE, B_COUNT };
// The heuristic's weights (hzai.games.legends.heuristic.WEIGHTS, their one source: the
// values come from Python by these names); the light playout policy reads them.
enum Weight : int { W_FILL, W_FIT, W_DEFEAT, W_SLAY, W_WILD_COST, W_ABILITY_COST, W_ABILITY_USE_DIV, W_MOVE_FILL,
                    W_MOVE_USE_DIV, W_LEAVE_STRANDED, W_RECOVER_MISSING, W_RECOVER_DRAWN, W_ORDER_DIV, W_SUPPORT_LOW,
                    W_SUPPORT_LOW_HAND, W_SUPPORT_PER_CARD, W_ORACLE, W_USE_SHORT, W_USE_HAS, W_USE_DI, W_COUNT };

extern const char* const PENDING_TEXT[8];
extern const char* const RESULT_TEXT[3];
extern const char* const REASON_TEXT[6];
extern const char* const SPECIAL_TEXT[5];
extern const char* const BLOCK_TEXT[B_COUNT];
extern const char* const TRIGGER_TEXT[5];  // by Trigger; "+" is "+n"
extern const char* const WEIGHT_TEXT[W_COUNT];

// The static game: data, options and the action-id layout.
struct LgGame {
  int attrs = 0, kinds = 0, di = 0;  // kinds = attrs + 1; DI is kind `attrs`
  int seats = 1, first = 0, turn_limit = 200;
  bool free_relocation = false;
  std::vector<int> hero_attr;                      // per seat
  std::vector<int> deck;                           // the draw pile's kinds (data order), before the shuffle
  int aside = 0;                                   // DI set aside
  std::vector<std::array<int, 2>> monster_attrs;  // per monster card
  int size_normal = 5, size_chimera = 8, size_hades = 10;
  int start = 1, finals = 1;
  Special special = S_NONE;
  std::vector<int8_t> trigger;  // defeat number -> Trigger
  std::vector<int> trigger_n;   // defeat number -> n of "+n"
  // the codec
  int base[B_COUNT] = {};
  int size = 0;
  std::vector<std::vector<int>> multisets;  // id -> kinds in the codec's order (sorted by name)
  std::vector<int> multiset_of_counts;      // counts in base 5 -> id, or -1
  int seq_base[MAX_ORDER + 1] = {};         // length -> offset of sequences of that length
  int seq_count = 0;
  int max_legal = 0;
  std::vector<int32_t> text_rank;  // per action id, where its notation sorts (the arena's tie-break; may be empty)
  double weight[W_COUNT] = {};  // the heuristic's (light playouts)

  void finish();  // checks the limits, derives the lookups; std::invalid_argument naming the problem
  int multiset_id(const int* counts) const;
  int seq(const int* kinds_, int n) const;
};

struct Played {
  uint8_t inst;
  int8_t attr;  // counts as, -1 for a slay
  uint8_t face, by;
};

struct Monster {
  uint8_t id = 0, ncards = 0, size = 0, nplayed = 0;
  uint8_t cards[3] = {};
  uint8_t req[MAX_ATTR] = {}, cnt[MAX_ATTR] = {};
  bool final_ = false, defeated = false;
  Played played[MAX_PLAYED] = {};
  int deficit() const;
};

// A full position (plain data: copied by assignment).
struct LgState {
  uint8_t kind[MAX_CARDS] = {};
  int ncards = 0;
  uint8_t hand[MAX_SEATS][MAX_HAND] = {};
  uint8_t hn[MAX_SEATS] = {};
  uint8_t draw[MAX_CARDS] = {};  // top last
  int dn = 0;
  uint8_t disc_inst[MAX_CARDS] = {}, disc_by[MAX_CARDS] = {};  // bottom first
  int discn = 0;
  int aside = 0;
  uint8_t oracle[ORACLE_LOOK] = {};
  int on = 0;
  uint8_t mdeck[MAX_MONSTERS] = {};  // top first
  int mdn = 0;
  Monster mon[MAX_MONSTERS];
  int nmon = 0;
  int8_t disc[MAX_SEATS] = {-1, -1, -1, -1, -1};
  bool broken[MAX_SEATS] = {};
  int turn = 0, turn_seat = 0;
  Pending pending = P_PLACE;
  int actor = 0, placed = 0, giver = -1;
  bool forced = false;
  bool af_set = false, af_slay = false;
  int af_defeat = 0;
  int normals_entered = 0, normals_defeated = 0, finals_defeated = 0;
  Result result = R_NONE;
  Reason reason = W_NONE;
};

// ----- what a move does, as the reference logs it (Table.events) ---------------------
// Every card movement with its instances, in the order rules.py logs them, so that a
// seat's log (knowledge.observed) can be followed in a running game (the arena's seats,
// legends_seats.hpp). Only collected while an LgEventCapture is alive on the thread; the search
// never installs one and pays a load and an untaken branch.
struct LgRawEvent {
  int type = 0;              // EventType
  int seat = 0, other = 0;   // give: giver, receiver
  int mon = 0, face = 0;     // play: monster index, Face
  int inst = -1;             // play, discard: the card; back: the discarded one
  std::vector<int> insts;    // draw, give, reveal, back (the order), under_*, take_discard
};
using LgEventLog = std::vector<LgRawEvent>;

class LgEventCapture {
 public:
  explicit LgEventCapture(LgEventLog* log);
  ~LgEventCapture();
  LgEventCapture(const LgEventCapture&) = delete;
  LgEventCapture& operator=(const LgEventCapture&) = delete;

 private:
  LgEventLog* previous_;
};

int current_player(const LgGame& g, const LgState& s);
int legal_actions(const LgGame& g, const LgState& s, int* out);  // sorted ids
void apply(const LgGame& g, LgState& s, int action);              // a legal action or chance outcome
int chance_outcomes(const LgGame& g, const LgState& s, int* ids, double* probs);
int sample_chance(const LgGame& g, const LgState& s, SplitMix64& rng);
void enter(const LgGame& g, LgState& s, int what);  // 0 normal, 1 chimera, 2 hades
void check_state(const LgGame& g, const LgState& s);  // std::invalid_argument when a loaded state is malformed

int unseq(const LgGame& g, int v, int* kinds);  // a sequence id (within its block) back to kinds; its length

// The light playout policy (legends_light.cpp): the heuristic of
// hzai/games/legends/heuristic.py, score for score. `scores[i]` is the score of
// `actions[i]`, legal actions of the seat to decide in `s`.
void light_scores(const LgGame& g, const LgState& s, const int* actions, int n, double* scores);
// One move of the light policy: a best-scored legal action, ties drawn uniformly with
// `rng` (one draw, also for a single best); a chance node's outcome drawn as sample_chance.
// The light policy's move at a decision (not chance): a best-scored action, ties drawn.
int light_choice(const LgGame& g, const LgState& s, SplitMix64& rng);
void light_step(const LgGame& g, LgState& s, SplitMix64& rng);
// One uniformly random move (the reference's random playouts, move for move).
void random_step(const LgGame& g, LgState& s, SplitMix64& rng);

// ----- one seat's view, as the sampler reads it (hzai/games/legends/native/twin.py builds it) -----
enum EventType : int { E_DRAW, E_PLAY, E_DISCARD, E_GIVE, E_REVEAL, E_BACK, E_UNDER_DRAW, E_UNDER_DISCARD,
                       E_TAKE_DISCARD };
extern const char* const EVENT_TEXT[9];

struct LgEvent {  // knowledge.observed's tuples, typed
  int type = 0, seat = 0, other = 0, n = 0, mon = 0, face = 0;
  int k = -1;               // play / discard: the kind, -1 hidden; back: the discarded kind
  bool shown = false;       // kinds given (draw, give, take_discard: seen by the seat)
  std::vector<int> kinds;   // draw, give, take_discard (when shown), reveal, back (the order)
};

struct LgMonsterView {
  int id = 0, size = 0;
  bool final_ = false, defeated = false;
  std::vector<int> cards, req;
  std::vector<std::array<int, 3>> played;  // (counts as, face, by)
};

struct LgTightFlag {  // an atomic int that copies (views are copied; threads may sample one view)
  mutable std::atomic<int> value{-1};
  LgTightFlag() = default;
  LgTightFlag(const LgTightFlag& o) : value(o.value.load()) {}
  LgTightFlag& operator=(const LgTightFlag& o) {
    value.store(o.value.load());
    return *this;
  }
  int load() const { return value.load(); }
  void store(int x) const { value.store(x); }
};

// One decision of the game as a seat saw it (LegendsView.history, the moves redacted by
// knowledge.redact): who decided, at which pending decision, and the action as that
// seat may know it (`observation`: the action id, or an id from g.size up standing for
// the cards it hides). Chance outcomes are not kept (nobody sees their order).
struct LgAct {
  int seat = 0, pending = P_ACTION, obs = 0;
};

struct LgView {
  int seat = 0;
  std::vector<int> own_start, start_hands;  // own start kinds; every seat's start hand size
  int start_pile = 0;
  std::vector<LgEvent> log;
  std::vector<LgAct> history;  // every decision so far, as the seat saw it (may be empty: no history known)
  std::vector<LgMonsterView> monsters;
  std::vector<int> monster_deck_left;  // sorted
  int aside = 0;
  std::vector<int> disc;  // -1: none
  std::vector<bool> broken;
  // public fields of the table
  int turn = 0, turn_seat = 0, pending = P_PLACE, actor = 0, placed = 0, giver = -1;
  bool forced = false, af_set = false, af_slay = false;
  int af_defeat = 0, normals_entered = 0, normals_defeated = 0, finals_defeated = 0, result = R_NONE, reason = W_NONE;

  std::shared_ptr<const LgState> world;  // world_view: every card seen, this very state
  // Whether the rejection draw fails here for seed 0 (-1: not known yet), worked out by
  // the first sample and kept (sampler.tight): such a view goes to the fitted draw at
  // once. A function of the view, which is not changed once sampled.
  LgTightFlag tight;
  // The card model's resampled worlds (lg_card_view): every determinization is one of them.
  std::shared_ptr<const std::vector<LgState>> worlds;

  void check(const LgGame& g) const;  // std::invalid_argument naming a bad field
};

// One state consistent with the view, equal to LegendsView.sample(seed) of the reference
// (same kinds in the same places, same instances): hzai.games.legends.sampler.replay_for,
// the rejection draw, then the fitted draw where it fails (SAMPLE_AUTO), or either alone.
// std::runtime_error when no world fits the view (never for a view a game reached).
enum SampleHow { SAMPLE_AUTO, SAMPLE_REJECTION, SAMPLE_FITTED };
LgState sample(const LgGame& g, const LgView& v, uint64_t seed, SampleHow how = SAMPLE_AUTO);
bool tight(const LgGame& g, const LgView& v);  // sampler.tight

struct LegendsSeats;  // the seats of a running game, for the arena (legends_seats.hpp)
struct LgModel;       // the learned models (legends_learn.hpp)

// The codec block of action id `a`.
inline int block_of(const LgGame& g, int a) {
  int b = B_COUNT - 1;
  while (b > 0 && g.base[b] > a) --b;
  return b;
}

// What `seat` sees of action `a` by the actor of `s` (L-INFO-1, -2; the reference's
// knowledge.redact): the action itself, except for the cards another seat hides — a
// face-down fight card, the card discarded by a paid Move, the cards given in a Support
// to a third seat, and the face-down discards of Recover and of a Support's receiver;
// those are ids from g.size up, one per thing the seat does see (the monster moved to,
// the receiver and how many cards, how many discarded).
inline int observed_action(const LgGame& g, int pending, int actor, int a, int seat);
inline int observation(const LgGame& g, const LgState& s, int a, int seat) {
  return observed_action(g, s.pending, s.actor, a, seat);
}
// The ids `observation` gives for hidden cards: [g.size, observation_limit(g)).
inline int observation_limit(const LgGame& g) { return g.size + 1 + MAX_MONSTERS + (MAX_SEATS + 1) * (MAX_LIST + 1); }
// `observation` from the decision's pending and actor alone (what it reads of the state).
inline int observed_action(const LgGame& g, int pending, int actor, int a, int seat) {
  if (pending == P_CHANCE || actor == seat) return a;
  const int b = block_of(g, a), x = a - g.base[b];
  const int ability = g.size, moved = ability + 1, given = moved + MAX_MONSTERS, dropped = given + MAX_SEATS * (MAX_LIST + 1);
  switch (b) {
    case B_ABILITY: return ability;
    case B_MOVE: return x % (g.kinds + 1) ? moved + x / (g.kinds + 1) : a;
    case B_SUPPORT: {
      const int per = (int)g.multisets.size(), to = x / per;
      return to == seat ? a : given + to * (MAX_LIST + 1) + (int)g.multisets[(size_t)(x % per)].size();
    }
    case B_DISCARD:
      if (pending == P_RECOVER_DISCARD || pending == P_SUPPORT_DISCARD)
        return dropped + (int)g.multisets[(size_t)x].size();
      return a;
    default: return a;
  }
}

// The game trait (search/trait.hpp). The view is checked once, when it is built.
struct Legends {
  using Seats = LegendsSeats;
  using Game = LgGame;
  using State = LgState;
  using View = LgView;
  static int num_players(const Game& g) { return g.seats; }
  static int num_actions(const Game& g) { return g.size; }
  static int max_legal(const Game& g) { return g.max_legal; }
  static int current_player(const Game& g, const State& s) { return lg::current_player(g, s); }
  static int legal_actions(const Game& g, const State& s, int* out) { return lg::legal_actions(g, s, out); }
  static void apply(const Game& g, State& s, int a) { lg::apply(g, s, a); }
  static int sample_chance(const Game& g, const State& s, SplitMix64& rng) { return lg::sample_chance(g, s, rng); }
  static void returns(const Game& g, const State& s, double* out) {
    for (int i = 0; i < g.seats; ++i) out[i] = s.result == R_WON ? 1.0 : 0.0;  // the team's result (L-END-6)
  }
  static State clone(const Game&, const State& s) { return s; }
  static int view_player(const Game& g, const View& v) {
    if (v.world) return lg::current_player(g, *v.world) >= 0 ? lg::current_player(g, *v.world) : -1;
    if (v.result != R_NONE || v.pending == P_CHANCE || v.pending == P_NONE) return -1;
    return v.actor == v.seat ? v.seat : -1;
  }
  static State determinize(const Game& g, const View& v, SplitMix64& rng) {
    if (v.world) return *v.world;
    if (v.worlds && !v.worlds->empty()) return (*v.worlds)[(size_t)(rng.next_u64() % v.worlds->size())];
    return sample(g, v, rng.next_u64());
  }
  static View world_view(const Game&, const State& s) {
    View v;
    v.world = std::make_shared<const State>(s);
    return v;
  }
  static void playout_step(const Game& g, State& s, SplitMix64& rng) { light_step(g, s, rng); }
  static int observation(const Game& g, const State& s, int a, int seat) { return lg::observation(g, s, a, seat); }
  // The light policy's scores: the search widens its tree in their order (search/widening.hpp).
  static void policy_scores(const Game& g, const State& s, const int* actions, int n, double* out) {
    light_scores(g, s, actions, n, out);
  }
  // The learned search's members (search/trait.hpp, model_of), defined in legends_learn.cpp:
  // a team value and a blueprint policy over one seat's features, and a card-location
  // model that weighs the worlds (model_view) trained on the partners' hands (the labels).
  using Model = LgModel;
  static void model_values(const Game& g, const Model& m, const State& s, double* out);
  static void model_policy(const Game& g, const Model& m, const View& v, const int* legal, int n, double* out);
  static void model_state_policy(const Game& g, const Model& m, const State& s, int seat, const int* legal, int n,
                                 double* out);
  static View model_view(const Game& g, const Model& m, const View& v, int pool, uint64_t seed);
  static int feature_count(const Game& g);
  static int view_features(const Game& g, const View& v, int32_t* out);
  static int state_features(const Game& g, const State& s, int32_t* out);
  static int label_count(const Game& g);
  static void hidden_labels(const Game& g, const State& s, const View& v, int seat, int32_t* out);
};

}  // namespace hzn::lg
