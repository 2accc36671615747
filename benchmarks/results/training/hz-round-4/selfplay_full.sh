#!/usr/bin/env bash
# hz-round-4's full-search games (issue 43, item 3): both seats search 200 iterations a
# decision guided by the shipped hz@3 (its value net, hz@2's policy and card heads), every
# decision recorded with its visit-share policy target, the history features fixed.
# Why not cheap games for the policy and card heads: in policy-only games the opponent's
# history shows its policy's tells, and the history-reading hostage head trained on them
# (hz@3 as trained) was 43% worse than uniform against a searching opponent
# (benchmarks/results/hostage/). Deals 21,000,000.. (never used by a benchmark).
# Made on 2026-12-07 as the first 15 shards (3,000 games, 298,655 records) of a --games 20000 run stopped
# after 26 minutes on one thread (5,500-6,900 games an hour).
# Resumable: finished shards are kept; run it again to go on.
# MODEL: hz@3 (`git show 92dba08:hzai/games/hera_zeus/models/hz.npz > hz3.npz`); hz.npz is hz@4 since.
# Usage: selfplay_full.sh [OUT_FOLDER] [THREADS] [MODEL]   (run from the repository root)
set -euo pipefail
out=${1:-data/hz-round-4-full}
hzai selfplay --games 3000 --budget 200 --seed 21000000 --model ${3:-hzai/games/hera_zeus/models/hz.npz} \
  --shard 200 --threads ${2:-2} --out "$out"
