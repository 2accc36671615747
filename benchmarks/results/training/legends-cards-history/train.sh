#!/usr/bin/env bash
# legends@6 (not shipped): legends@5 (the shipped value and blueprint, unchanged) with a card
# net over the view's 2,226 features (layout lg-2226-hist2: the table's 1,418, the partners'
# history 592, the cards the seat cannot place 216; docs/learning.md, "History in the
# Legends features"), temper 0.6 (chosen on deals 770000..: benchmarks/results/
# legends_beliefs_history.md). Its records, 2,400 games of the shipped team made with this
# build into a folder outside the repository (24 min on 2 busy cores):
#   bash benchmarks/results/training/legends-cards/selfplay.sh /work/lg-data/d2          # 1,200 games, deals 3,010,000..
#   bash benchmarks/results/training/legends-cards-history/selfplay_more.sh /work/lg-data/d2   # 1,200 more, deals 3,510,000..
# then: bash train.sh /work/lg-data/d2   (178,548 records, 7 min)
set -euo pipefail
data=${1:-data}
hzai train-cards hzai/games/legends/models/legends.npz "$data"/* --out legends-history.npz --version 6 \
  --epochs 10 --minutes 10 --hidden 128,64 --dropout 0.1 --temper 0.6 --seed 0 --report train.json
