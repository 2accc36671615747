// Determinization and information-set MCTS in the native core.
//
// The sampler is hzai/belief/sampler.py move for move (same generator calls, same
// card ids), so a view and a seed give the same state in both; the search is
// single-observer ISMCTS (Cowling, Powley and Whitehouse 2012) with availability
// counts, one tree per thread (root parallelism). docs/search.md.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "core.hpp"

namespace hzn {

// ----- a player's view, flattened (hzai/native/search.py builds it) ---------------------
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

struct ViewSpec {
  std::vector<ViewSlot> columns[2][COLUMNS];
  std::vector<ViewSlot> hands[2];
  std::vector<int16_t> discards[2];  // codes, bottom first
  int deck_size[2] = {0, 0};
  std::vector<ViewGroup> groups;
  std::vector<int16_t> pools[2];  // unaccounted name ids per owner, sorted as in Python
  std::vector<ViewPending> pending;
  int phase = PH_PLAY, turn = 0, turn_player = 0, to_move = 0, ap = 0, ap_spent = 0, winner = -1, reason = RS_NONE;
};

class Sampler {
 public:
  Sampler(std::shared_ptr<const GameDef> g, ViewSpec spec);
  State sample(SplitMix64& rng) const;  // throws std::runtime_error when no state fits

 private:
  struct Where {
    int8_t hand;  // 0 field, 1 hand
    int8_t p, c, r;
  };
  bool draw_once(SplitMix64& rng, std::vector<std::vector<int16_t>>& placed, std::vector<int16_t> decks[2]) const;
  State build(const std::vector<std::vector<int16_t>>& placed, const std::vector<int16_t> decks[2]) const;

  std::shared_ptr<const GameDef> g_;
  ViewSpec v_;
  std::vector<std::vector<Where>> group_slots_;
  std::vector<std::vector<Bits>> slot_excluded_;
  std::vector<std::vector<int>> field_order_;
  std::vector<bool> placeable_name_;
  std::vector<std::vector<int>> ids_of_code_;  // card ids of each name*2+owner, ascending
};

// ----- the search ------------------------------------------------------------------------
enum Playout : int { PO_RANDOM = 0, PO_LIGHT = 1 };

struct SearchOptions {
  double exploration = 0.7;
  int playout = PO_RANDOM;
  uint64_t seed = 0;
  int threads = 1;
};

struct Node {
  int32_t action = -1, parent = -1, first_child = -1, next_sibling = -1;
  int8_t mover = -1;
  uint32_t visits = 0, availability = 0;
  double value = 0.0;  // sum of results for `mover`: win 1, draw 0.5, loss 0
  double score = 0.0;  // the same, nudged toward quick wins and slow losses; selection uses it
};

struct alignas(64) Tree {  // one cache line at least: each thread mutates its own tree's generator
  std::vector<Node> nodes;
  SplitMix64 rng{0};
  long iterations = 0;
};

struct ChildStats {
  int action = 0;
  long visits = 0, availability = 0;
  double value = 0.0;
};

class Search {
 public:
  Search(std::shared_ptr<const GameDef> g, ViewSpec spec, SearchOptions options);
  // Runs until `iterations` more iterations (split over the threads; <0: no limit) or
  // `millis` of wall time (<0: no limit) or stop(); returns the iterations done.
  long run(long iterations, double millis);
  void stop() { stop_.store(true); }
  void clear_stop() { stop_.store(false); }
  long iterations() const;
  std::vector<ChildStats> root_stats() const;         // merged over the trees, by action
  std::vector<int> principal_variation(int action, int max_len) const;
  int root_player() const { return root_player_; }

 private:
  void iterate(Tree& tree);
  std::shared_ptr<const GameDef> g_;
  Sampler sampler_;
  SearchOptions options_;
  std::vector<Tree> trees_;
  std::atomic<bool> stop_{false};
  int root_player_ = 0;
};

void light_step(const GameDef& g, State& s, SplitMix64& rng);  // the rule-of-thumb playout policy

}  // namespace hzn
