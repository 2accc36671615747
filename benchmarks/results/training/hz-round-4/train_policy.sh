#!/usr/bin/env bash
# hz@4's policy and card heads candidate: hz@2's policy net (in the shipped hz.npz at
# 92dba08; its rows for the 299 history features start at zero) trained on hz-round-4's
# full-search games (selfplay_full.sh: 3,000 games, every decision a 200-iteration search,
# history features fixed); the best weights kept by the policy head's held-out loss alone;
# the value net kept as it is (hz@3's). 4 passes, 14 minutes at most.
# Usage: train_policy.sh DATA INIT OUT REPORT   (run from the repository root)
set -euo pipefail
hzai train "$1" --out "$3" --name hz --version 4 --init "$2" --train policy --keep-best policy --epochs 4 \
  --minutes 14 --seed 5 --no-oracle-floor --report "$4"
