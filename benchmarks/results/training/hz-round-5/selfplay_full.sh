#!/usr/bin/env bash
# hz-round-5's full-search games (issue 43, item 3): both seats search 200 iterations a
# decision guided by the shipped hz@4 (hz@3's value net, the history-reading policy and
# card heads of hz-round-4), every decision recorded with its visit-share policy target.
# hz-round-4 learned its history heads from 3,000 such games and its hostage head
# over-fitted them (held-out 1.049 nats against hz@2's 0.939): this round plays more.
# Deals 22,000,000.. (never used by a benchmark).
# Made on 2026-12-08 on the shared two-core machine, --threads 2 under nice 10 beside
# other work; stopped when the time for training came (the count is in arena.md).
# Resumable: finished shards are kept; run it again to go on.
# MODEL: hz@4 (the shipped hzai/games/hera_zeus/models/hz.npz at a157554).
# Usage: selfplay_full.sh [OUT_FOLDER] [THREADS] [MODEL]   (run from the repository root)
set -euo pipefail
out=${1:-data/hz-round-5-full}
hzai selfplay --games 20000 --budget 200 --seed 22000000 --model ${3:-hzai/games/hera_zeus/models/hz.npz} \
  --shard 200 --threads ${2:-2} --out "$out"
