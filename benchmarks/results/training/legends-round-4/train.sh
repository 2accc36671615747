#!/usr/bin/env bash
# legends@4 (not shipped) from round 3's folders (legends-round-3/selfplay.sh's OUT) and round 4's.
set -euo pipefail
round3=${1:?round 3's self-play folder}
round4=${2:?round 4's self-play folder}
hzai train --game legends "$round3"/r2/* "$round3"/r3/* "$round4"/r4/* --out legends4.npz --name legends --version 4 \
  --epochs 8 --minutes 5 --hidden 128,64 --value-hidden 64,32 --seed 0 --report train.json
