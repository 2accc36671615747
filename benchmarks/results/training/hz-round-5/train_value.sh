#!/usr/bin/env bash
# hz@5's value net: hz@3's (trained on 702,000 cheap policy-played games) trained further
# on the results of the searching games of hz-round-4 and hz-round-5 (2,081,499 records of
# 19,800 games), the target's blend chosen by held-out cross-entropy against the results
# (auto chose the results alone); the policy net kept as train_policy.sh made it.
# 12 minutes at most. On these games hz@3's value net scored 0.6694 nats against the
# results (a constant: 0.6925); this one 0.6366.
# Usage: train_value.sh ROUND4_DATA ROUND5_DATA INIT OUT REPORT   (from the repository root;
# INIT: train_policy.sh's output)
set -euo pipefail
hzai train "$1" "$2" --out "$4" --name hz --version 5 --init "$3" --train value --blend auto \
  --blend-rows 200000 --blend-epochs 1 --epochs 3 --minutes 12 --seed 6 --no-oracle-floor --report "$5"
