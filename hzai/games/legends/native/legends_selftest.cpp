// The Legends twin alone, for AddressSanitizer, UBSan and Valgrind runs
// (tests/native/test_legends_sanitizers.py, docs/native.md): random games from random
// deals with the state checked after every step (each card in one place, hands, discs),
// a copy applied alongside; then the sampler on the given views (every sample
// checked) and ISMCTS (on the given threads) and PIMC from each view that has a seat to
// decide. Input: the numbers hzai.games.legends.native.twin.selftest_lines writes.
//   legends_selftest SPEC GAMES SEED THREADS
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "legends.hpp"
#include "search/ismcts.hpp"
#include "search/pimc.hpp"

using namespace hzn;
using namespace hzn::lg;

namespace {

struct Reader {
  std::ifstream in;
  int next() {
    long x;
    if (!(in >> x)) throw std::runtime_error("spec file: a number is missing");
    return (int)x;
  }
  double real() {
    double x;
    if (!(in >> x)) throw std::runtime_error("spec file: a weight is missing");
    return x;
  }
  std::vector<int> list(int n) {
    if (n < 0 || n > 1000000) throw std::runtime_error("spec file: a bad count");
    std::vector<int> v((size_t)n);
    for (auto& x : v) x = next();
    return v;
  }
};

LgGame read_game(Reader& r) {
  LgGame g;
  g.attrs = r.next(), g.seats = r.next(), g.first = r.next(), g.turn_limit = r.next();
  g.free_relocation = r.next() != 0;
  g.aside = r.next();
  g.hero_attr = r.list(g.seats);
  g.deck = r.list(r.next());
  const int nm = r.next();
  for (int i = 0; i < nm; ++i) {
    const int a = r.next(), b = r.next();
    g.monster_attrs.push_back({a, b});
  }
  g.size_normal = r.next(), g.size_chimera = r.next(), g.size_hades = r.next();
  g.start = r.next(), g.finals = r.next();
  g.special = (Special)r.next();
  const int nt = r.next();
  for (int i = 0; i < nt; ++i) {
    const int k = r.next(), kind = r.next(), n = r.next();
    if (k < 1 || k > 1000) throw std::runtime_error("spec file: a bad trigger");
    if ((int)g.trigger.size() <= k) g.trigger.resize((size_t)k + 1, T_NONE), g.trigger_n.resize((size_t)k + 1, 0);
    g.trigger[(size_t)k] = (int8_t)kind, g.trigger_n[(size_t)k] = n;
  }
  for (int b = 0; b < B_COUNT; ++b) g.base[b] = r.next();
  g.size = r.next();
  const int nms = r.next();
  for (int i = 0; i < nms; ++i) g.multisets.push_back(r.list(r.next()));
  for (int i = 1; i <= MAX_ORDER; ++i) g.seq_base[i] = r.next();
  g.seq_count = r.next();
  for (double& w : g.weight) w = r.real();
  g.finish();
  return g;
}

LgView read_view(Reader& r, const LgGame& g) {
  LgView v;
  v.seat = r.next();
  v.own_start = r.list(r.next());
  v.start_hands = r.list(g.seats);
  v.start_pile = r.next();
  const int nl = r.next();
  for (int i = 0; i < nl; ++i) {
    LgEvent e;
    e.type = r.next(), e.seat = r.next(), e.other = r.next(), e.n = r.next(), e.mon = r.next(), e.face = r.next();
    e.k = r.next();
    e.shown = r.next() != 0;
    e.kinds = r.list(r.next());
    v.log.push_back(e);
  }
  const int nm = r.next();
  for (int i = 0; i < nm; ++i) {
    LgMonsterView m;
    m.id = r.next(), m.size = r.next();
    m.final_ = r.next() != 0, m.defeated = r.next() != 0;
    m.cards = r.list(r.next());
    m.req = r.list(g.attrs);
    const int np = r.next();
    for (int j = 0; j < np; ++j) {
      const int a = r.next(), f = r.next(), by = r.next();
      m.played.push_back({a, f, by});
    }
    v.monsters.push_back(m);
  }
  v.monster_deck_left = r.list(r.next());
  v.aside = r.next();
  v.disc = r.list(g.seats);
  for (int i = 0; i < g.seats; ++i) v.broken.push_back(r.next() != 0);
  v.turn = r.next(), v.turn_seat = r.next(), v.pending = r.next(), v.actor = r.next(), v.placed = r.next();
  v.giver = r.next();
  v.forced = r.next() != 0, v.af_set = r.next() != 0;
  v.af_defeat = r.next();
  v.af_slay = r.next() != 0;
  v.normals_entered = r.next(), v.normals_defeated = r.next(), v.finals_defeated = r.next();
  v.result = r.next(), v.reason = r.next();
  v.check(g);
  return v;
}

bool same(const LgGame& g, const LgState& a, const LgState& b) {
  if (a.dn != b.dn || a.discn != b.discn || a.on != b.on || a.nmon != b.nmon || a.pending != b.pending ||
      a.actor != b.actor || a.turn != b.turn || a.result != b.result || a.mdn != b.mdn)
    return false;
  for (int p = 0; p < g.seats; ++p)
    if (a.hn[p] != b.hn[p] || std::memcmp(a.hand[p], b.hand[p], a.hn[p]) != 0 || a.disc[p] != b.disc[p]) return false;
  if (std::memcmp(a.draw, b.draw, (size_t)a.dn) || std::memcmp(a.disc_inst, b.disc_inst, (size_t)a.discn)) return false;
  for (int i = 0; i < a.nmon; ++i)
    if (a.mon[i].nplayed != b.mon[i].nplayed || a.mon[i].defeated != b.mon[i].defeated) return false;
  return true;
}

// A start from a deal drawn with `rng` (as rules.new_table lays it out).
LgState deal(const LgGame& g, SplitMix64& rng) {
  LgState s;
  std::vector<int> mons(g.monster_attrs.size()), cards = g.deck;
  for (size_t i = 0; i < mons.size(); ++i) mons[i] = (int)i;
  rng.shuffle(mons.data(), (int)mons.size());
  rng.shuffle(cards.data(), (int)cards.size());
  s.ncards = (int)cards.size() + g.aside;
  for (size_t i = 0; i < cards.size(); ++i) s.kind[i] = (uint8_t)cards[i];
  for (int i = 0; i < g.aside; ++i) s.kind[cards.size() + (size_t)i] = (uint8_t)g.di;
  s.aside = g.aside;
  int at = 0;
  for (int p = 0; p < g.seats; ++p)
    for (int i = 0; i < HAND; ++i) s.hand[p][s.hn[p]++] = (uint8_t)at++;
  for (int i = (int)cards.size() - 1; i >= at; --i) s.draw[s.dn++] = (uint8_t)i;
  for (size_t i = 0; i < mons.size(); ++i) s.mdeck[s.mdn++] = (uint8_t)mons[i];
  for (int i = 0; i < g.start; ++i) enter(g, s, 0);
  s.pending = P_PLACE, s.actor = g.first, s.turn = 0;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: legends_selftest SPEC GAMES [SEED] [THREADS]\n");
    return 2;
  }
  try {
    Reader r{std::ifstream(argv[1])};
    if (!r.in) throw std::runtime_error("spec file cannot be read");
    const LgGame g = read_game(r);
    std::vector<LgView> views;
    const int nv = r.next();
    for (int i = 0; i < nv; ++i) views.push_back(read_view(r, g));
    const long games = std::atol(argv[2]);
    const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 0;
    const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
    std::vector<int> buf((size_t)g.max_legal), ids((size_t)g.max_legal);
    std::vector<double> probs((size_t)g.max_legal);
    long steps = 0, won = 0;
    for (long i = 0; i < games; ++i) {
      SplitMix64 rng(seed + (uint64_t)i);
      LgState s = deal(g, rng);
      while (current_player(g, s) != search::TERMINAL) {
        check_state(g, s);
        int a;
        if (s.pending == P_CHANCE) {
          const int n = chance_outcomes(g, s, ids.data(), probs.data());
          if (n <= 0) throw std::logic_error("a chance node with no outcome");
          a = sample_chance(g, s, rng);
          if (std::find(ids.begin(), ids.begin() + n, a) == ids.begin() + n) throw std::logic_error("a sampled outcome not listed");
        } else {
          const int n = legal_actions(g, s, buf.data());
          if (n <= 0 || n > g.max_legal) throw std::logic_error("no legal action in a running game");
          a = buf[(size_t)rng.below((uint64_t)n)];
        }
        LgState copy = s;
        apply(g, s, a);
        apply(g, copy, a);
        if (!same(g, copy, s)) throw std::logic_error("a copy played differently");
        ++steps;
      }
      check_state(g, s);
      won += s.result == R_WON;
    }
    std::printf("%ld games, %ld steps, %ld won: invariants held\n", games, steps, won);
    auto shared = std::make_shared<const LgGame>(g);
    long samples = 0, iterations = 0;
    for (const LgView& v : views) {
      for (uint64_t k = 0; k < 20; ++k) {
        check_state(g, sample(g, v, seed + k));
        if (k < 3) check_state(g, sample(g, v, seed + k, SAMPLE_FITTED));  // the fitted draw alone too
        ++samples;
      }
      if (Legends::view_player(g, v) < 0) continue;
      search::SearchOptions o;
      o.seed = seed, o.threads = threads;
      o.playout = samples % 40 == 0 ? search::PO_LIGHT : search::PO_RANDOM;  // both policies, view by view
      search::Ismcts<Legends> tree(shared, v, o);
      iterations += tree.run(300, -1.0);
      search::Pimc<Legends> pimc(shared, v, o, 2);
      for (int w = 0; w < pimc.worlds(); ++w) {
        auto world = pimc.world(w);
        iterations += world->run(50, -1.0);
        pimc.vote(*world);
      }
    }
    std::printf("%ld samples checked, %ld search iterations\n", samples, iterations);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "selftest: %s\n", e.what());
    return 1;
  }
  return 0;
}
