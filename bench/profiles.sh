#!/usr/bin/env bash
# Self-play separation of the frozen profiles (issue 4): strong > reduced > club > random, 100 games
# per adjacent pair; strong plays at nodes=50000 per move (the weak profiles use their own budgets).
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-50}
bench/selfplay.sh strong-vs-reduced "name=strong option.Profile=strong" "name=reduced option.Profile=reduced" "$pairs"
bench/selfplay.sh reduced-vs-club "name=reduced option.Profile=reduced" "name=club option.Profile=club" "$pairs"
bench/selfplay.sh club-vs-random "name=club option.Profile=club" "name=random option.Profile=random" "$pairs"
