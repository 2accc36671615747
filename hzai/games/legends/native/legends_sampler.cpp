// The determinization of a Legends view: hzai/games/legends/sampler.py in C++, draw for
// draw, so that sample(g, view, seed) equals LegendsView.sample(seed). The seat's log
// is replayed on tokens (one per card, its kind open until the log shows it); see the
// Python module for the why of each step (the repair of hidden removals above all), and
// for the fitted draw that runs where every rejection attempt fails (`fitted` below).
#include <algorithm>
#include <map>
#include <set>

#include "legends.hpp"

namespace hzn::lg {

namespace {

constexpr int OPEN = -1;
constexpr int ATTEMPTS = 200;
constexpr int UNIFORM_ATTEMPTS = 8;
constexpr int WILD = -2;  // the fitted draw's lookahead: a card a hand receives later, of any kind it needs
constexpr uint64_t FITTED = 0xF177ED;  // the sub-seed of the fitted draw
constexpr int RUNS = 200, RESTARTS = 100;  // the fitted draw: replays a search may make, searches

using Needs = std::map<std::pair<int, int>, int>;  // sampler.pile_needs: (log index, place) -> kind

struct Contradiction {};

enum Where : int { W_UNSET, W_DISCARD, W_PLAYED, W_HAND };

struct Hidden {
  int at, seat, tok, arrived, where, where_at;
};

// The hidden removals' mode of an attempt (sampler.py, _Replay.mode): any card, fixed
// cards first, open cards first, or one of the two removal by removal.
enum Mode { M_UNIFORM, M_FIXED, M_OPEN, M_MIXED };
constexpr Mode MODES[4] = {M_FIXED, M_OPEN, M_FIXED, M_MIXED};  // later attempts, in turn

struct Fit {  // what the fitted draw's replays share (sampler.py, fitted_replay)
  std::vector<int> prefix;
  std::set<std::vector<int>> failed;
  Needs needs;
  std::vector<std::vector<int>> touch;  // per seat, the log entries that move cards of its hand
};

struct Replay {
  SplitMix64 rng;
  Mode mode;
  std::vector<int> kind, draw, oracle, pool, moved;
  std::vector<std::vector<int>> hands, played;
  std::vector<std::pair<int, int>> discard;
  std::vector<Hidden> hidden;
  int at = 0;
  // the fitted draw (sampler.py, _Fitted): null for the rejection draw
  Fit* fit = nullptr;
  const std::vector<LgEvent>* log = nullptr;
  std::vector<std::pair<int, std::vector<int>>> trail;  // (options, state key) of each choice made
  std::vector<int> loose;  // cards out of a hand and not yet placed (a handover, a block)
  int give_to = -1, give_more = 0;  // during a handover: the receiver, the cards still to come

  Replay(const LgGame& g, const LgView& v, uint64_t seed, Mode m) : rng(seed), mode(m) {
    hands.resize((size_t)g.seats);
    for (int s = 0; s < g.seats; ++s) {
      if (s == v.seat)
        for (int k : v.own_start) hands[(size_t)s].push_back(token(k));
      else
        for (int i = 0; i < v.start_hands[(size_t)s]; ++i) hands[(size_t)s].push_back(token(OPEN));
    }
    for (int i = 0; i < v.start_pile; ++i) draw.push_back(token(OPEN));
    pool.assign((size_t)g.kinds, 0);
    for (int k : g.deck) ++pool[(size_t)k];
    for (int k : v.own_start) --pool[(size_t)k];  // Counter subtraction: negatives read as none
    played.resize(v.monsters.size());
    moved.assign(kind.size(), -1);
  }

  int token(int k) {
    kind.push_back(k);
    return (int)kind.size() - 1;
  }

  void fix(int tok, int k) {
    if (kind[(size_t)tok] == k) return;
    if (kind[(size_t)tok] != OPEN || pool[(size_t)k] <= 0) throw Contradiction{};
    kind[(size_t)tok] = k;
    --pool[(size_t)k];
  }

  int pop_at(std::vector<int>& v, size_t pos) {
    const int x = v[pos];
    v.erase(v.begin() + (long)pos);
    return x;
  }

  // Which cards a hidden removal takes first: 1 fixed, 0 open, -1 any.
  int prefer_fixed() {
    if (mode == M_MIXED) return rng.below(2) == 0 ? 1 : 0;
    return mode == M_UNIFORM ? -1 : (mode == M_FIXED ? 1 : 0);
  }

  int take(int seat, int k) {
    auto& hand = hands[(size_t)seat];
    if (hand.empty()) throw Contradiction{};
    if (k < 0) {
      size_t pos = (size_t)rng.below(hand.size());
      const int prefer = prefer_fixed();
      if (prefer >= 0) {  // a later attempt: see `mode`
        std::vector<size_t> chosen;
        for (size_t p = 0; p < hand.size(); ++p)
          if ((kind[(size_t)hand[p]] != OPEN) == (prefer == 1)) chosen.push_back(p);
        if (!chosen.empty()) pos = chosen[(size_t)rng.below(chosen.size())];
      }
      const int tok = pop_at(hand, pos);
      hidden.push_back(Hidden{at, seat, tok, moved[(size_t)tok], W_UNSET, 0});
      moved[(size_t)tok] = at;
      return tok;
    }
    for (size_t p = 0; p < hand.size(); ++p) {
      if (kind[(size_t)hand[p]] == k) {
        moved[(size_t)hand[p]] = at;
        return pop_at(hand, p);
      }
    }
    int tok = repair(seat, k, true);
    if (tok < 0) {
      std::vector<size_t> opened;
      for (size_t p = 0; p < hand.size(); ++p)
        if (kind[(size_t)hand[p]] == OPEN) opened.push_back(p);
      if (!opened.empty() && pool[(size_t)k] > 0) tok = pop_at(hand, opened[(size_t)rng.below(opened.size())]);
      else tok = repair(seat, k, false);
    }
    if (tok < 0) throw Contradiction{};
    fix(tok, k);
    moved[(size_t)tok] = at;
    return tok;
  }

  void went(int where, int where_at) {
    if (!hidden.empty() && hidden.back().at == at && hidden.back().where == W_UNSET) {
      hidden.back().where = where;
      hidden.back().where_at = where_at;
    }
  }

  static void swap_in(std::vector<int>& v, int x, int y) {
    for (int& t : v)
      if (t == x) t = y;
  }

  int repair(int seat, int k, bool fixed_only) {
    auto& hand = hands[(size_t)seat];
    for (auto r = hidden.rbegin(); r != hidden.rend(); ++r) {
      const int x = r->tok;
      if (r->seat != seat || moved[(size_t)x] != r->at || r->where == W_UNSET) continue;
      const int kx = kind[(size_t)x];
      if (!(kx == k || (!fixed_only && kx == OPEN && pool[(size_t)k] > 0))) continue;
      std::vector<int> stayed;
      for (int y : hand)
        if (moved[(size_t)y] < r->at) stayed.push_back(y);
      if (stayed.empty()) continue;
      const int prefer = prefer_fixed();
      if (prefer >= 0) {  // the card that leaves instead, as `mode` prefers
        std::vector<int> chosen;
        for (int c : stayed)
          if ((kind[(size_t)c] != OPEN) == (prefer == 1)) chosen.push_back(c);
        if (!chosen.empty()) stayed.swap(chosen);
      }
      const int y = stayed[(size_t)rng.below(stayed.size())];
      if (r->where == W_DISCARD) {
        for (auto& e : discard)
          if (e.first == x) e.first = y;
      } else if (r->where == W_PLAYED) {
        swap_in(played[(size_t)r->where_at], x, y);
      } else {
        swap_in(hands[(size_t)r->where_at], x, y);
      }
      hand.erase(std::find(hand.begin(), hand.end(), y));
      const int arrived = r->arrived;
      r->tok = y;
      r->arrived = moved[(size_t)y];
      moved[(size_t)y] = r->at;
      moved[(size_t)x] = arrived;
      return x;
    }
    return -1;
  }

  // ----- the fitted draw: sampler.py's _Fitted, call for call -----
  int need(int j, int q) const {
    const auto it = fit->needs.find({j, q});
    return it == fit->needs.end() ? -1 : it->second;
  }

  std::vector<int> key() const {
    std::vector<int> out{at, (int)loose.size()};
    for (int t : loose) out.push_back(kind[(size_t)t]);
    for (const auto& h : hands) {
      std::vector<int> st;
      for (int t : h) st.push_back(kind[(size_t)t]);
      std::sort(st.begin(), st.end());
      out.push_back((int)st.size());
      out.insert(out.end(), st.begin(), st.end());
    }
    out.push_back((int)draw.size());
    for (int t : draw) out.push_back(kind[(size_t)t]);
    out.push_back((int)discard.size());
    for (const auto& d : discard) out.push_back(kind[(size_t)d.first]);
    out.push_back((int)oracle.size());
    for (int t : oracle) out.push_back(kind[(size_t)t]);
    out.insert(out.end(), pool.begin(), pool.end());
    return out;
  }

  // The kinds log entry j takes out of `seat`'s hand (-1 unseen): _Fitted.shown_out.
  std::vector<int> shown_out(int j, int seat) const {
    const LgEvent& e = (*log)[(size_t)j];
    if ((e.type == E_PLAY || e.type == E_DISCARD) && e.seat == seat)
      return {e.k < 0 && e.type == E_DISCARD ? need(j, 0) : e.k};
    if (e.type == E_GIVE && e.seat == seat) return e.shown ? e.kinds : std::vector<int>((size_t)e.n, -1);
    if ((e.type == E_UNDER_DRAW || e.type == E_UNDER_DISCARD) && e.seat == seat) {
      std::vector<int> out;
      for (int q = 0; q < e.n; ++q) out.push_back(need(j, q));
      return out;
    }
    return {};
  }

  // _Fitted.hand_can: -1, or how many kinds a card not yet fixed to them must show.
  int hand_can(int seat, std::map<int, int> held) const {
    for (auto it = held.begin(); it != held.end();) it = it->second > 0 ? std::next(it) : held.erase(it);
    std::vector<int> future;
    for (int j : fit->touch[(size_t)seat])
      if (j > at) future.push_back(j);
    std::map<int, int> wanted, used;
    for (int j : future)
      for (int k : shown_out(j, seat))
        if (k >= 0) ++wanted[k];
    int fitted_ = 0;
    for (int j : future) {
      const LgEvent& e = (*log)[(size_t)j];
      if (e.type == E_DRAW || e.type == E_TAKE_DISCARD || (e.type == E_GIVE && e.other == seat && e.seat != seat)) {
        held[WILD] += e.n;
        continue;
      }
      for (int k : shown_out(j, seat)) {
        if (k >= 0) {
          --wanted[k];
          if (held[k] > 0) {
            --held[k];
            continue;
          }
          if (held[WILD] > 0) {
            --held[WILD];
          } else if (held[OPEN] > 0 && pool[(size_t)k] - used[k] > 0) {
            --held[OPEN];
            ++used[k];
          } else {
            return -1;
          }
          ++fitted_;
          continue;
        }
        int x = -100;
        for (const auto& [y, n] : held)
          if (y >= 0 && n > std::max(wanted[y], 0)) {
            x = y;  // the lowest spare kind
            break;
          }
        if (x == -100) {
          if (held[WILD] > 0) {
            x = WILD;
          } else if (held[OPEN] > 0) {
            x = OPEN;
          } else {
            int best = 0;
            for (const auto& [y, n] : held)
              if (n > best) best = n, x = y;  // the commonest, the lowest of those
            if (x == -100) return -1;
          }
        }
        --held[x];
      }
      if (e.type == E_UNDER_DRAW || e.type == E_UNDER_DISCARD) held.clear();
    }
    return fitted_;
  }

  // One status among those of `cards`: the search's next option (_Fitted.choose).
  int choose(const std::vector<int>& cards, int seat, int receiver, int more) {
    std::map<int, int> counts;
    for (int t : cards) ++counts[kind[(size_t)t]];
    std::vector<int> options, weights;
    for (const auto& [st, n] : counts) options.push_back(st), weights.push_back(n);
    if (options.size() == 1) return options[0];
    std::vector<int> order;
    while (!options.empty()) {
      int total = 0;
      for (int w : weights) total += w;
      uint64_t x = rng.below((uint64_t)total);
      size_t j = 0;
      while (x >= (uint64_t)weights[j]) x -= (uint64_t)weights[j], ++j;
      order.push_back(options[j]);
      options.erase(options.begin() + (long)j);
      weights.erase(weights.begin() + (long)j);
    }
    if (seat >= 0) {
      std::vector<int> costs;
      for (int st : order) {
        std::map<int, int> left = counts;
        --left[st];
        int c = hand_can(seat, left);
        if (receiver >= 0 && c >= 0) {
          std::map<int, int> got;
          for (int t : hands[(size_t)receiver]) ++got[kind[(size_t)t]];
          for (int t : loose) ++got[kind[(size_t)t]];
          ++got[st];
          got[WILD] += more;
          const int there = hand_can(receiver, got);
          c = there < 0 ? -1 : c + there;
        }
        costs.push_back(c);
      }
      std::vector<size_t> ranked(order.size());
      for (size_t i = 0; i < ranked.size(); ++i) ranked[i] = i;
      std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
        return std::make_pair(costs[a] < 0, costs[a]) < std::make_pair(costs[b] < 0, costs[b]);
      });
      std::vector<int> sorted;
      for (size_t i : ranked) sorted.push_back(order[i]);
      order.swap(sorted);
    }
    std::vector<int> k = key();
    if (fit->failed.count(k)) {  // every option from this state was tried and failed
      trail.emplace_back(0, std::move(k));
      throw Contradiction{};
    }
    const size_t j = trail.size();
    trail.emplace_back((int)order.size(), std::move(k));
    return order[(size_t)(j < fit->prefix.size() ? fit->prefix[j] : 0)];
  }

  int pick(std::vector<int>& cards, int status) {
    std::vector<size_t> at_;
    for (size_t p = 0; p < cards.size(); ++p)
      if (kind[(size_t)cards[p]] == status) at_.push_back(p);
    return pop_at(cards, at_[(size_t)rng.below(at_.size())]);
  }

  // A card out of `hand`: of kind k (fixed to k first, else an open one fixed to it), or
  // as the search chooses when k < 0 (_Fitted.take_from).
  int take_from(std::vector<int>& hand, int k, int seat) {
    if (hand.empty()) throw Contradiction{};
    if (k < 0) return pick(hand, choose(hand, seat, seat >= 0 ? give_to : -1, seat >= 0 ? give_more : 0));
    for (size_t p = 0; p < hand.size(); ++p)
      if (kind[(size_t)hand[p]] == k) return pop_at(hand, p);
    if (pool[(size_t)k] <= 0 || std::find_if(hand.begin(), hand.end(), [&](int t) { return kind[(size_t)t] == OPEN; }) == hand.end())
      throw Contradiction{};
    const int tok = pick(hand, OPEN);
    fix(tok, k);
    return tok;
  }

  void step(const LgEvent& e) {
    if (fit) {
      switch (e.type) {
        case E_PLAY: {
          const int tok = take_from(hands[(size_t)e.seat], e.k, e.seat);
          played[(size_t)e.mon].push_back(tok);
          return;
        }
        case E_DISCARD: {
          const int tok = take_from(hands[(size_t)e.seat], e.k >= 0 ? e.k : need(at, 0), e.seat);
          discard.emplace_back(tok, e.seat);
          return;
        }
        case E_GIVE: {
          for (int i = 0; i < e.n; ++i) {
            give_to = e.other, give_more = e.n - i - 1;
            loose.push_back(take_from(hands[(size_t)e.seat], e.shown ? e.kinds[(size_t)i] : -1, e.seat));
          }
          give_to = -1, give_more = 0;
          for (int t : loose) hands[(size_t)e.other].push_back(t);
          loose.clear();
          return;
        }
        case E_UNDER_DRAW: case E_UNDER_DISCARD: {
          auto& hand = hands[(size_t)e.seat];
          if ((int)hand.size() != e.n) throw Contradiction{};
          for (int q = 0; q < e.n; ++q) loose.push_back(take_from(hand, need(at, q), -1));
          std::vector<int> block;
          block.swap(loose);
          if (e.type == E_UNDER_DRAW) {
            draw.insert(draw.begin(), block.rbegin(), block.rend());
          } else {
            std::vector<std::pair<int, int>> under;
            for (auto it = block.rbegin(); it != block.rend(); ++it) under.emplace_back(*it, e.seat);
            discard.insert(discard.begin(), under.begin(), under.end());
          }
          return;
        }
        default: break;
      }
    }
    switch (e.type) {
      case E_DRAW: case E_TAKE_DISCARD: {
        std::vector<int> taken;
        for (int i = 0; i < e.n; ++i) {
          if (e.type == E_DRAW) {
            if (draw.empty()) throw Contradiction{};
            taken.push_back(draw.back());
            draw.pop_back();
          } else {
            if (discard.empty()) throw Contradiction{};
            taken.push_back(discard.back().first);
            discard.pop_back();
          }
        }
        if (e.shown)
          for (size_t i = 0; i < taken.size(); ++i) fix(taken[i], e.kinds[i]);
        for (int t : taken) hands[(size_t)e.seat].push_back(t), moved[(size_t)t] = at;
        break;
      }
      case E_PLAY: {
        const int tok = take(e.seat, e.k);
        went(W_PLAYED, e.mon);
        played[(size_t)e.mon].push_back(tok);
        break;
      }
      case E_DISCARD: {
        const int tok = take(e.seat, e.k);
        went(W_DISCARD, 0);
        discard.emplace_back(tok, e.seat);
        break;
      }
      case E_GIVE: {
        std::vector<int> toks;
        for (int i = 0; i < e.n; ++i) {
          toks.push_back(take(e.seat, e.shown ? e.kinds[(size_t)i] : -1));
          went(W_HAND, e.other);
        }
        for (int t : toks) hands[(size_t)e.other].push_back(t);
        break;
      }
      case E_REVEAL: {
        std::vector<int> taken;
        for (size_t i = 0; i < e.kinds.size(); ++i) {
          if (draw.empty()) throw Contradiction{};
          taken.push_back(draw.back());
          draw.pop_back();
        }
        for (size_t i = 0; i < taken.size(); ++i) fix(taken[i], e.kinds[i]);
        oracle = taken;
        for (int t : taken) moved[(size_t)t] = at;
        break;
      }
      case E_BACK: {
        std::vector<int> shown = oracle;
        auto pick = [&](int k) {
          for (size_t p = 0; p < shown.size(); ++p)
            if (kind[(size_t)shown[p]] == k) return pop_at(shown, p);
          throw Contradiction{};
        };
        const int out = pick(e.k);
        std::vector<int> back;
        for (int k : e.kinds) back.push_back(pick(k));
        oracle.clear();
        discard.emplace_back(out, e.seat);
        for (auto it = back.rbegin(); it != back.rend(); ++it) draw.push_back(*it);
        moved[(size_t)out] = at;
        for (int t : back) moved[(size_t)t] = at;
        break;
      }
      default: {  // E_UNDER_DRAW, E_UNDER_DISCARD
        std::vector<int> block = hands[(size_t)e.seat];
        if ((int)block.size() != e.n) throw Contradiction{};
        rng.shuffle(block.data(), (int)block.size());
        for (int t : block) moved[(size_t)t] = at;
        hands[(size_t)e.seat].clear();
        if (e.type == E_UNDER_DRAW) {
          draw.insert(draw.begin(), block.rbegin(), block.rend());
        } else {
          std::vector<std::pair<int, int>> under;
          for (auto it = block.rbegin(); it != block.rend(); ++it) under.emplace_back(*it, e.seat);
          discard.insert(discard.begin(), under.begin(), under.end());
        }
        break;
      }
    }
  }

  void finish() {
    std::vector<int> opened, rest;
    for (size_t t = 0; t < kind.size(); ++t)
      if (kind[t] == OPEN) opened.push_back((int)t);
    for (size_t k = 0; k < pool.size(); ++k)
      for (int i = 0; i < pool[k]; ++i) rest.push_back((int)k);
    if (rest.size() != opened.size()) throw Contradiction{};
    rng.shuffle(rest.data(), (int)rest.size());
    for (size_t i = 0; i < opened.size(); ++i) kind[(size_t)opened[i]] = rest[i];
  }
};

// The state of a finished replay (the rest of the view's public position with it).
LgState build(const LgGame& g, const LgView& v, const Replay& r, uint64_t seed) {
  LgState s;
  s.ncards = (int)r.kind.size() + v.aside;
  if (s.ncards > MAX_CARDS) throw std::invalid_argument("view: more cards than the native twin holds");
  for (size_t i = 0; i < r.kind.size(); ++i) s.kind[i] = (uint8_t)r.kind[i];
  for (int i = 0; i < v.aside; ++i) s.kind[r.kind.size() + (size_t)i] = (uint8_t)g.di;
  s.aside = v.aside;
  for (int p = 0; p < g.seats; ++p) {
    const auto& h = r.hands[(size_t)p];
    if (h.size() > (size_t)MAX_HAND) throw std::invalid_argument("view: a hand over 16 cards");
    s.hn[p] = (uint8_t)h.size();
    for (size_t i = 0; i < h.size(); ++i) s.hand[p][i] = (uint8_t)h[i];
  }
  s.dn = (int)r.draw.size();
  for (size_t i = 0; i < r.draw.size(); ++i) s.draw[i] = (uint8_t)r.draw[i];
  s.discn = (int)r.discard.size();
  for (size_t i = 0; i < r.discard.size(); ++i) s.disc_inst[i] = (uint8_t)r.discard[i].first, s.disc_by[i] = (uint8_t)r.discard[i].second;
  s.on = (int)r.oracle.size();
  for (size_t i = 0; i < r.oracle.size(); ++i) s.oracle[i] = (uint8_t)r.oracle[i];
  std::vector<int> md = v.monster_deck_left;
  SplitMix64(mix_seed(seed, 0x3D)).shuffle(md.data(), (int)md.size());
  s.mdn = (int)md.size();
  for (size_t i = 0; i < md.size(); ++i) s.mdeck[i] = (uint8_t)md[i];
  s.nmon = (int)v.monsters.size();
  for (size_t i = 0; i < v.monsters.size(); ++i) {
    const LgMonsterView& mv = v.monsters[i];
    Monster& m = s.mon[i];
    m.id = (uint8_t)mv.id;
    m.size = (uint8_t)mv.size;
    m.final_ = mv.final_;
    m.defeated = mv.defeated;
    m.ncards = (uint8_t)mv.cards.size();
    for (size_t j = 0; j < mv.cards.size(); ++j) m.cards[j] = (uint8_t)mv.cards[j];
    for (size_t a = 0; a < mv.req.size(); ++a) m.req[a] = (uint8_t)mv.req[a];
    const auto& toks = r.played[i];
    m.nplayed = (uint8_t)std::min(toks.size(), mv.played.size());
    for (int j = 0; j < m.nplayed; ++j) {
      const auto& p = mv.played[(size_t)j];
      m.played[j] = Played{(uint8_t)toks[(size_t)j], (int8_t)p[0], (uint8_t)p[1], (uint8_t)p[2]};
      if (p[0] >= 0) ++m.cnt[p[0]];
    }
  }
  for (int p = 0; p < g.seats; ++p) s.disc[p] = (int8_t)v.disc[(size_t)p], s.broken[p] = v.broken[(size_t)p];
  s.turn = v.turn;
  s.turn_seat = v.turn_seat;
  s.pending = (Pending)v.pending;
  s.actor = v.actor;
  s.placed = v.placed;
  s.giver = v.giver;
  s.forced = v.forced;
  s.af_set = v.af_set;
  s.af_slay = v.af_slay;
  s.af_defeat = v.af_defeat;
  s.normals_entered = v.normals_entered;
  s.normals_defeated = v.normals_defeated;
  s.finals_defeated = v.finals_defeated;
  s.result = (Result)v.result;
  s.reason = (Reason)v.reason;
  return s;
}

// The rejection draw: up to ATTEMPTS replays from sub-seeds of `seed` (sampler._rejection).
bool rejection(const LgGame& g, const LgView& v, uint64_t seed, LgState* out) {
  for (int attempt = 0; attempt < ATTEMPTS; ++attempt) {
    const Mode mode = attempt < UNIFORM_ATTEMPTS ? M_UNIFORM : MODES[attempt % 4];
    Replay r(g, v, mix_seed(seed, (uint64_t)attempt), mode);
    try {
      for (size_t at = 0; at < v.log.size(); ++at) {
        r.at = (int)at;
        r.step(v.log[at]);
      }
      r.finish();
    } catch (const Contradiction&) {
      continue;
    }
    if (out) *out = build(g, v, r, seed);
    return true;
  }
  return false;
}

// sampler.pile_needs: the kinds the seat later sees of cards that left a hand unseen
// into a pile (a discard, a block slid under a pile).
Needs pile_needs(const LgView& v) {
  Needs needs;
  std::vector<std::pair<int, int>> draw((size_t)v.start_pile, {-1, 0}), discard;
  auto pop = [&](std::vector<std::pair<int, int>>& pile, int n, const std::vector<int>* kinds) {
    for (int i = 0; i < n; ++i) {
      const auto slot = pile.back();
      pile.pop_back();
      if (kinds && slot.first >= 0 && i < (int)kinds->size()) needs[slot] = (*kinds)[(size_t)i];
    }
  };
  for (size_t j = 0; j < v.log.size(); ++j) {
    const LgEvent& e = v.log[j];
    const int at = (int)j;
    if (e.type == E_DRAW || e.type == E_REVEAL) {
      const int n = e.type == E_DRAW ? e.n : (int)e.kinds.size();
      if ((int)draw.size() < n) break;  // more cards than the pile holds: the replay refuses the view
      pop(draw, n, e.type == E_REVEAL || e.shown ? &e.kinds : nullptr);
    } else if (e.type == E_BACK) {
      discard.push_back({-1, 0});
      draw.insert(draw.end(), e.kinds.size(), {-1, 0});
    } else if (e.type == E_DISCARD) {
      discard.push_back(e.k < 0 ? std::make_pair(at, 0) : std::make_pair(-1, 0));
    } else if (e.type == E_TAKE_DISCARD) {
      if ((int)discard.size() < e.n) break;
      pop(discard, e.n, e.shown ? &e.kinds : nullptr);
    } else if (e.type == E_UNDER_DRAW || e.type == E_UNDER_DISCARD) {
      auto& pile = e.type == E_UNDER_DRAW ? draw : discard;
      std::vector<std::pair<int, int>> block;
      for (int q = e.n - 1; q >= 0; --q) block.push_back({at, q});
      pile.insert(pile.begin(), block.begin(), block.end());
    }
  }
  return needs;
}

// The fitted draw (sampler.fitted_replay): depth-first searches over _Fitted's choices,
// each replay from the start; a state whose every option failed is cut when met again; a
// search that finds nothing in RUNS replays starts again from the next sub-seed.
// 1: found (into *out), 0: no world fits the view, -1: the searches ran out.
int fitted(const LgGame& g, const LgView& v, uint64_t seed, LgState* out) {
  Fit fit;
  fit.needs = pile_needs(v);
  fit.touch.resize((size_t)g.seats);
  for (size_t j = 0; j < v.log.size(); ++j) {
    const LgEvent& e = v.log[j];
    if (e.type == E_REVEAL || e.type == E_BACK) continue;
    fit.touch[(size_t)e.seat].push_back((int)j);
    if (e.type == E_GIVE && e.other != e.seat) fit.touch[(size_t)e.other].push_back((int)j);
  }
  for (int restart = 0; restart < RESTARTS; ++restart) {
    fit.prefix.clear();
    for (int run = 0; run < RUNS; ++run) {
      Replay r(g, v, mix_seed(seed, FITTED + (uint64_t)restart), M_UNIFORM);
      r.fit = &fit;
      r.log = &v.log;
      try {
        for (size_t at = 0; at < v.log.size(); ++at) {
          r.at = (int)at;
          r.step(v.log[at]);
        }
        r.at = (int)v.log.size();
        r.finish();
        if (out) *out = build(g, v, r, seed);
        return 1;
      } catch (const Contradiction&) {
      }
      std::vector<int> chosen(r.trail.size(), 0);
      for (size_t j = 0; j < chosen.size() && j < fit.prefix.size(); ++j) chosen[j] = fit.prefix[j];
      bool moved_on = false;
      for (size_t j = r.trail.size(); j-- > 0;) {
        if (chosen[j] + 1 < r.trail[j].first) {
          fit.prefix.assign(chosen.begin(), chosen.begin() + (long)j);
          fit.prefix.push_back(chosen[j] + 1);
          moved_on = true;
          break;
        }
        fit.failed.insert(r.trail[j].second);
      }
      if (!moved_on) return 0;  // every choice tried: no world fits the view
    }
  }
  return -1;
}

void fitted_or_throw(const LgGame& g, const LgView& v, uint64_t seed, LgState* out) {
  const int found = fitted(g, v, seed, out);
  if (found == 1) return;
  throw std::runtime_error("no determinization found for p" + std::to_string(v.seat + 1) +
                           (found == 0 ? std::string(": no world is consistent with the view")
                                       : ": the fitted draw found no world in " + std::to_string(RESTARTS) +
                                             " searches of " + std::to_string(RUNS) + " replays"));
}

}  // namespace

bool tight(const LgGame& g, const LgView& v) {
  int known = v.tight.load();
  if (known < 0) {
    known = rejection(g, v, 0, nullptr) ? 0 : 1;
    v.tight.store(known);
  }
  return known == 1;
}

LgState sample(const LgGame& g, const LgView& v, uint64_t seed, SampleHow how) {
  LgState s;
  if (how == SAMPLE_FITTED) {
    fitted_or_throw(g, v, seed, &s);
    return s;
  }
  if (how == SAMPLE_REJECTION) {
    if (!rejection(g, v, seed, &s))
      throw std::runtime_error("no determinization found for p" + std::to_string(v.seat + 1) + " in " +
                               std::to_string(ATTEMPTS) + " attempts");
    return s;
  }
  if (!tight(g, v) && rejection(g, v, seed, &s)) return s;
  fitted_or_throw(g, v, seed, &s);
  return s;
}

void LgView::check(const LgGame& g) const {
  auto need = [](bool ok, const char* why) {
    if (!ok) throw std::invalid_argument(std::string("view: ") + why);
  };
  need(seat >= 0 && seat < g.seats, "seat out of range");
  need((int)start_hands.size() == g.seats, "start_hands needs one size per seat");
  int total = start_pile + aside;
  for (int h : start_hands) {
    need(h >= 0 && h <= MAX_HAND, "start hand size out of range");
    total += h;
  }
  need(start_pile >= 0 && aside >= 0 && total <= MAX_CARDS, "more cards than the native twin holds");
  need((int)own_start.size() == start_hands[(size_t)seat], "own_start must be the seat's start hand");
  for (int k : own_start) need(k >= 0 && k < g.kinds, "own_start kind out of range");
  need((int)disc.size() == g.seats && (int)broken.size() == g.seats, "disc and broken need one entry per seat");
  need(monsters.size() <= (size_t)MAX_MONSTERS, "too many monsters");
  for (int d : disc) need(d >= -1 && d < (int)monsters.size(), "disc out of range");
  for (const auto& m : monsters) {
    need(m.size >= 1 && m.size <= MAX_PLAYED && m.played.size() <= (size_t)m.size, "monster size out of range");
    need(m.cards.size() <= 3 && (int)m.req.size() == g.attrs, "monster cards / requirement malformed");
    for (int c : m.cards) need(c >= 0 && c < (int)g.monster_attrs.size(), "monster card out of range");
    for (const auto& p : m.played)
      need(p[0] >= -1 && p[0] < g.attrs && p[1] >= 0 && p[1] <= F_SIDEWAYS && p[2] >= 0 && p[2] < g.seats,
           "played card malformed");
  }
  need(monster_deck_left.size() <= (size_t)MAX_MONSTERS, "monster deck too long");
  for (int c : monster_deck_left) need(c >= 0 && c < (int)g.monster_attrs.size(), "monster deck card out of range");
  need(pending >= P_PLACE && pending <= P_NONE && result >= R_NONE && result <= R_LOST &&
       reason >= W_NONE && reason <= W_FINAL_DEFEATED, "pending / result / reason out of range");
  need(actor >= -1 && actor < g.seats && turn_seat >= 0 && turn_seat < g.seats, "actor / turn seat out of range");
  for (const auto& e : log) {
    need(e.type >= E_DRAW && e.type <= E_TAKE_DISCARD, "log: unknown event");
    need(e.seat >= 0 && e.seat < g.seats, "log: seat out of range");
    need(e.n >= 0 && e.n <= MAX_CARDS, "log: count out of range");
    if (e.type == E_GIVE) need(e.other >= 0 && e.other < g.seats, "log: receiver out of range");
    if (e.type == E_PLAY) need(e.mon >= 0 && e.mon < (int)monsters.size(), "log: monster out of range");
    if (e.type == E_PLAY || e.type == E_DISCARD || e.type == E_BACK) need(e.k >= -1 && e.k < g.kinds, "log: kind out of range");
    if (e.type == E_BACK) need(e.k >= 0, "log: the Oracle's discard is shown");
    for (int k : e.kinds) need(k >= 0 && k < g.kinds, "log: kind out of range");
    if (e.shown) need((int)e.kinds.size() == e.n, "log: shown kinds must match the count");
    need(e.kinds.size() <= (size_t)MAX_CARDS, "log: too many kinds");
  }
  need(log.size() <= 1000000, "log too long");
  need(history.size() <= 1000000, "history too long");
  for (const auto& h : history) {
    need(h.seat >= 0 && h.seat < g.seats, "history: seat out of range");
    need(h.pending >= P_PLACE && h.pending < P_CHANCE, "history: pending out of range");
    need(h.obs >= 0 && h.obs < observation_limit(g), "history: action out of range");
  }
}

}  // namespace hzn::lg
