#!/usr/bin/env bash
# legends@6 (not shipped): legends@5 (the shipped value and blueprint, unchanged) with a card
# net over the view's features and the partners' history (layout lg-2010-hist1: 1,418 +
# 592; docs/learning.md, "History in the Legends features"). Its records are those of
# ../legends-cards/selfplay.sh run again with this build (same games, deals 3,000,000..;
# the view features now carry the history), into a folder outside the repository:
#   bash benchmarks/results/training/legends-cards/selfplay.sh /work/lg-data/d   # 1,200 games, 12 min on 2 busy cores
set -euo pipefail
data=${1:-data}
hzai train-cards hzai/games/legends/models/legends.npz "$data"/* --out legends-history.npz --version 6 \
  --epochs 10 --minutes 10 --hidden 128,64 --dropout 0.1 --seed 0 --report train.json
