#!/usr/bin/env bash
# The card-location model's records: the shipped team (legends@3 guiding value and
# policy in the tree, as legends@3's own self-play) over missions 1-12, 2 and 4 seats,
# 40 games at human and 10 at godlike difficulty a mission and seat count (1,200 games),
# 150 iterations a decision; each record labelled with the partners' hands by kind
# (Legends::hidden_labels). The records made on 2026-12-07 also held a second group of
# labels (one uniform world's, for a weighting dropped the same day as measured worse);
# `hzai train-cards` reads the first group. Deals 3,000,000.. (never used by a benchmark).
# Resumable: each folder keeps its finished shards; run it again to go on.
set -euo pipefail
out=${1:-data}
for m in $(seq 1 12); do for s in 2 4; do
  for d in human godlike; do
    games=40; [ "$d" = godlike ] && games=10
    off=0; [ "$d" = godlike ] && off=500
    seed=$((3000000 + m*10000 + s*1000 + off))
    hzai selfplay --game legends --params "{\"mission\": $m, \"seats\": $s, \"difficulty\": \"$d\"}" \
      --games $games --budget 150 --model shipped --seed $seed --shard 10 --threads 2 --quiet \
      --out "$out/m${m}s${s}${d}"
  done
done; done
