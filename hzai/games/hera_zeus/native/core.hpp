// Native rules core of Hera and Zeus: the rules of hzai/games/hera_zeus/rules (the reference engine)
// over a compact state. Card instance ids, name order and action ids are those of the
// Python side (hzai/games/hera_zeus/cards.py, rules/actions.py); docs/actions.md and docs/native.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "rng.hpp"

namespace hzn {

constexpr int MAX_CARDS = 128;  // both sides; a Bits holds them
constexpr int MAX_SIDE = 64;
constexpr int COLUMNS = 3;
constexpr int DEPTH = 4;
constexpr int HAND_LIMIT = 12;   // R-ACT-1
constexpr int FIGURE_AP = 4;     // R-TURN-3, R-GOD-2
constexpr int HAND_AT_DEAL = 9;  // R-SETUP-1
constexpr int8_t FIGURE = -1;
constexpr int MAX_HAND = 16;     // rules keep hands at 12 or fewer; checked when a state is loaded
constexpr int MAX_BLOCK = 24;    // a Pandora loss: one column per side plus a Pegasus, or a hand
constexpr int MAX_PENDING = 3;
constexpr int MAX_ACTIONS = 4096;

// Card kinds and powers, phases, pending kinds, end reasons and action blocks:
// tables.def in this folder.
enum Kind : int8_t {
#define HZ_KIND(ID, TEXT) K_##ID,
#include "tables.def"
  K_COUNT
};
enum Power : int8_t {
  P_NONE = -1,
#define HZ_POWER(ID, TEXT) P_##ID,
#include "tables.def"
  P_COUNT
};
enum Phase : int8_t {
#define HZ_PHASE(ID, TEXT) PH_##ID,
#include "tables.def"
};
enum PendingKind : int8_t {
#define HZ_PENDING(ID, TEXT) PD_##ID,
#include "tables.def"
};
enum Reason : int8_t {
#define HZ_REASON(ID, TEXT) RS_##ID,
#include "tables.def"
};

// Action kinds in the order of their id ranges (docs/actions.md).
enum ActKind : int {
#define HZ_ACTION(ID, TEXT, SIZE) A_##ID,
#include "tables.def"
  A_COUNT
};
// Each block's kind text, the first word(s) of its moves' notation.
inline constexpr const char* ACTION_TEXT[A_COUNT] = {
#define HZ_ACTION(ID, TEXT, SIZE) TEXT,
#include "tables.def"
};

struct Bits {
  uint64_t w[2] = {0, 0};
  bool test(int i) const { return (w[i >> 6] >> (i & 63)) & 1ULL; }
  void set(int i) { w[i >> 6] |= 1ULL << (i & 63); }
  void reset(int i) { w[i >> 6] &= ~(1ULL << (i & 63)); }
  int count() const { return __builtin_popcountll(w[0]) + __builtin_popcountll(w[1]); }
  bool any() const { return (w[0] | w[1]) != 0; }
  Bits operator&(const Bits& o) const { Bits r; r.w[0] = w[0] & o.w[0]; r.w[1] = w[1] & o.w[1]; return r; }
  Bits operator|(const Bits& o) const { Bits r; r.w[0] = w[0] | o.w[0]; r.w[1] = w[1] | o.w[1]; return r; }
  int first() const {
    if (w[0]) return __builtin_ctzll(w[0]);
    if (w[1]) return 64 + __builtin_ctzll(w[1]);
    return -1;
  }
  int nth(int n) const {  // the n-th (0-based) set bit in ascending order
    for (int k = 0; k < 2; ++k) {
      uint64_t x = w[k];
      int c = __builtin_popcountll(x);
      if (n < c) {
        for (int i = 0; i < n; ++i) x &= x - 1;
        return k * 64 + __builtin_ctzll(x);
      }
      n -= c;
    }
    return -1;
  }
  template <class F>
  void each(F f) const {
    for (int k = 0; k < 2; ++k) {
      uint64_t x = w[k];
      while (x) {
        f(k * 64 + __builtin_ctzll(x));
        x &= x - 1;
      }
    }
  }
};

struct CardInfo {
  int16_t name = 0;
  int8_t owner = 0;
  int8_t kind = K_PLAIN;
  int8_t strength = -1;  // -1: no strength
  int8_t power = P_NONE;
  bool slays_medusa = false;
  bool falls_to_pythia = false;
  bool placeable = false;
  bool can_challenge = false;
};

struct CardSpec {  // what Python passes per card instance, in id order
  std::string name;
  std::string name_lower;  // Python's str.lower(), the key of R-PAN-2's alphabetical order
  int owner, kind, strength, power;
  bool slays_medusa, falls_to_pythia;
};

struct GameDef {
  int n_cards = 0, per_side = 0, n_names = 0, n_refs = 0;
  std::vector<std::string> names;  // distinct names in order of first appearance by id
  std::vector<CardInfo> cards;
  int hostage[2] = {-1, -1}, god[2] = {-1, -1};
  int first_player = 0;
  bool figure_removal_pegasus = false;
  bool pythia_always_loses = false;
  int turn_limit = 200;
  int offset[A_COUNT + 1] = {};
  std::vector<std::string> text;  // notation of every action id
  std::vector<int32_t> rank;      // position of that text in byte (code point) order
  std::vector<int32_t> by_rank;   // the action id of each rank
  std::vector<int> name_order;    // name ids sorted by their text (setup moves come out sorted)
  std::vector<uint32_t> pile_key; // R-PAN-2 order without the holder term
  std::vector<Bits> name_mask;
  Bits owner_mask[2], placeable_mask, god_mask;
  Bits power_mask[P_COUNT];

  GameDef(const std::vector<CardSpec>& specs, int first_player_, bool fig_pegasus, bool pythia_loses, int limit);
  int kind_of(int action) const {
    int k = 0;
    while (action >= offset[k + 1]) ++k;
    return k;
  }
  int total_actions() const { return offset[A_COUNT]; }
  std::string ref_text(int ref) const;
};

struct Pending {
  int8_t kind = PD_CHANCE;
  int8_t player = 0;
  uint8_t n = 0;
  uint8_t cards[MAX_BLOCK] = {};
};

// Plain data: copying a State is one memcpy.
struct State {
  Bits hand[2];
  Bits face_up;
  uint8_t deck[2][MAX_SIDE];  // deck[p][deck_head[p]] is the top
  uint8_t deck_head[2] = {0, 0};
  uint8_t deck_len[2] = {0, 0};
  uint8_t pile[2][MAX_CARDS];  // bottom first
  uint8_t pile_len[2] = {0, 0};
  int8_t col[2][COLUMNS][DEPTH];  // front (r1) first
  uint8_t col_len[2][COLUMNS] = {};
  Pending pending[MAX_PENDING];
  uint8_t n_pending = 0;
  int8_t phase = PH_SETUP;
  int8_t to_move = 0;  // -1: nobody (chance, game over)
  int8_t turn_player = 0;
  int8_t winner = -1;  // -1: none (running or drawn)
  int8_t reason = RS_NONE;
  int32_t turn = 0, ap = 0, ap_spent = 0;
  int32_t moves_played = 0;  // moves and chance results applied since the state was made
};

// ----- what a move does, as the reference engine logs it (State.events) -------------------
// Every card movement, reveal and shown hand, in the order hzai/games/hera_zeus/rules
// logs them (limbo included: a card between two places), so that a seat's knowledge can
// be followed from a native replay (knowledge.hpp). Only collected while an EventLog is
// installed on the thread (a replay for the service); the search never installs one.
enum Zone : int8_t { Z_DECK = 0, Z_HAND, Z_FIELD, Z_DISCARD, Z_LIMBO };
// EV_ACT: a move that logged nothing else (a recall of the figure alone, `top`, a challenge
// of two face-up cards) leaves its stamp alone, so the history features see every move.
enum EventKind : int8_t { EV_DEALT = 0, EV_MOVE, EV_REVEAL, EV_SHOW_HAND, EV_ACT };

struct Event {
  int8_t kind = EV_MOVE;
  int16_t card = -1;                 // move, reveal
  int8_t src_zone = -1, src_p = -1;  // move; show_hand: the hand shown; dealt: the hand dealt
  int8_t dst_zone = -1, dst_p = -1;  // move
  int8_t to = -1;                    // reveal, show_hand: who sees it (-1: everyone)
  // The move being applied when the event was logged (public, R-INFO): the turn, the
  // action kind (A_*), who made it (-1: chance) and whether this is its first event.
  // The knowledge tracker's history features read them (docs/learning.md).
  int16_t turn = -1;
  int8_t act = -1, mover = -1;
  bool first = false;
};

using EventLog = std::vector<Event>;

// Collect the events of the moves applied on this thread into `log` while alive.
class EventCapture {
 public:
  explicit EventCapture(EventLog* log);
  ~EventCapture();
  EventCapture(const EventCapture&) = delete;
  EventCapture& operator=(const EventCapture&) = delete;

 private:
  EventLog* previous_;
};

// ----- the rules ---------------------------------------------------------------------
int legal_actions(const GameDef& g, const State& s, int* out);       // canonical, unsorted
int legal_actions_sorted(const GameDef& g, const State& s, int* out); // sorted by text
bool has_action(const GameDef& g, const State& s);
int chance_outcomes(const GameDef& g, const State& s, int* ids, int* counts);  // sorted by text
bool is_legal(const GameDef& g, const State& s, int action);
void apply_action(const GameDef& g, State& s, int action);  // legal and canonical
int sample_chance(const GameDef& g, const State& s, SplitMix64& rng);  // at a chance node: the outcome drawn
void random_step(const GameDef& g, State& s, SplitMix64& rng);
void random_playout(const GameDef& g, State& s, uint64_t seed);
State deal(const GameDef& g, uint64_t seed);
int figure_column(const State& s, int p);
int card_in_hand(const GameDef& g, int ref, const Bits& hand, int mover);  // the card a ref names there, or -1

}  // namespace hzn
