#!/usr/bin/env bash
# legends@5: legends@3 (the shipped value and blueprint, unchanged) with a card net
# trained on selfplay.sh's labelled records: head 0 the partners' true hands by kind,
# head 1 one uniform world's (what the sampler already knows from the same view).
set -euo pipefail
data=${1:-data}
hzai train-cards hzai/games/legends/models/legends.npz "$data"/* --out legends.npz --version 5 \
  --epochs 10 --minutes 10 --hidden 128,64 --dropout 0.1 --seed 0 --report train.json
