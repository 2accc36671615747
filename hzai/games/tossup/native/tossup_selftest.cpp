// The Toss-up twin alone, for AddressSanitizer, UndefinedBehaviorSanitizer and Valgrind
// (tests/native/test_tossup.py builds it; docs/native.md, "Memory checking"): random games
// through the trait with every state checked, then the arena's four bot kinds on two
// threads, ISMCTS on two threads, the multi-observer search and PIMC from views, and
// self-play. Usage: tossup_selftest GAMES SEED MOVE... (the reference's move texts by id).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "search/arena.hpp"
#include "search/ismcts.hpp"
#include "search/mo_ismcts.hpp"
#include "search/pimc.hpp"
#include "search/selfplay.hpp"
#include "tossup.hpp"

using namespace hzn;
using namespace hzn::tossup;

namespace {

int failures = 0;

void check(bool ok, const char* what, long game) {
  if (!ok) {
    std::fprintf(stderr, "game %ld: %s\n", game, what);
    ++failures;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s GAMES SEED MOVE...\n", argv[0]);
    return 2;
  }
  const long games = std::atol(argv[1]);
  const uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  std::shared_ptr<const TpGame> g;
  try {
    g = std::make_shared<const TpGame>(std::vector<std::string>(argv + 3, argv + argc));
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 2;
  }
  std::vector<TpState> starts;
  for (long i = 0; i < games; ++i) {
    SplitMix64 rng(seed + (uint64_t)i);
    TpState s;
    s.cards[0] = 1 + (int)rng.below(CARDS), s.cards[1] = 1 + (int)rng.below(CARDS);
    starts.push_back(s);
    int buf[2 + CARDS];
    while (Tossup::current_player(*g, s) != search::TERMINAL) {
      const int p = Tossup::current_player(*g, s);
      if (p >= 0) {
        const int n = Tossup::legal_actions(*g, s, buf);
        check(n == 2 + CARDS, "a seat has 5 legal moves", i);
        TpView v = TossupSeats::view(*g, {}, s, p);
        check(Tossup::view_player(*g, v) == p, "the view's seat decides", i);
        const TpState world = Tossup::determinize(*g, v, rng);
        check(world.cards[p] == s.cards[p] && world.n == s.n, "a world keeps the seat's card and the moves", i);
      }
      Tossup::playout_step(*g, s, rng);
      check(s.n <= MAX_MOVES, "at most three moves", i);
    }
    double r[2];
    Tossup::returns(*g, s, r);
    check(r[0] + r[1] == 1.0, "one seat wins", i);
  }

  std::vector<search::BotSpec> bots(4);
  bots[0].kind = search::BOT_RANDOM;
  bots[1].kind = search::BOT_LIGHT;
  bots[2].kind = search::BOT_ISMCTS, bots[2].iterations = 60, bots[2].threads = 2;
  bots[3].kind = search::BOT_PIMC, bots[3].iterations = 60, bots[3].worlds = 3;
  search::Arena<Tossup> arena(g, bots);
  std::vector<uint64_t> seeds;
  std::vector<std::vector<int>> seating;
  for (long i = 0; i < games; ++i) {
    seeds.push_back(seed + (uint64_t)i);
    seating.push_back({(int)(i % 4), (int)((i + 1) % 4)});
  }
  long played = 0;
  arena.play_all(starts, seeds, seating, true, 2, [&](long i, search::ArenaOutcome&& o, const TpState&) {
    check(o.error.empty() && o.returns.size() == 2 && !o.actions.empty(), "an arena game is played", i);
    ++played;
  });
  check(played == games, "every arena game ends", -1);

  search::SearchOptions o;
  o.threads = 2;
  for (long i = 0; i < games && i < 50; ++i) {
    const TpView v = TossupSeats::view(*g, {}, starts[(size_t)i], 0);
    o.seed = seed + (uint64_t)i;
    search::Ismcts<Tossup> tree(g, v, o);
    check(tree.run(200, -1.0) == 200, "ISMCTS runs its iterations", i);
    search::MoIsmcts<Tossup> mo(g, v, o);
    check(mo.run(100, -1.0) == 100, "the multi-observer search runs its iterations", i);
    search::SearchOptions one = o;
    one.threads = 1;
    search::Pimc<Tossup> pimc(g, v, one, 3);
    check(pimc.decide(30, -1.0) >= 0, "PIMC finds a move", i);
  }

  search::SelfplayOptions opt;
  for (long i = 0; i < games && i < 50; ++i) {
    const search::SelfplayGame sp = search::selfplay_game<Tossup>(arena, 2, starts[(size_t)i], seed + (uint64_t)i, opt);
    check(!sp.records.empty() && sp.records[0].seat == 0 && sp.records[0].labels.size() == 1, "self-play records", i);
  }
  std::printf("%ld games, %d failed\n", games, failures);
  return failures ? 1 : 0;
}
