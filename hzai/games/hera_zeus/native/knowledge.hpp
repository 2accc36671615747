// What one seat knows about every card, followed through the event log of a native
// replay (core.hpp: Event), and the view spec (hera_zeus.hpp: ViewSpec) that knowledge
// gives: hzai/games/hera_zeus/belief/knowledge.py and view.py (view_of, unaccounted),
// with hzai/games/hera_zeus/native/search.py (flat_view), step for step, so that the spec built here
// equals flat_view(view_of(state, seat)) of the reference replay (tests/native).
#pragma once

#include <stdexcept>
#include <utility>
#include <vector>

#include "core.hpp"
#include "hera_zeus.hpp"

namespace hzn {

// The tracker met an event it cannot explain; the caller takes the reference path,
// which forgets the history and goes on from what is on the table.
struct BeliefError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Knowledge {
 public:
  Knowledge(const GameDef& g, int observer);
  void dealt(const State& s);  // the two `dealt` events of a fresh deal, Hera's first
  void observe(const Event& e);
  // The seat's view of `s` (the state the observed events led to), as flat_view writes it.
  ViewSpec spec(const State& s) const;

 private:
  struct Group {
    std::vector<int> known;                      // count per name id
    std::vector<std::pair<Bits, int>> wildcards;  // (excluded names, count > 0)
    void add_wildcard(const Bits& excluded);
    bool allows(int name) const;
  };

  int new_group();
  int fresh_group();
  bool hidden_in_hand(int card) const;
  void take_out(Group& group, int name) const;
  void hand_gains(int known_name);  // -1: unseen
  void hand_shows(int name);
  bool can_give(int gid, int name) const;
  bool hand_could_hold(int name) const;
  int merge_hand();
  void leaves_hand_unseen(int card);
  void reveal(int card);
  void moved(const Event& e);
  void shown(const Event& e);
  void revealed(const Event& e);
  bool before(const Bits& a, const Bits& b) const;  // sorted-name order of two name sets
  void note(const Event& e);                         // the history (Knowledge._note)
  void history_of(const State& s, ViewSpec& v) const;

  // What the seat saw its opponent do, for the features (ViewSpec::history_*): per card,
  // how and when it last arrived on the opponent's field; the opponent's actions.
  struct Arrival {
    int8_t origin = -1;  // 0 setup, 1 play, 2 another move; -1 none
    int16_t turn = 0;
    int32_t serial = 0;  // order of arrival on the opponent's field
    bool moved = false;
  };
  std::vector<Arrival> arrival_;
  std::vector<bool> from_field_;  // left a field and not yet arrived anywhere
  int arrivals_ = 0;
  bool history_ = false;  // followed from the deal
  std::vector<int> acts_, counts_;  // the opponent's action kinds, oldest first (last few); by kind

  const GameDef& g_;
  std::vector<int> rank_;  // position of each name id in text order
  int observer_, opponent_, hostage_;
  std::vector<bool> placeable_;  // per name
  Bits known_, unseen_leaving_;
  std::vector<int16_t> group_of_;  // per card, -1: none
  std::vector<Bits> slot_excluded_;
  std::vector<Group> groups_;
  std::vector<int> hand_parts_;  // per group: cards of the opponent's hand
  int fresh_ = -1, spy_group_ = -1;
  std::vector<std::pair<int8_t, int8_t>> zone_;  // per card: (Zone, player)
};

}  // namespace hzn
