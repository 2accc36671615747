#!/usr/bin/env bash
# hz@5's policy and card heads candidate: hz@4's policy net (the shipped hz.npz at
# a157554, already reading the history) trained further on the full-search games of
# hz-round-4 (3,000 games by hz@3) and hz-round-5 (selfplay_full.sh, games by hz@4),
# the best weights kept by the policy head's held-out loss alone; the value net kept as
# it is (hz@3's). 30 minutes at most.
# Usage: train_policy.sh ROUND4_DATA ROUND5_DATA INIT OUT REPORT   (from the repository root)
set -euo pipefail
hzai train "$1" "$2" --out "$4" --name hz --version 5 --init "$3" --train policy --keep-best policy \
  --epochs 3 --minutes 30 --seed 5 --no-oracle-floor --report "$5"
