#!/usr/bin/env bash
# legends@3 from the self-play of selfplay.sh (both rounds), the same nets as legends@2.
set -euo pipefail
data=${1:-data}
hzai train --game legends "$data"/r2/* "$data"/r3/* --out legends.npz --name legends --version 3 \
  --epochs 8 --minutes 5 --hidden 128,64 --value-hidden 64,32 --seed 0 --report train.json
