#!/usr/bin/env bash
# hz@3 from hz-round-3's records (selfplay.sh), warm-started from hz@2 (its rows for the
# 299 history features start at zero): the value target chosen by blend auto (it chose
# the games' results alone), 3 passes, each net stopped after 5 minutes.
# Usage: train.sh [DATA_FOLDER] [OUT]   (run from the repository root)
set -euo pipefail
data=${1:-data/hz-round-3}
out=${2:-hz3.npz}
hzai train "$data" --out "$out" --name hz --version 3 --init hzai/games/hera_zeus/models/hz-v3.npz \
  --blend auto --blend-rows 60000 --blend-epochs 1 --epochs 3 --minutes 5 --seed 3 \
  --report "$(dirname "$0")/train.json"
