#!/usr/bin/env bash
# A value-net candidate for hz@4 (not shipped): hz@3's value net (the shipped hz.npz at
# 92dba08) trained on hz-round-4's cheap games (selfplay.sh: 78,000 games, features
# fixed), the games' results as the target (what blend auto chose for hz@3), 3 passes.
# Run on 2026-12-07 and stopped after the value net's 3 passes: held-out cross-entropy
# 0.6057 / 0.6052 / 0.6039 against 0.6019 for hz@3's net as it started, so the best
# weights kept were hz@3's own (written before `hzai train --train value` existed, it
# would have gone on to a policy net it did not need; today add --train value).
# Usage: train_value.sh DATA INIT OUT REPORT   (run from the repository root)
set -euo pipefail
hzai train "$1" --out "$3" --name hz --version 4 --init "$2" --blend 1,0,0 --epochs 3 --minutes 6 --seed 4 \
  --no-oracle-floor --report "$4"
