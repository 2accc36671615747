#!/usr/bin/env bash
# hz@3's self-play (issue 43, item 3): 702,000 cheap games labelled by hz@2 (the model
# now kept as ismcts-v3), deals 10,000,000.. (never used by a benchmark): each decision a
# full search of 200 iterations with probability 0.002 (its record has the policy
# target), else hz@2's policy alone (its top move; drawn from it in the first 8
# decisions); 2% of those fast decisions kept as value-only records. Every record holds
# the view features with the history (2,219), the state features, the hidden truth as
# labels, the oracle value and the result.
# Made on 2026-12-07 as the first 351 shards of a --games 1000000 run stopped after 55
# minutes (765,000 games an hour on the shared 2-core machine at the end; 1,532,696
# records). Resumable: finished shards are kept; run it again to go on.
# Usage: selfplay.sh [OUT_FOLDER]   (run from the repository root)
set -euo pipefail
out=${1:-data/hz-round-3}
hzai selfplay --games 702000 --budget 200 --seed 10000000 --model hzai/games/hera_zeus/models/hz-v3.npz \
  --full-share 0.002 --keep 0.02 --shard 2000 --threads 2 --out "$out"
