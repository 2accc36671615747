// A stand-alone driver of the core for memory checkers (Valgrind, AddressSanitizer,
// UndefinedBehaviorSanitizer): random games over every variant, with the state's
// invariants checked after every step. The deck comes from a file written by
// `python -m hzai.games.hera_zeus.native.deckfile` so that this program knows no card counts either.
//
//   hzai_native_selftest DECK_FILE [GAMES] [SEED] [THREADS]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <tuple>
#include <sstream>
#include <thread>

#include "core.hpp"
#include "hera_zeus.hpp"
#include "replay.hpp"
#include "search/arena.hpp"
#include "search/ismcts.hpp"
#include "search/pimc.hpp"
#include "seats.hpp"

using namespace hzn;

static void fail(const char* what, int game, int step) {
  std::fprintf(stderr, "invariant broken: %s (game %d, step %d)\n", what, game, step);
  std::exit(1);
}

static void check_invariants(const GameDef& g, const State& s, int game, int step) {
  int seen[MAX_CARDS] = {};
  for (int p = 0; p < 2; ++p) {
    s.hand[p].each([&](int x) { ++seen[x]; });
    if (s.hand[p].count() > HAND_LIMIT) fail("hand over the limit", game, step);
    for (int i = 0; i < s.deck_len[p]; ++i) ++seen[s.deck[p][s.deck_head[p] + i]];
    for (int i = 0; i < s.pile_len[p]; ++i) ++seen[s.pile[p][i]];
    for (int c = 0; c < COLUMNS; ++c) {
      if (s.col_len[p][c] > DEPTH) fail("column too long", game, step);
      for (int r = 0; r < s.col_len[p][c]; ++r) {
        const int x = s.col[p][c][r];
        if (x == FIGURE) {
          if (r != 0) fail("figure behind r1", game, step);
        } else {
          ++seen[x];
        }
      }
    }
  }
  for (int i = 0; i < s.n_pending; ++i)
    if (s.pending[i].kind == PD_PLACE) ++seen[s.pending[i].cards[0]];
  for (int x = 0; x < g.n_cards; ++x)
    if (seen[x] != 1) fail("a card is not in exactly one place", game, step);
  if (s.phase != PH_OVER && s.n_pending == 0 && s.phase == PH_PLAY && s.ap <= 0) fail("running turn without AP", game, step);
}

static int run(const std::vector<CardSpec>& specs, int first, int games, uint64_t seed, long* moves) {
  int draws = 0;
  std::map<std::tuple<int, int, int, int>, std::unique_ptr<GameDef>> defs;
  for (int i = first; i < games; i += 1) {
    const auto key = std::make_tuple(i % 2, (i / 2) % 2, (i / 4) % 2, (i % 5 == 0) ? 3 + i % 17 : 200);
    auto& def = defs[key];
    if (!def)
      def = std::make_unique<GameDef>(specs, std::get<0>(key), std::get<1>(key) == 1, std::get<2>(key) == 1,
                                      std::get<3>(key));
    const GameDef& g = *def;
    State s = deal(g, seed + (uint64_t)i);
    SplitMix64 rng(seed * 31 + (uint64_t)i);
    int step = 0;
    std::vector<int> buf(MAX_ACTIONS);
    while (s.phase != PH_OVER) {
      check_invariants(g, s, i, step);
      int ids[MAX_CARDS], counts[MAX_CARDS];
      const int n_chance = chance_outcomes(g, s, ids, counts);
      const int n = legal_actions_sorted(g, s, buf.data());
      if ((n == 0) == (n_chance == 0)) fail("exactly one of moves and chance outcomes", i, step);
      const int probe = n ? buf[(size_t)step % (size_t)n] : ids[0];
      if (!is_legal(g, s, probe)) fail("a listed action is not legal", i, step);
      State copy = s;  // apply to a copy too: the state must be plain data
      apply_action(g, copy, probe);
      random_step(g, s, rng);
      ++step;
    }
    check_invariants(g, s, i, step);
    *moves += s.moves_played;
    draws += s.winner < 0;
  }
  return draws;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DECK_FILE [GAMES] [SEED] [THREADS]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  std::vector<CardSpec> specs;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream row(line);
    CardSpec c;
    int slays = 0, falls = 0;
    row >> c.name >> c.name_lower >> c.owner >> c.kind >> c.strength >> c.power >> slays >> falls;
    if (!row) {
      std::fprintf(stderr, "bad deck line: %s\n", line.c_str());
      return 2;
    }
    c.slays_medusa = slays != 0;
    c.falls_to_pythia = falls != 0;
    specs.push_back(c);
  }
  const int games = argc > 2 ? std::atoi(argv[2]) : 200;
  const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 0;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  long moves[64] = {};
  int draws[64] = {};
  std::vector<std::thread> pool;
  const int per = (games + threads - 1) / threads;
  for (int t = 0; t < threads && t < 64; ++t) {
    pool.emplace_back([&, t] {
      const int lo = t * per, hi = std::min(games, lo + per);
      // run() walks lo..hi-1; the game index picks the variants and the seed
      draws[t] = run(specs, lo, hi, seed, &moves[t]);
    });
  }
  for (auto& th : pool) th.join();
  // Then the shape of the batch API: one shared GameDef, games on every thread.
  {
    const GameDef shared(specs, 0, false, false, 200);
    const State start = deal(shared, seed);
    std::vector<std::thread> batch;
    std::vector<long> batch_moves(threads, 0);
    for (int t = 0; t < threads; ++t)
      batch.emplace_back([&, t] {
        for (int i = t; i < games; i += threads) {
          State s = start;
          random_playout(shared, s, seed + (uint64_t)i);
          batch_moves[t] += s.moves_played;
        }
      });
    for (auto& th : batch) th.join();
  }
  // And the generic search over the Hera and Zeus trait: ISMCTS (both playouts, root
  // parallelism) and PIMC from worlds of positions along a few random games.
  long searched = 0;
  {
    auto shared = std::make_shared<const GameDef>(specs, 0, false, false, 200);
    for (int k = 0; k < 6; ++k) {
      State s = deal(*shared, seed + 1000 + (uint64_t)k);
      SplitMix64 rng(seed + (uint64_t)k);
      for (int step = 0; step < 20 * k && s.phase != PH_OVER; ++step) random_step(*shared, s, rng);
      while (s.phase != PH_OVER && s.n_pending && s.pending[0].kind == PD_CHANCE) random_step(*shared, s, rng);
      if (s.phase == PH_OVER) continue;
      search::SearchOptions o;
      o.seed = (uint64_t)k;
      o.threads = threads;
      o.playout = k % 2 ? search::PO_LIGHT : search::PO_RANDOM;
      search::Ismcts<HeraZeus> tree(shared, HeraZeus::world_view(*shared, s), o);
      searched += tree.run(150, -1.0);
      if (tree.root_stats().empty()) fail("a search with no root move", k, 0);
      search::Pimc<HeraZeus> pimc(shared, HeraZeus::world_view(*shared, s), o, 2);
      if (pimc.decide(60, -1.0) < 0) fail("PIMC chose nothing", k, 0);
    }
  }
  // The service's path: random games written as move texts, replayed from the deal with
  // the knowledge of the seat to decide followed to a view at every few steps, that view
  // sampled; texts the core does not write stop the replay where they stand.
  long replays = 0;
  {
    auto shared = std::make_shared<const GameDef>(specs, 0, false, false, 200);
    const std::vector<std::string> bad = {"", "draw ", "play", std::string(5000, 'y'), "setup - - -"};
    for (int k = 0; k < 2 * threads + 6; ++k) {
      const State start = deal(*shared, seed + 2000 + (uint64_t)k);
      State s = start;
      SplitMix64 rng(seed + 77 + (uint64_t)k);
      std::vector<std::string> texts;
      std::vector<int> buf(MAX_ACTIONS);
      while (s.phase != PH_OVER) {
        if (texts.size() % 5 == 0) {
          const Decision d = decide_after(*shared, start, texts);
          ++replays;
          if (d.stopped_at != -1) fail("a replay stopped at a move the core wrote", k, (int)texts.size());
          if (d.state.moves_played != s.moves_played || d.state.phase != s.phase || d.state.turn != s.turn)
            fail("a replay ended elsewhere than the game", k, (int)texts.size());
          if (d.view_built) {
            SplitMix64 draw(seed + (uint64_t)texts.size());
            Sampler(*shared, d.view).sample(*shared, draw);
            // the same view with a weighted pool: a factor on every hidden slot of the
            // opponent, the resampled worlds drawn from
            ViewSpec weighted = d.view;
            weighted.inference.side = 1 - d.view.to_move;
            weighted.inference.pool = 16;
            weighted.inference.seed = seed + (uint64_t)k;
            for (int c = 0; c < COLUMNS; ++c)
              for (size_t r = 0; r < weighted.columns[weighted.inference.side][c].size(); ++r)
                if (weighted.columns[weighted.inference.side][c][r].kind == SL_GROUP) {
                  SlotLikelihood sl;
                  sl.c = c, sl.r = (int)r;
                  for (int n = 0; n < shared->n_names; ++n) sl.log_factor.push_back(-0.5 * (double)((n + c + (int)r) % 4));
                  weighted.inference.slots.push_back(sl);
                }
            const Sampler pooled(*shared, weighted);
            if (pooled.worlds().size() != 16 || !(pooled.effective_pool() > 0.0))
              fail("a weighted pool of the wrong size", k, (int)texts.size());
            pooled.sample(*shared, draw);
          } else if (s.to_move >= 0) {
            fail("no view for the seat to decide", k, (int)texts.size());
          }
          std::vector<std::string> broken = texts;
          broken.push_back(bad[texts.size() % bad.size()]);
          if (decide_after(*shared, start, broken).stopped_at != (int)texts.size())
            fail("a text the core does not write was played", k, (int)texts.size());
        }
        int action;
        if (s.n_pending && s.pending[0].kind == PD_CHANCE) {
          action = sample_chance(*shared, s, rng);
        } else {
          const int n = legal_actions_sorted(*shared, s, buf.data());
          action = buf[rng.below((uint64_t)n)];
        }
        texts.push_back(shared->text[action]);
        apply_action(*shared, s, action);
      }
    }
  }
  // The arena: every bot kind on the given threads, each seat deciding from its view.
  long arena_moves = 0;
  {
    std::vector<search::BotSpec> bots(4);
    bots[0].kind = search::BOT_RANDOM;
    bots[1].kind = search::BOT_LIGHT;
    bots[2].kind = search::BOT_ISMCTS, bots[2].iterations = 20;
    bots[3].kind = search::BOT_PIMC, bots[3].iterations = 20, bots[3].worlds = 2;
    auto shared = std::make_shared<const GameDef>(specs, 0, false, false, 200);
    search::Arena<HeraZeus> arena(shared, bots);
    const int n = std::max(4, std::min(games / 20, 16));
    std::vector<State> starts;
    std::vector<uint64_t> seeds;
    std::vector<std::vector<int>> seating;
    for (int i = 0; i < n; ++i) {
      starts.push_back(deal(*shared, seed + (uint64_t)i));
      seeds.push_back(seed + (uint64_t)i);
      seating.push_back({i % 4, (i + 1) % 4});
    }
    std::vector<long> per_game((size_t)n, 0);
    arena.play_all(starts, seeds, seating, true, threads, [&](long i, search::ArenaOutcome&& o, const State& end) {
      if (!o.error.empty()) fail("an arena game failed", (int)i, 0);
      if (end.phase != PH_OVER || (int)o.actions.size() != end.moves_played) fail("an arena game ended wrong", (int)i, 0);
      per_game[(size_t)i] = (long)o.actions.size();
    });
    for (long m : per_game) arena_moves += m;
  }
  long total = 0;
  int total_draws = 0;
  for (int t = 0; t < threads && t < 64; ++t) total += moves[t], total_draws += draws[t];
  std::printf("arena: %ld actions\n", arena_moves);
  std::printf("%d games, %ld moves, %d draws, %ld search iterations, %ld replays: invariants held\n", games, total,
              total_draws, searched, replays);
  return 0;
}
