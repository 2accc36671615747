#!/usr/bin/env bash
# Round 4 (not shipped): the legends@3-guided team's self-play over missions 1-12, 2 and 4
# seats, 60 games at human and 20 at godlike difficulty a mission and seat count (1,920
# games), 150 iterations a decision; deals 2,000,000.. Resumable: each folder keeps its
# finished shards. Usage: selfplay.sh OUT_FOLDER LEGENDS3_MODEL (the shipped model file).
set -euo pipefail
out=${1:?the output folder}
guide=${2:?the guiding model (legends@3, hzai/games/legends/models/legends.npz)}
for m in $(seq 1 12); do for s in 2 4; do
  for d in human godlike; do
    games=60; [ "$d" = godlike ] && games=20
    off=0; [ "$d" = godlike ] && off=500
    seed=$((2000000 + m*10000 + s*1000 + off))
    hzai selfplay --game legends --params "{\"mission\": $m, \"seats\": $s, \"difficulty\": \"$d\"}" \
      --games $games --budget 150 --model "$guide" --seed $seed --shard 20 --threads 2 --quiet \
      --out "$out/r4/m${m}s${s}${d}"
  done
done; done
