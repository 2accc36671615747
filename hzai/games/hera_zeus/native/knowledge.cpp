// The knowledge tracker and the view it gives (knowledge.hpp); each function names the
// one of hzai/games/hera_zeus/belief it follows.
#include "knowledge.hpp"

#include <algorithm>

namespace hzn {

namespace {

std::vector<int> name_ranks(const GameDef& g) {  // position of each name in text order
  std::vector<int> rank(g.n_names);
  for (int i = 0; i < g.n_names; ++i) rank[g.name_order[i]] = i;
  return rank;
}

std::vector<int> sorted_names(const Bits& names, const std::vector<int>& rank) {
  std::vector<int> out;
  names.each([&](int n) { out.push_back(rank[n]); });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

void Knowledge::Group::add_wildcard(const Bits& excluded) {
  for (auto& w : wildcards)
    if (w.first.w[0] == excluded.w[0] && w.first.w[1] == excluded.w[1]) {
      ++w.second;
      return;
    }
  wildcards.emplace_back(excluded, 1);
}

bool Knowledge::Group::allows(int name) const {  // Group.allows
  if (known[name] > 0) return true;
  for (const auto& w : wildcards)
    if (w.second > 0 && !w.first.test(name)) return true;
  return false;
}

Knowledge::Knowledge(const GameDef& g, int observer)
    : g_(g), rank_(name_ranks(g)), observer_(observer), opponent_(1 - observer), hostage_(g.cards[g.hostage[1 - observer]].name),
      placeable_(g.n_names, false), group_of_(g.n_cards, -1), slot_excluded_(g.n_cards), zone_(g.n_cards),
      arrival_(g.n_cards), from_field_(g.n_cards, false), counts_(A_COUNT, 0) {
  for (int id = 0; id < g.n_cards; ++id) {
    if (g.cards[id].placeable) placeable_[g.cards[id].name] = true;
    zone_[id] = {Z_DECK, g.cards[id].owner};
  }
}

bool Knowledge::before(const Bits& a, const Bits& b) const {
  return sorted_names(a, rank_) < sorted_names(b, rank_);
}

int Knowledge::new_group() {
  Group group;
  group.known.assign(g_.n_names, 0);
  groups_.push_back(std::move(group));
  hand_parts_.push_back(0);
  return (int)groups_.size() - 1;
}

int Knowledge::fresh_group() {
  if (fresh_ < 0) fresh_ = new_group();
  return fresh_;
}

bool Knowledge::hidden_in_hand(int card) const {  // Knowledge.is_hidden_hand_card
  return zone_[card].first == Z_HAND && zone_[card].second == opponent_ && g_.cards[card].owner == opponent_ &&
         !known_.test(card);
}

// Group.take_out: a known name first, else the most restricted wildcard that could be it.
void Knowledge::take_out(Group& group, int name) const {
  if (group.known[name] > 0) {
    --group.known[name];
    return;
  }
  int chosen = -1;
  for (int i = 0; i < (int)group.wildcards.size(); ++i) {
    const auto& w = group.wildcards[i];
    if (w.second <= 0 || w.first.test(name)) continue;
    if (chosen < 0) {
      chosen = i;
      continue;
    }
    const Bits& best = group.wildcards[chosen].first;
    const int n = w.first.count(), m = best.count();
    if (n > m || (n == m && before(best, w.first))) chosen = i;
  }
  if (chosen < 0) throw BeliefError("a card showed a name its group cannot hold");
  if (--group.wildcards[chosen].second == 0) group.wildcards.erase(group.wildcards.begin() + chosen);
}

void Knowledge::hand_gains(int known_name) {  // Knowledge._hand_gains
  const int gid = fresh_group();
  if (known_name < 0) groups_[gid].add_wildcard(Bits());
  else ++groups_[gid].known[known_name];
  ++hand_parts_[gid];
}

// Knowledge._hand_shows: from the one part that could have held it, else merge first.
void Knowledge::hand_shows(int name) {
  int parts = 0, givers = 0, giver = -1;
  for (int gid = 0; gid < (int)hand_parts_.size(); ++gid) {
    if (hand_parts_[gid] <= 0) continue;
    ++parts;
    if (groups_[gid].allows(name) && can_give(gid, name)) {
      ++givers;
      giver = gid;
    }
  }
  if (givers != 1) {
    if (parts > 1) {
      merge_hand();
      hand_shows(name);
      return;
    }
    throw BeliefError("the opponent's hand showed a name none of its groups can hold");
  }
  take_out(groups_[giver], name);
  --hand_parts_[giver];
}

bool Knowledge::can_give(int gid, int name) const {  // Knowledge._can_give
  const Group& group = groups_[gid];
  int myth_only = 0;
  for (int n = 0; n < g_.n_names; ++n)
    if (!placeable_[n]) myth_only += group.known[n];
  if (group.known[name] > 0 && !placeable_[name]) --myth_only;
  return myth_only <= hand_parts_[gid] - 1;
}

bool Knowledge::hand_could_hold(int name) const {
  for (int gid = 0; gid < (int)hand_parts_.size(); ++gid)
    if (hand_parts_[gid] > 0 && groups_[gid].allows(name)) return true;
  return false;
}

int Knowledge::merge_hand() {  // Knowledge._merge_hand: the lowest group takes the others
  int target = -1;
  for (int gid = 0; gid < (int)hand_parts_.size(); ++gid) {
    if (hand_parts_[gid] <= 0) continue;
    if (target < 0) {
      target = gid;
      continue;
    }
    Group& into = groups_[target];
    Group& from = groups_[gid];
    for (int n = 0; n < g_.n_names; ++n) into.known[n] += from.known[n];
    for (const auto& w : from.wildcards)
      for (int k = 0; k < w.second; ++k) into.add_wildcard(w.first);
    std::fill(from.known.begin(), from.known.end(), 0);
    from.wildcards.clear();
    for (auto& owner_group : group_of_)
      if (owner_group == gid) owner_group = (int16_t)target;
    hand_parts_[target] += hand_parts_[gid];
    hand_parts_[gid] = 0;
  }
  if (target < 0) throw BeliefError("a card left an empty hand");
  fresh_ = -1;
  return target;
}

void Knowledge::leaves_hand_unseen(int card) {  // Knowledge._leaves_hand_unseen
  Bits excluded;
  if (!hand_could_hold(hostage_)) excluded.set(hostage_);
  const int target = merge_hand();
  --hand_parts_[target];
  group_of_[card] = (int16_t)target;
  if (excluded.any()) slot_excluded_[card] = excluded;
}

void Knowledge::reveal(int card) {  // Knowledge.reveal
  if (known_.test(card)) return;
  if (hidden_in_hand(card) || (zone_[card].first == Z_LIMBO && unseen_leaving_.test(card))) {
    unseen_leaving_.reset(card);
    hand_shows(g_.cards[card].name);
  } else {
    const int gid = group_of_[card];
    group_of_[card] = -1;
    slot_excluded_[card] = Bits();
    if (gid >= 0) take_out(groups_[gid], g_.cards[card].name);
  }
  known_.set(card);
}

void Knowledge::dealt(const State& s) {  // Knowledge._dealt, for both hands of the deal
  for (int owner = 0; owner < 2; ++owner) {
    const int gid = owner == opponent_ ? new_group() : -1;
    Bits hostage;
    hostage.set(hostage_);
    s.hand[owner].each([&](int card) {
      zone_[card] = {Z_HAND, (int8_t)owner};
      if (owner == observer_) {
        known_.set(card);
      } else {  // R-SETUP-1: the hostage never starts in a hand
        groups_[gid].add_wildcard(hostage);
        ++hand_parts_[gid];
      }
    });
  }
  spy_group_ = -1;
  history_ = true;
}

void Knowledge::note(const Event& e) {  // Knowledge._note
  if (e.first && e.mover == opponent_ && e.act >= 0 && e.act < A_COUNT) {
    ++counts_[e.act];
    acts_.push_back(e.act);
    if ((int)acts_.size() > HISTORY_ACTS) acts_.erase(acts_.begin());
  }
  if (e.kind != EV_MOVE || e.card < 0) return;
  const int card = e.card;
  if (e.src_zone == Z_FIELD) from_field_[card] = true;
  if (e.dst_zone == Z_FIELD) {
    Arrival& a = arrival_[card];
    if (e.dst_p != opponent_) {
      a = Arrival();
    } else {
      if (from_field_[card] && a.origin >= 0) {
        a.moved = true;
      } else {
        a.origin = (int8_t)(e.act == A_SETUP ? 0 : e.act == A_PLAY ? 1 : 2);
        a.turn = e.turn;
        a.moved = false;
      }
      a.serial = ++arrivals_;
    }
    from_field_[card] = false;
  } else if (e.dst_zone != Z_LIMBO) {
    from_field_[card] = false;
    arrival_[card] = Arrival();
  }
}

// view.history_of: the history part of the view, for the opponent's hidden field cards.
void Knowledge::history_of(const State& s, ViewSpec& v) const {
  if (!history_) return;
  const int q = opponent_;
  v.history_slots.assign((size_t)COLUMNS * DEPTH * HIST_FIELDS, 0);
  for (int c = 0; c < COLUMNS; ++c)
    for (int r = 0; r < DEPTH; ++r) {
      int* out = v.history_slots.data() + (size_t)(c * DEPTH + r) * HIST_FIELDS;
      out[HIST_ORIGIN] = -1;
      if (r >= s.col_len[q][c] || v.columns[q][c][r].kind != SL_GROUP) continue;
      const Arrival& a = arrival_[s.col[q][c][r]];
      if (a.origin < 0) {
        out[HIST_ORIGIN] = 3;
        continue;
      }
      out[HIST_ORIGIN] = a.origin;
      out[HIST_AGE] = s.turn - a.turn;
      int covered = 0;
      for (int r2 = 0; r2 < r; ++r2) {
        const int other = s.col[q][c][r2];
        if (other != FIGURE && arrival_[other].origin >= 0 && arrival_[other].serial > a.serial) ++covered;
      }
      out[HIST_COVERED] = covered;
      out[HIST_MOVED] = a.moved ? 1 : 0;
    }
  v.history_acts.assign(acts_.rbegin(), acts_.rend());
  v.history_counts = counts_;
}

void Knowledge::observe(const Event& e) {  // Knowledge.observe
  note(e);
  if (e.kind == EV_ACT) return;  // a move's stamp alone: counted by note(), nothing moved
  if (e.kind != EV_REVEAL) spy_group_ = -1;
  switch (e.kind) {
    case EV_MOVE: moved(e); break;
    case EV_REVEAL: revealed(e); break;
    case EV_SHOW_HAND: shown(e); break;
    default: throw BeliefError("an event the tracker does not know");
  }
}

void Knowledge::moved(const Event& e) {  // Knowledge._moved
  const int card = e.card;
  const bool was_hidden_in_hand = hidden_in_hand(card);
  zone_[card] = {e.dst_zone, e.dst_p};
  if (was_hidden_in_hand) {
    unseen_leaving_.set(card);
    return;
  }
  if (unseen_leaving_.test(card)) {
    unseen_leaving_.reset(card);
    if (e.dst_zone == Z_FIELD) {
      leaves_hand_unseen(card);
    } else {  // onto a pile: public (R-INFO-1)
      hand_shows(g_.cards[card].name);
      known_.set(card);
    }
    return;
  }
  if (e.dst_zone == Z_DISCARD) {
    reveal(card);
  } else if (e.dst_zone == Z_HAND) {
    if (e.dst_p == opponent_ && g_.cards[card].owner == opponent_) {
      hand_gains(e.src_zone == Z_DECK ? -1 : g_.cards[card].name);
      known_.reset(card);
    } else {
      known_.set(card);
    }
  }
}

void Knowledge::shown(const Event& e) {  // Knowledge._shown
  if (e.to == observer_ && e.src_zone == Z_HAND && e.src_p == opponent_) {
    int parts = 0;
    for (int n : hand_parts_) parts += n > 0;
    if (parts > 1) merge_hand();
    spy_group_ = new_group();
  }
}

void Knowledge::revealed(const Event& e) {  // Knowledge._revealed
  const int card = e.card;
  if (e.to < 0) {
    reveal(card);
  } else if (e.to == observer_) {
    if (spy_group_ >= 0 && hidden_in_hand(card)) {  // R-PYT-1: the whole hand, one exact group
      const int name = g_.cards[card].name;
      int old = -1, old_parts = 0;
      for (int gid = 0; gid < (int)hand_parts_.size(); ++gid)
        if (gid != spy_group_ && hand_parts_[gid] > 0) {
          old = gid;
          ++old_parts;
        }
      if (old_parts != 1) throw BeliefError("a spied card the hand did not hold");
      take_out(groups_[old], name);
      --hand_parts_[old];
      ++groups_[spy_group_].known[name];
      ++hand_parts_[spy_group_];
      fresh_ = -1;
    } else {
      reveal(card);
    }
  }
}

// ----- the view: view.view_of + view.unaccounted + search.flat_view ----------------------
ViewSpec Knowledge::spec(const State& s) const {
  const std::vector<int>& rank = rank_;
  std::vector<int> number(groups_.size(), -1);  // tracker group -> view group, by first appearance
  std::vector<int> order;                       // view group -> tracker group
  auto number_of = [&](int gid) {
    if (number[gid] < 0) {
      number[gid] = (int)order.size();
      order.push_back(gid);
    }
    return number[gid];
  };
  auto code = [&](int card) { return (int16_t)(g_.cards[card].name * 2 + g_.cards[card].owner); };
  std::vector<std::vector<int>> pool(2, std::vector<int>(g_.n_names, 0));  // unaccounted names
  for (int id = 0; id < g_.n_cards; ++id) ++pool[g_.cards[id].owner][g_.cards[id].name];
  auto seen = [&](int card) { --pool[g_.cards[card].owner][g_.cards[card].name]; };

  ViewSpec v;
  for (int p = 0; p < 2; ++p)
    for (int c = 0; c < COLUMNS; ++c) {
      auto& column = v.columns[p][c];
      for (int r = 0; r < s.col_len[p][c]; ++r) {
        const int card = s.col[p][c][r];
        ViewSlot slot;
        if (card == FIGURE) {
          slot.kind = SL_FIGURE;
        } else if (s.face_up.test(card) || known_.test(card)) {
          slot.kind = SL_KNOWN;
          slot.code = code(card);
          slot.face_up = s.face_up.test(card);
          seen(card);
        } else {
          if (group_of_[card] < 0) throw BeliefError("a hidden card outside every group");
          slot.kind = SL_GROUP;
          slot.group = (int16_t)number_of(group_of_[card]);
          slot.excluded = slot_excluded_[card];
        }
        column.push_back(slot);
      }
    }
  for (int p = 0; p < 2; ++p) {
    std::vector<int> known_cards;  // by (name text, owner), never by id
    s.hand[p].each([&](int card) {
      if (known_.test(card)) known_cards.push_back(card);
    });
    std::sort(known_cards.begin(), known_cards.end(), [&](int a, int b) {
      const int ra = rank[g_.cards[a].name], rb = rank[g_.cards[b].name];
      return ra != rb ? ra < rb : g_.cards[a].owner < g_.cards[b].owner;
    });
    auto& hand = v.hands[p];
    for (int card : known_cards) {
      ViewSlot slot;
      slot.kind = SL_KNOWN;
      slot.code = code(card);
      hand.push_back(slot);
      seen(card);
    }
    if (p == opponent_)
      for (int gid = 0; gid < (int)hand_parts_.size(); ++gid) {
        if (hand_parts_[gid] <= 0) continue;
        ViewSlot slot;
        slot.kind = SL_GROUP;
        slot.group = (int16_t)number_of(gid);
        for (int k = 0; k < hand_parts_[gid]; ++k) hand.push_back(slot);
      }
    if ((int)hand.size() != s.hand[p].count()) throw BeliefError("the hand's known cards and groups do not add up");
  }
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < s.pile_len[p]; ++i) {
      v.discards[p].push_back(code(s.pile[p][i]));
      seen(s.pile[p][i]);
    }
    v.deck_sizes[p] = s.deck_len[p];
  }
  for (int gid : order) {
    const Group& group = groups_[gid];
    ViewGroup out;
    out.owner = opponent_;
    for (int k = 0; k < g_.n_names; ++k) {
      const int n = g_.name_order[k];
      for (int i = 0; i < group.known[n]; ++i) out.known.push_back((int16_t)n);
      pool[opponent_][n] -= group.known[n];
    }
    std::vector<std::pair<Bits, int>> wild;
    for (const auto& w : group.wildcards)
      if (w.second > 0) wild.push_back(w);
    std::sort(wild.begin(), wild.end(), [&](const auto& a, const auto& b) {
      const auto x = sorted_names(a.first, rank), y = sorted_names(b.first, rank);
      return x != y ? x < y : a.second < b.second;
    });
    for (const auto& w : wild) out.wildcards.emplace_back(w.second, w.first);
    v.groups.push_back(std::move(out));
  }
  public_parts(g_, s, v);
  history_of(s, v);
  for (int i = 0; i < s.n_pending; ++i)
    if (s.pending[i].kind == PD_PLACE) seen(s.pending[i].cards[0]);  // the card to place, shown to both
  for (int p = 0; p < 2; ++p)
    for (int k = 0; k < g_.n_names; ++k) {
      const int n = g_.name_order[k];
      if (pool[p][n] < 0) throw BeliefError("a view accounts for more cards than the deck has");
      for (int i = 0; i < pool[p][n]; ++i) v.pools[p].push_back((int16_t)n);
    }
  return v;
}

}  // namespace hzn
