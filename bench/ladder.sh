#!/usr/bin/env bash
# Ladder points 200 apart in self-play (issue 4: the higher point should score 60-85 %; issue 6 (c):
# more than 50 %), with each point's mean regret against the oracle, its ASE (-> estimator Elo) and
# time per move (the weak players use their own node budgets; nodes=1e8 only caps them). Usage: bench/ladder.sh [GAME_PAIRS] [ELO ...]
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-50}; shift || true
elos=("$@"); [ ${#elos[@]} -gt 0 ] || elos=(900 1100 1300 1500 1700 1900 2100 2300)
for ((i = 0; i + 1 < ${#elos[@]}; i++)); do
  lo=${elos[i]}; hi=${elos[i+1]}
  bench/selfplay.sh "ladder-$hi-vs-$lo" \
    "name=elo$hi option.UCI_LimitStrength=true option.UCI_Elo=$hi" \
    "name=elo$lo option.UCI_LimitStrength=true option.UCI_Elo=$lo" "$pairs" "nodes=100000000"
done
