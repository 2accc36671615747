// The light playout policy of the Legends twin: the heuristic of
// hzai/games/legends/heuristic.py, port of its scores term for term (the same weights,
// read from Python; the same order of the arithmetic, so the scores are equal to the
// last bit and so are the ties). tests/native/test_legends_light.py holds them equal.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "legends.hpp"

namespace hzn::lg {

namespace {

// A card kind's use: for each monster in play whose requirement holds it, use_short
// while it is short, else use_has; a DI use_di.
double use(const LgGame& g, const LgState& s, int k) {
  if (k == g.di) return g.weight[W_USE_DI];
  double u = 0.0;
  for (int i = 0; i < s.nmon; ++i) {
    const Monster& m = s.mon[i];
    if (m.defeated || !m.req[k]) continue;
    u += m.cnt[k] < m.req[k] ? g.weight[W_USE_SHORT] : g.weight[W_USE_HAS];
  }
  return u;
}

// How many of the monster's short attributes the hand (kind counts) holds a card of.
double missing_filled(const LgGame& g, const Monster& m, const int* c) {
  double n = 0.0;
  for (int a = 0; a < g.attrs; ++a)
    if (m.cnt[a] < m.req[a] && c[a] > 0) n += 1.0;
  return n;
}

}  // namespace

void light_scores(const LgGame& g, const LgState& s, const int* actions, int n, double* scores) {
  const double* w = g.weight;
  const int seat = s.actor;
  int c[MAX_ATTR + 1] = {};
  for (int i = 0; i < s.hn[seat]; ++i) ++c[s.kind[s.hand[seat][i]]];
  const Monster* own = s.disc[seat] >= 0 ? &s.mon[s.disc[seat]] : nullptr;
  for (int i = 0; i < n; ++i) {
    const int b = block_of(g, actions[i]);
    const int x = actions[i] - g.base[b];
    double score = 0.0;
    switch (b) {
      case B_FIGHT: case B_WILD: case B_ABILITY: {
        const int attr = b == B_ABILITY ? g.hero_attr[(size_t)seat] : x;
        score = own->cnt[attr] < own->req[attr] ? w[W_FILL] : w[W_FIT];
        if (own->nplayed + 1 == own->size) score += w[W_DEFEAT];
        if (b == B_WILD) {
          score -= w[W_WILD_COST];
        } else if (b == B_ABILITY) {
          score -= w[W_ABILITY_COST];
          score -= use(g, s, x) / w[W_ABILITY_USE_DIV];
        }
        break;
      }
      case B_SLAY: score = w[W_SLAY]; break;
      case B_MOVE: {
        const Monster& dest = s.mon[x / (g.kinds + 1)];
        const int card = x % (g.kinds + 1) - 1;  // -1: a free move
        if (card >= 0) --c[card];
        score = w[W_MOVE_FILL] * missing_filled(g, dest, c);
        if (card >= 0) {
          ++c[card];
          score -= use(g, s, card) / w[W_MOVE_USE_DIV];
        }
        if (own && own->defeated) score += w[W_LEAVE_STRANDED];
        break;
      }
      case B_RECOVER:
        score = w[W_RECOVER_MISSING] * std::max(0, HAND - s.hn[seat] - 1) + w[W_RECOVER_DRAWN] * x;
        break;
      case B_DISCARD: {
        double sum = 0.0;
        for (int k : g.multisets[(size_t)x]) sum += use(g, s, k);
        score = -sum;
        break;
      }
      case B_ORACLE_BACK: {
        int ks[MAX_ORDER];
        const int r = unseq(g, x % g.seq_count, ks);
        score = -use(g, s, x / g.seq_count);
        double back = 0.0;
        for (int j = 0; j < r; ++j) back += use(g, s, ks[j]) / (j + 1);
        score += back / w[W_ORDER_DIV];
        break;
      }
      case B_SUPPORT: {
        const int per = (int)g.multisets.size();
        score = s.hn[x / per] <= w[W_SUPPORT_LOW_HAND] ? w[W_SUPPORT_LOW] : 0.0;
        score -= (double)g.multisets[(size_t)(x % per)].size() * w[W_SUPPORT_PER_CARD];
        break;
      }
      case B_ORACLE: score = w[W_ORACLE]; break;
      case B_PLACE: score = missing_filled(g, s.mon[x], c); break;
      default: break;
    }
    scores[i] = score;
  }
}

int light_choice(const LgGame& g, const LgState& s, SplitMix64& rng) {
  static thread_local std::vector<int> buf;
  static thread_local std::vector<double> scores;
  buf.resize((size_t)g.max_legal);
  scores.resize((size_t)g.max_legal);
  const int n = legal_actions(g, s, buf.data());
  if (n <= 0) throw std::logic_error("no legal move in a running game");
  light_scores(g, s, buf.data(), n, scores.data());
  double best = scores[0];
  for (int i = 1; i < n; ++i) best = std::max(best, scores[(size_t)i]);
  int ties = 0;
  for (int i = 0; i < n; ++i)
    if (scores[(size_t)i] == best) buf[(size_t)ties++] = buf[(size_t)i];
  return buf[(size_t)rng.below((uint64_t)ties)];
}

void light_step(const LgGame& g, LgState& s, SplitMix64& rng) {
  if (s.pending == P_CHANCE) {
    apply(g, s, sample_chance(g, s, rng));
    return;
  }
  apply(g, s, light_choice(g, s, rng));
}

}  // namespace hzn::lg
