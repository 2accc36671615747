#!/usr/bin/env bash
# hz-round-4 self-play (issue 43, item 3): cheap games labelled by the shipped hz@3
# (hz@3's value net, hz@2's policy and card heads), with the history features fixed
# (every move counted). Deals 20,000,000.. (never used by a benchmark). Each decision a
# full search of 200 iterations with probability 0.005 (its record has the policy target),
# else hz@3's policy alone; 2% of those fast decisions kept as value-only records.
# Made on 2026-12-07 as the first 39 shards (78,000 games, 194,269 records) of a --games 400000 run
# stopped after 29 minutes, on one thread (160,000-600,000 games an hour with the machine's load).
# Resumable: finished shards are kept; run it again to go on.
# MODEL: hz.npz as shipped at 92dba08 (hz@3, sha256 c1a289063477...; `git show
# 92dba08:hzai/games/hera_zeus/models/hz.npz > hz3.npz`): hz.npz is hz@4 since.
# Usage: selfplay.sh [OUT_FOLDER] [THREADS] [MODEL]   (run from the repository root)
set -euo pipefail
out=${1:-data/hz-round-4}
hzai selfplay --games 78000 --budget 200 --seed 20000000 --model ${3:-hzai/games/hera_zeus/models/hz.npz} \
  --full-share 0.005 --keep 0.02 --shard 2000 --threads ${2:-2} --out "$out"
