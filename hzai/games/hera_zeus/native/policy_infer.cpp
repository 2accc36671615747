// Policy-based inference: see policy_infer.hpp and docs/learning.md.
#include "policy_infer.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "hz_learn.hpp"
#include "knowledge.hpp"
#include "search/playout.hpp"

namespace hzn {

namespace {

// Where each card of the opponent `q` lies in `s`: 0 elsewhere (public), 1 its hand,
// 2 its deck, 3 its field (slot in c, r).
struct Where {
  int8_t zone = 0, c = -1, r = -1;
};

std::vector<Where> locate(const GameDef& g, const State& s, int q) {
  std::vector<Where> out((size_t)g.n_cards);
  s.hand[q].each([&](int id) { out[(size_t)id].zone = 1; });
  for (int k = 0; k < s.deck_len[q]; ++k) out[(size_t)s.deck[q][s.deck_head[q] + k]].zone = 2;
  for (int c = 0; c < COLUMNS; ++c)
    for (int r = 0; r < s.col_len[q][c]; ++r) {
      const int id = s.col[q][c][r];
      if (id != FIGURE) out[(size_t)id] = Where{3, (int8_t)c, (int8_t)r};
    }
  return out;
}

int16_t code_of(const GameDef& g, int id) { return (int16_t)(g.cards[(size_t)id].name * 2 + g.cards[(size_t)id].owner); }

// The name of `t` in world `w` (-1: w does not hold an opponent's card there).
int target_name(const GameDef& g, const PbiTarget& t, const State& w, int q) {
  if (t.c < 0) return t.code / 2;
  if (t.r >= w.col_len[q][t.c]) return -1;
  const int id = w.col[q][t.c][t.r];
  if (id == FIGURE || g.cards[(size_t)id].owner != q) return -1;
  return g.cards[(size_t)id].name;
}

}  // namespace

PbiEvidence pbi_evidence(const GameDef& g, const State& start, const std::vector<int>& actions, int seat,
                         int max_decisions) {
  if (seat < 0 || seat > 1) throw std::invalid_argument("seat must be 0 or 1");
  if (max_decisions < 0) throw std::invalid_argument("max_decisions must be >= 0");
  const int q = 1 - seat;
  PbiEvidence ev;
  ev.seat = seat;
  ev.opponent = q;
  Knowledge kq(g, q);  // what the opponent knew: its view of the seat's cards, its history
  kq.dealt(start);
  struct Candidate {
    State before;
    ViewSpec view;
    int action;
    std::vector<int> left;  // the opponent's cards that left its hand by the move
  };
  std::vector<Candidate> cands;
  State s = start;
  EventLog log;
  for (size_t i = 0; i < actions.size(); ++i) {
    const int a = actions[i];
    const bool chance_due = s.n_pending && s.pending[0].kind == PD_CHANCE;
    if (a < 0 || a >= g.total_actions() || s.phase == PH_OVER || (g.kind_of(a) == A_CHANCE) != chance_due ||
        !is_legal(g, s, a))
      throw std::invalid_argument("pbi evidence: action " + std::to_string(i) + " is not legal where it stands");
    const bool scored = !chance_due && s.to_move == q && s.n_pending == 0;
    if (scored) {
      ++ev.opponent_decisions;
      cands.push_back(Candidate{s, kq.spec(s), a, {}});
    }
    log.clear();
    {
      EventCapture capture(&log);
      apply_action(g, s, a);
    }
    bool gained = false;
    for (const Event& e : log) {
      kq.observe(e);
      if (e.kind == EV_MOVE && e.dst_zone == Z_HAND && e.dst_p == q) gained = true;
    }
    if (scored) {
      Candidate& c = cands.back();
      c.before.hand[q].each([&](int id) {
        if (!s.hand[q].test(id)) c.left.push_back(id);
      });
    }
    if (gained) cands.clear();  // its hand then is no longer its hand now plus what left it
  }
  if ((int)cands.size() > max_decisions) cands.erase(cands.begin(), cands.end() - max_decisions);

  const std::vector<Where> now = locate(g, s, q);
  auto target_of = [&](int id, PbiTarget& t) {  // false: not followable (in the hand or deck)
    const Where& w = now[(size_t)id];
    if (w.zone == 1 || w.zone == 2) return false;
    t = PbiTarget();
    if (w.zone == 3) {
      t.c = w.c;
      t.r = w.r;
    } else {
      t.code = code_of(g, id);
    }
    return true;
  };
  for (Candidate& cand : cands) {
    PbiDecision d;
    const State& b = cand.before;
    d.turn = b.turn;
    d.kind = g.kind_of(cand.action);
    bool ok = true;
    std::vector<int> lost_ids;
    b.hand[q].each([&](int id) {
      if (g.cards[(size_t)id].owner != q) return;  // the seat's own card (Sirens): known to both
      if (now[(size_t)id].zone == 1) {
        ++d.hand_kept;
        return;
      }
      PbiTarget t;
      if (!target_of(id, t)) {
        ok = false;
        return;
      }
      lost_ids.push_back(id);
      d.hand_lost.push_back(t);
    });
    std::vector<int> mapped_slots;
    for (int c = 0; c < COLUMNS && ok; ++c)
      for (int r = 0; r < b.col_len[q][c]; ++r) {
        const int id = b.col[q][c][r];
        if (id == FIGURE || g.cards[(size_t)id].owner != q || b.face_up.test(id)) continue;
        PbiTarget t;
        if (!target_of(id, t)) {
          ok = false;
          break;
        }
        d.field.emplace_back(c * DEPTH + r, t);
        mapped_slots.push_back(c * DEPTH + r);
      }
    if (!ok) continue;
    // the observed move: public, or a face-down play / setup rebuilt from W's names
    auto lost_index = [&](int id) {
      for (size_t k = 0; k < lost_ids.size(); ++k)
        if (lost_ids[k] == id) return (int)k;
      return -1;
    };
    const int i = cand.action - g.offset[d.kind];
    if (d.kind == A_PLAY && cand.left.size() == 1 && g.cards[(size_t)cand.left[0]].owner == q) {
      d.play_slot = i % 12;
      d.played = lost_index(cand.left[0]);
      if (d.played < 0) continue;
    } else if (d.kind == A_SETUP) {
      d.setup_played.assign(COLUMNS, -1);
      State after = b;  // where each setup card went: r1 of its column at the move's end
      apply_action(g, after, cand.action);
      for (int id : cand.left) {
        int col = -1;
        for (int c = 0; c < COLUMNS; ++c)
          if (after.col_len[q][c] > 0 && after.col[q][c][0] == id) col = c;
        const int k = lost_index(id);
        if (col < 0 || k < 0) {
          ok = false;
          break;
        }
        d.setup_played[(size_t)col] = k;
      }
      if (!ok) continue;
    } else {
      d.action = cand.action;  // public: the seat saw the move itself
    }
    // the private parts blanked: the opponent's own hidden cards are rebuilt in each world
    d.skeleton = b;
    State& sk = d.skeleton;
    std::vector<int16_t> free_ids;
    for (int id : lost_ids) free_ids.push_back((int16_t)id);
    b.hand[q].each([&](int id) {
      if (g.cards[(size_t)id].owner == q && now[(size_t)id].zone == 1) free_ids.push_back((int16_t)id);
    });
    for (int slot : mapped_slots) free_ids.push_back((int16_t)b.col[q][slot / DEPTH][slot % DEPTH]);
    for (int k = 0; k < b.deck_len[q]; ++k) free_ids.push_back((int16_t)b.deck[q][b.deck_head[q] + k]);
    std::sort(free_ids.begin(), free_ids.end(), [&](int16_t a, int16_t b) {
      const int na = g.cards[(size_t)a].name, nb = g.cards[(size_t)b].name;
      return na != nb ? na < nb : a < b;
    });
    d.free_ids = free_ids;
    d.name_start.assign((size_t)g.n_names + 1, 0);
    for (int16_t id : free_ids) ++d.name_start[(size_t)g.cards[(size_t)id].name + 1];
    for (int name = 0; name < g.n_names; ++name) d.name_start[(size_t)name + 1] += d.name_start[(size_t)name];
    for (int16_t id : free_ids) {
      sk.hand[q].reset(id);
      sk.face_up.reset(id);
    }
    for (int slot : mapped_slots) sk.col[q][slot / DEPTH][slot % DEPTH] = (int8_t)free_ids[0];
    for (int k = 0; k < sk.deck_len[q]; ++k) sk.deck[q][sk.deck_head[q] + k] = (uint8_t)free_ids[0];
    d.view = std::move(cand.view);
    ViewSpec& v = d.view;
    v.hands[(size_t)q].clear();
    for (int slot : mapped_slots) {
      ViewSlot& vs = v.columns[(size_t)q][(size_t)(slot / DEPTH)][(size_t)(slot % DEPTH)];
      vs.kind = SL_KNOWN;
      vs.code = -1;
      vs.face_up = false;
    }
    v.pools[0].clear();
    v.pools[1].clear();
    v.inference = Inference();
    ev.decisions.push_back(std::move(d));
  }
  return ev;
}

void check_pbi_options(const PbiOptions& o) {
  if (!(o.temperature >= PBI_MIN_TEMPERATURE && o.temperature <= PBI_MAX_TEMPERATURE))
    throw std::invalid_argument("pbi temperature must be within 0.1..10");
  if (!(o.epsilon >= PBI_MIN_EPSILON && o.epsilon <= PBI_MAX_EPSILON))
    throw std::invalid_argument("pbi epsilon must be within 0.01..1");
  if (o.threads < 1 || o.threads > 256) throw std::invalid_argument("pbi threads must be within 1..256");
}

namespace {

// One decision in one world: the names of the opponent's cards it held (its hand kept
// and lost, then its mapped field cards); false when the world does not fit.
bool names_in(const GameDef& g, const PbiDecision& d, int q, const State& w, std::vector<int16_t>& out) {
  out.clear();
  int kept = 0;
  w.hand[q].each([&](int id) {
    if (g.cards[(size_t)id].owner == q) {
      out.push_back(g.cards[(size_t)id].name);
      ++kept;
    }
  });
  if (kept != d.hand_kept) return false;
  std::sort(out.begin(), out.end());
  for (const PbiTarget& t : d.hand_lost) {
    const int n = target_name(g, t, w, q);
    if (n < 0) return false;
    out.push_back((int16_t)n);
  }
  for (const auto& f : d.field) {
    const int n = target_name(g, f.second, w, q);
    if (n < 0) return false;
    out.push_back((int16_t)n);
  }
  return true;
}

// The opponent's view at a decision, as the policy net reads it, splits in two: what is
// the same in every world (its view with its hand and mapped field slots blank: the
// seat's cards as it knew them, the public table, its history) and what a world sets
// (its hand's cards and its mapped face-down cards). The first layer's sum over the
// common features is made once a decision (`Common`); each world adds its own rows.
struct Common {
  std::vector<float> acc;  // the first trunk layer's pre-activation over the common features
};

Common common_of(const GameDef& g, const HzModel& m, const PbiDecision& d) {
  int32_t idx[MAX_FEATURES];
  int n = view_features(g, d.view, idx);
  while (n > 0 && idx[n - 1] >= m.policy.n_in) --n;  // a net of the table's features alone
  const learn::Layer& first = m.policy.trunk[0];
  Common c;
  c.acc = first.b;
  for (int k = 0; k < n; ++k) {
    const float* row = first.w.data() + (size_t)idx[k] * first.out;
    for (int o = 0; o < first.out; ++o) c.acc[(size_t)o] += row[o];
  }
  return c;
}

// The features a world adds to the common ones (hz_learn.cpp's encoding of a hand card
// and of a field token): the opponent's hand by code, its mapped slots' cards.
int world_features(const GameDef& g, const PbiDecision& d, int q, const State& s, int32_t* out) {
  const FeatureLayout L(g);
  int n = 0;
  int count[MAX_CARDS] = {};
  s.hand[q].each([&](int id) { ++count[code_of(g, id)]; });
  for (int code = 0; code < L.codes; ++code)
    for (int k = 0; k < std::min(count[code], MAX_COPIES); ++k) out[n++] = L.hand + (q * L.codes + code) * MAX_COPIES + k;
  const int tokens = L.codes + 2;
  for (const auto& f : d.field) {
    const int c = f.first / DEPTH, r = f.first % DEPTH;
    out[n++] = L.field + ((q * COLUMNS + c) * DEPTH + r) * tokens + code_of(g, s.col[q][c][r]);
  }
  return n;
}

// The opponent's view at decision `d` in the world whose cards `s` holds (the slow way:
// a whole view, encoded; the tests hold the fast way equal to it).
ViewSpec world_view(const GameDef& g, const PbiDecision& d, int q, const State& s) {
  ViewSpec v = d.view;
  auto& hand = v.hands[(size_t)q];
  s.hand[q].each([&](int id) {
    ViewSlot slot;
    slot.kind = SL_KNOWN;
    slot.code = code_of(g, id);
    hand.push_back(slot);
  });
  for (const auto& f : d.field) {
    const int c = f.first / DEPTH, r = f.first % DEPTH;
    v.columns[(size_t)q][(size_t)c][(size_t)r].code = code_of(g, s.col[q][c][r]);
  }
  return v;
}

// Decision `d`'s state at t with the opponent holding `names` (names_in's order): its
// hand, mapped field cards and deck rebuilt from the names alone; false when they do
// not fit. `lost` gets the names of the cards that left its hand since.
bool rebuild(const GameDef& g, const PbiDecision& d, int q, const std::vector<int16_t>& names, State& s,
             std::vector<int16_t>& lost) {
  s = d.skeleton;
  int used[MAX_CARDS] = {};  // ids taken of each name, from the lowest up
  const size_t hand_n = (size_t)d.hand_kept + d.hand_lost.size();
  lost.assign(d.hand_lost.size(), -1);
  for (size_t k = 0; k < names.size(); ++k) {
    const int name = names[k];
    const int at = d.name_start[(size_t)name] + used[name];
    if (at >= d.name_start[(size_t)name + 1]) return false;
    ++used[name];
    const int id = d.free_ids[(size_t)at];
    if (k < hand_n) {
      s.hand[q].set(id);
      if (k >= (size_t)d.hand_kept) lost[k - (size_t)d.hand_kept] = names[k];
    } else {
      const int slot = d.field[k - hand_n].first;
      s.col[q][slot / DEPTH][slot % DEPTH] = (int8_t)id;
    }
  }
  int k = 0;
  for (int name = 0; name < g.n_names; ++name)
    for (int at = d.name_start[(size_t)name] + used[name]; at < d.name_start[(size_t)name + 1]; ++at) {
      if (k >= s.deck_len[q]) return false;
      s.deck[q][s.deck_head[q] + k++] = (uint8_t)d.free_ids[(size_t)at];
    }
  return k == s.deck_len[q] && s.to_move == q;
}

// The index in `legal` of the observed move as the rebuilt state writes it, or -1.
int observed(const GameDef& g, const PbiDecision& d, int q, const State& s, const std::vector<int16_t>& lost,
             const int* legal, int n) {
  if (d.kind == A_PLAY && d.action < 0) {
    const int want = lost[(size_t)d.played];
    for (int j = 0; j < n; ++j) {
      if (g.kind_of(legal[j]) != A_PLAY) continue;
      const int i = legal[j] - g.offset[A_PLAY];
      if (i % 12 != d.play_slot) continue;
      const int card = card_in_hand(g, i / 12, s.hand[q], q);
      if (card >= 0 && g.cards[(size_t)card].owner == q && g.cards[(size_t)card].name == want) return j;
    }
    return -1;
  }
  int want = d.action;
  if (d.kind == A_SETUP) {
    const int b = g.n_names + 1;
    int parts[COLUMNS] = {0, 0, 0};
    for (int c = 0; c < COLUMNS; ++c)
      if (d.setup_played[(size_t)c] >= 0) parts[c] = lost[(size_t)d.setup_played[(size_t)c]] + 1;
    want = g.offset[A_SETUP] + (parts[0] * b + parts[1]) * b + parts[2];
  }
  for (int j = 0; j < n; ++j)
    if (legal[j] == want) return j;
  return -1;
}

// The log factor of decision `d` with the opponent holding `names`: log(n * p'(move)),
// p' = (1 - eps) * softmax(logits / T) + eps / n over its n legal moves in the world;
// NaN when the world does not admit the observed move.
double decision_factor(const GameDef& g, const HzModel& m, const PbiDecision& d, const Common& common, int q,
                       const std::vector<int16_t>& names, const PbiOptions& o) {
  State s;
  std::vector<int16_t> lost;
  if (!rebuild(g, d, q, names, s, lost)) return std::nan("");
  int legal[MAX_ACTIONS];
  const int n = legal_actions(g, s, legal);
  const int chosen = observed(g, d, q, s, lost, legal, n);
  if (chosen < 0 || n < 1) return std::nan("");
  // the trunk over the common sum and the world's own features (learn::Net::trunk_of)
  const learn::Net& net = m.policy;
  int32_t idx[MAX_FEATURES];
  const int k = world_features(g, d, q, s, idx);
  float a[learn::MAX_WIDTH], z[learn::MAX_WIDTH];
  const learn::Layer& first = net.trunk[0];
  std::copy(common.acc.begin(), common.acc.end(), a);
  for (int i = 0; i < k; ++i) {
    const float* row = first.w.data() + (size_t)idx[i] * first.out;
    for (int out = 0; out < first.out; ++out) a[out] += row[out];
  }
  int width = first.out;
  for (int out = 0; out < width; ++out) a[out] = a[out] > 0.0f ? a[out] : 0.0f;
  for (size_t li = 1; li < net.trunk.size(); ++li) {
    const learn::Layer& l = net.trunk[li];
    std::copy(l.b.begin(), l.b.end(), z);
    for (int i = 0; i < l.in; ++i) {
      const float x = a[i];
      if (x == 0.0f) continue;
      const float* row = l.w.data() + (size_t)i * l.out;
      for (int out = 0; out < l.out; ++out) z[out] += x * row[out];
    }
    width = l.out;
    for (int out = 0; out < width; ++out) a[out] = z[out] > 0.0f ? z[out] : 0.0f;
  }
  double logit[MAX_ACTIONS];
  double top = -1e300;
  for (int j = 0; j < n; ++j) top = std::max(top, logit[j] = net.head_at(0, a, legal[j]) / o.temperature);
  double sum = 0.0;
  for (int j = 0; j < n; ++j) sum += std::exp(logit[j] - top);
  const double pt = std::exp(logit[chosen] - top) / sum;
  const double ratio = std::log((1.0 - o.epsilon) * (double)n * pt + o.epsilon);
  return o.ratio ? ratio : ratio - std::log((double)n);
}

}  // namespace

PbiScores pbi_scores(const GameDef& g, const HzModel& m, const PbiEvidence& ev, const std::vector<State>& worlds,
                     const PbiOptions& o) {
  check_pbi_options(o);
  if (!m.has_policy) throw std::invalid_argument("policy-based inference needs a model with a policy net");
  PbiScores out;
  out.log_weight.assign(worlds.size(), 0.0);
  out.decisions = (int)ev.decisions.size();
  if (ev.decisions.empty() || worlds.empty()) return out;
  const int q = ev.opponent;
  // the distinct information sets (decision, names) first: each is evaluated once
  std::map<std::pair<int, std::vector<int16_t>>, int> index;
  std::vector<std::pair<int, std::vector<int16_t>>> keys;
  std::vector<std::vector<int>> of_world(worlds.size(), std::vector<int>(ev.decisions.size(), -1));
  std::vector<int16_t> names;
  for (size_t w = 0; w < worlds.size(); ++w)
    for (size_t k = 0; k < ev.decisions.size(); ++k) {
      if (!names_in(g, ev.decisions[k], q, worlds[w], names)) continue;
      auto key = std::make_pair((int)k, names);
      auto it = index.find(key);
      if (it == index.end()) {
        it = index.emplace(key, (int)keys.size()).first;
        keys.push_back(std::move(key));
      }
      of_world[w][k] = it->second;
    }
  std::vector<Common> common(ev.decisions.size());
  search::parallel_indices((long)ev.decisions.size(), o.threads, 1,
                           [&](long k) { common[(size_t)k] = common_of(g, m, ev.decisions[(size_t)k]); });
  std::vector<double> factor(keys.size(), 0.0);
  search::parallel_indices((long)keys.size(), o.threads, 8, [&](long i) {
    const int k = keys[(size_t)i].first;
    factor[(size_t)i] = decision_factor(g, m, ev.decisions[(size_t)k], common[(size_t)k], q, keys[(size_t)i].second, o);
  });
  out.evaluations = (long)keys.size();
  for (size_t w = 0; w < worlds.size(); ++w)
    for (size_t k = 0; k < ev.decisions.size(); ++k) {
      const int at = of_world[w][k];
      if (at < 0 || std::isnan(factor[(size_t)at])) {
        ++out.skipped;
        continue;
      }
      ++out.scored;
      out.log_weight[w] += factor[(size_t)at];
    }
  return out;
}

long pbi_feature_mismatches(const GameDef& g, const PbiEvidence& ev, const std::vector<State>& worlds) {
  long bad = 0;
  std::vector<int16_t> names, lost;
  const int q = ev.opponent;
  const FeatureLayout L(g);
  for (const State& w : worlds)
    for (const PbiDecision& d : ev.decisions) {
      State s;
      if (!names_in(g, d, q, w, names) || !rebuild(g, d, q, names, s, lost)) continue;
      int32_t full[MAX_FEATURES], common[MAX_FEATURES], own[MAX_FEATURES];
      const int nf = view_features(g, world_view(g, d, q, s), full);
      const int nc = view_features(g, d.view, common);
      const int no = world_features(g, d, q, s, own);
      std::vector<int32_t> fast(common, common + nc), slow(full, full + nf);
      fast.insert(fast.end(), own, own + no);
      std::sort(fast.begin(), fast.end());
      if (fast != slow) ++bad;
    }
  return bad;
}

std::vector<State> inference_pool(const GameDef& g, const ViewSpec& v) {
  ViewSpec plain = v;
  plain.inference.pool = 0;
  plain.inference.world_log_weight.clear();
  Sampler sampler(g, plain);
  SplitMix64 rng(v.inference.seed);
  std::vector<State> out;
  out.reserve((size_t)std::max(0, v.inference.pool));
  for (int i = 0; i < v.inference.pool; ++i) out.push_back(sampler.sample(g, rng));  // as Sampler::resample draws
  return out;
}

ViewSpec with_policy_inference(const GameDef& g, const HzModel& m, const ViewSpec& v, const PbiEvidence& ev,
                               int pool, uint64_t seed, const PbiOptions& o, PbiScores* scores) {
  check_pbi_options(o);
  if (pool < 1 || pool > 100000) throw std::invalid_argument("pool must be within 1..100000");
  if (v.to_move != ev.seat) throw std::invalid_argument("the evidence is not of the view's seat");
  ViewSpec out = v;
  if (out.inference.pool <= 0) {
    out.inference = Inference();
    out.inference.side = ev.opponent;
    out.inference.pool = pool;
    out.inference.seed = seed;
  }
  const std::vector<State> worlds = inference_pool(g, out);
  PbiScores s = pbi_scores(g, m, ev, worlds, o);
  out.inference.world_log_weight = s.log_weight;
  if (scores) *scores = std::move(s);
  return out;
}

}  // namespace hzn
