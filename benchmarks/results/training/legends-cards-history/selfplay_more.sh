#!/usr/bin/env bash
# 1,200 more card-net records' games beside ../legends-cards/selfplay.sh's: the same cells
# (missions 1-12, 2 and 4 seats, 40 games at human and 10 at godlike difficulty a cell,
# the shipped team at 150 iterations), on deals 3,500,000.. (never used by a benchmark
# nor by the first batch, whose deals run from 3,010,000 to 3,124,509).
# Resumable: each folder keeps its finished shards; run it again to go on.
set -euo pipefail
out=${1:-data}
for m in $(seq 1 12); do for s in 2 4; do
  for d in human godlike; do
    games=40; [ "$d" = godlike ] && games=10
    off=0; [ "$d" = godlike ] && off=500
    seed=$((3500000 + m*10000 + s*1000 + off))
    hzai selfplay --game legends --params "{\"mission\": $m, \"seats\": $s, \"difficulty\": \"$d\"}" \
      --games $games --budget 150 --model shipped --seed $seed --shard 10 --threads 2 --quiet \
      --out "$out/more-m${m}s${s}${d}"
  done
done; done
