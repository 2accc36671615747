#!/usr/bin/env bash
# legends@3's self-play: the legends@2-guided team (the shipped model) over missions 1-12,
# 2 and 4 seats, 60 games at human and 20 at godlike difficulty a mission and seat count
# (1,920 games), 150 iterations a decision; deals 1,000,000.. (never used by a benchmark).
# Plus legends@2's own 300 games (today's unguided team; docs/learning.md), made again.
# Resumable: each folder keeps its finished shards; run it again to go on.
# Usage: selfplay.sh [OUT_FOLDER] [GUIDING_MODEL]; the guide is legends@2, taken from the
# commit that shipped it when not given (the shipped model is legends@3 since).
set -euo pipefail
out=${1:-data}
guide=${2:-$out/legends2.npz}
mkdir -p "$out"
if [ ! -f "$guide" ]; then
  git -C "$(dirname "$0")" show 50cb9b1:hzai/games/legends/models/legends.npz > "$guide"
fi
for m in 1 3 5; do for s in 2 4; do
  hzai selfplay --game legends --params "{\"mission\": $m, \"seats\": $s}" --games 50 --budget 150 \
    --seed $((m*100000 + s*10000)) --shard 25 --threads 2 --quiet --out "$out/r2/m${m}s${s}"
done; done
for m in $(seq 1 12); do for s in 2 4; do
  for d in human godlike; do
    games=60; [ "$d" = godlike ] && games=20
    off=0; [ "$d" = godlike ] && off=500
    seed=$((1000000 + m*10000 + s*1000 + off))
    hzai selfplay --game legends --params "{\"mission\": $m, \"seats\": $s, \"difficulty\": \"$d\"}" \
      --games $games --budget 150 --model "$guide" --seed $seed --shard 20 --threads 2 --quiet \
      --out "$out/r3/m${m}s${s}${d}"
  done
done; done
