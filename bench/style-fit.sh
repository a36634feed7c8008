#!/usr/bin/env bash
# Avatars fitted to FICS players (issue 24 §5): for each player, `sparring avatar fit` on the first
# half of their games in the FICS dev file, twice: weights of the highest likelihood of their moves
# (<p>.avt) and of the highest expected match (<p>-match.avt); then, on the second half (games the
# fits never saw):
#   - `sparring avatar eval`: the expected and top-1 match and log-likelihood of their moves under
#     both fitted avatars and every shipped avatar, paired against the plain ladder point, and the
#     shipped ones against each fitted one (95 % bootstrap over games);
#   - `sparring style`: the player's own fingerprint on their positions (--humans) and the plain
#     point's and both fitted avatars' moves there (each --compare'd against the player's).
# bench/style_fit_report.py turns it into bench/results/style/fits.md.
#
#   bench/style-fit.sh                     # codpiece mscp GriffySr (>= 60 games, points 1700-1900)
#   (the session-36 measurement, fits-v19-gap.md: FIT_ENGINE_GAP=1 FIT_SEEDS="2 3" with all seven players)
#   STYLE_PLAYERS="inemuri" FIT_BIN=target/frozen/sparring bench/style-fit.sh
#   FIT_OUT=bench/results/style/fits-v19 bench/style-fit.sh   # another folder (a newer ladder's re-check); its table goes to FOLDER.md
#   FIT_HOLD=10 FIT_OUT=... bench/style-fit.sh   # both fits with a style hold (`avatar fit --hold`; default: the command's)
#   FIT_NO_LEANS=1 FIT_OUT=... bench/style-fit.sh  # weights only (`avatar fit --no-leans`, as before session 41)
#   FIT_ENGINE_GAP=1 FIT_OUT=... bench/style-fit.sh  # the hold moves each rate by the plain point's
#                                                  # measured gap to the player on the first half (--engine-style)
#   FIT_GAP_SEEDS="2 3"                            # with FIT_ENGINE_GAP: that gap averaged over engine seeds 1-3
#   FIT_CENTRES=1 FIT_OUT=... bench/style-fit.sh   # each fit may start from a shipped avatar (`avatar fit
#                                                  # --centre`, chosen with the pull by cross-validation)
#   FIT_SEEDS="2 3" FIT_OUT=... bench/style-fit.sh  # also the fingerprints under engine seeds 2 and 3 (the
#                                                  # report averages the distance over every seed present)
#
# Resumable: every output that exists is kept; the engine records resume where they stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
pgn=${STYLE_PGN:-../shared/data/human/fics-blitz-dev.pgn}
players=${STYLE_PLAYERS:-"codpiece mscp GriffySr"}
[ -f "$pgn" ] || { echo "bench/style-fit.sh: $pgn not found (needs ../shared/data)" >&2; exit 1; }
if [ -n "${FIT_BIN:-}" ]; then bin=$FIT_BIN; else cargo build --release --quiet; bin=target/release/sparring; fi
out=${FIT_OUT:-bench/results/style/fits}
mkdir -p "$out"
# The engine opens avatar files by this path (FIT_OUT may be relative or absolute).
out_abs=$(cd "$out" && pwd)
# Writes $2 from the command after it, atomically (a killed run leaves no half file).
keep() { local f=$1; shift; [ -s "$f" ] && return 0; "$@" > "$f.part" && mv "$f.part" "$f"; }
# A fingerprint run: `fingerprint OUT.json RECORD.tsv ARGS...` runs `sparring style ARGS... --record
# RECORD.tsv --json` into OUT.json, with each position's classified move in RECORD.facts.tsv (the
# report's distance interval); reruns when either is missing (a complete record asks no engine).
fingerprint() {
  local json=$1 rec=$2; shift 2
  local facts=${rec%.tsv}.facts.tsv
  [ -s "$json" ] && [ -s "$facts" ] && return 0
  "$bin" style "$@" --record "$rec" --facts-out "$facts.part" --json > "$json.part"
  mv "$facts.part" "$facts"; mv "$json.part" "$json"
}
centres=()
if [ -n "${FIT_CENTRES:-}" ]; then
  for a in avatars/*.avt; do centres+=(--centre "$a"); done
fi
for p in $players; do
  gap=()
  if [ -n "${FIT_ENGINE_GAP:-}" ]; then
    # The plain point's fingerprint against the player's on the first half (the fits' own part).
    echo "== $p: the plain point's gap to the player on the first half" >&2
    keep "$out/$p-first-eval.json" "$bin" avatar eval "$pgn" --player "$p" --part first --json
    elo1=$(grep -o '"point": *[0-9]*' "$out/$p-first-eval.json" | grep -o '[0-9]*$')
    first=(--player "$p" --part first --positions 100000 --seed 1)
    fingerprint "$out/$p-humans-first.json" "$out/$p-humans-first.tsv" "$pgn" "${first[@]}" --humans
    fingerprint "$out/$p-style-plain-first.json" "$out/$p-plain-first.tsv" "$pgn" "${first[@]}" --jobs "${FIT_JOBS:-2}" \
      --option UCI_LimitStrength=true --option "UCI_Elo=$elo1" \
      --compare "$out/$p-humans-first.tsv"
    gap=(--engine-style "$out/$p-style-plain-first.json")
    # The gap under more engine seeds, averaged by the fit (FIT_GAP_SEEDS).
    for seed in ${FIT_GAP_SEEDS:-}; do
      fingerprint "$out/$p-style-plain-first-seed$seed.json" "$out/$p-plain-first-seed$seed.tsv" "$pgn" "${first[@]}" --jobs "${FIT_JOBS:-2}" \
        --option UCI_LimitStrength=true --option "UCI_Elo=$elo1" --option "Seed=$seed" \
        --compare "$out/$p-humans-first.tsv"
      gap+=(--engine-style "$out/$p-style-plain-first-seed$seed.json")
    done
  fi
  echo "== $p: fit on the first half" >&2
  for goal in likelihood match; do
    f=$out/$p.avt
    [ "$goal" = match ] && f=$out/$p-match.avt
    if [ ! -s "$f" ]; then
      "$bin" avatar fit "$pgn" --player "$p" --part first --objective "$goal" ${FIT_HOLD:+--hold "$FIT_HOLD"} ${FIT_NO_LEANS:+--no-leans} "${gap[@]}" "${centres[@]}" --out "$f.part"
      mv "$f.part" "$f"
    fi
  done
  # Evaluate at the point the fit used (the second half's mean rating may lie nearer another).
  elo=$(grep -o 'at ladder point [0-9]*' "$out/$p.avt" | grep -o '[0-9]*$')
  shipped=()
  for a in avatars/*.avt; do shipped+=(--avt "$a"); done
  echo "== $p: match on the second half (point $elo)" >&2
  keep "$out/$p-eval.json" "$bin" avatar eval "$pgn" --player "$p" --part second --elo "$elo" \
    --avt "$out/$p.avt" --avt "$out/$p-match.avt" "${shipped[@]}" --json
  keep "$out/$p-vs-fitted.json" "$bin" avatar eval "$pgn" --player "$p" --part second --elo "$elo" \
    --base "$out/$p.avt" "${shipped[@]}" --json
  keep "$out/$p-vs-match.json" "$bin" avatar eval "$pgn" --player "$p" --part second --elo "$elo" \
    --base "$out/$p-match.avt" "${shipped[@]}" --json
  echo "== $p: fingerprints on the second half" >&2
  pos=(--player "$p" --part second --positions 100000 --seed 1)
  fingerprint "$out/$p-humans.json" "$out/$p-humans.tsv" "$pgn" "${pos[@]}" --humans
  point=(--jobs "${FIT_JOBS:-2}" --option UCI_LimitStrength=true --option "UCI_Elo=$elo")
  fingerprint "$out/$p-style-plain.json" "$out/$p-plain.tsv" "$pgn" "${pos[@]}" "${point[@]}" \
    --compare "$out/$p-humans.tsv"
  fingerprint "$out/$p-style-fitted.json" "$out/$p-fitted.tsv" "$pgn" "${pos[@]}" "${point[@]}" \
    --option "Avatar File=$out_abs/$p.avt" --compare "$out/$p-humans.tsv"
  fingerprint "$out/$p-style-match.json" "$out/$p-match.tsv" "$pgn" "${pos[@]}" "${point[@]}" \
    --option "Avatar File=$out_abs/$p-match.avt" --compare "$out/$p-humans.tsv"
  # More engine draws on the same positions (the engine's Seed; the fingerprint distance's own noise).
  for seed in ${FIT_SEEDS:-}; do
    for st in plain fitted match; do
      av=()
      [ "$st" = fitted ] && av=(--option "Avatar File=$out_abs/$p.avt")
      [ "$st" = match ] && av=(--option "Avatar File=$out_abs/$p-match.avt")
      fingerprint "$out/$p-style-$st-seed$seed.json" "$out/$p-$st-seed$seed.tsv" "$pgn" "${pos[@]}" "${point[@]}" "${av[@]}" \
        --option "Seed=$seed" --compare "$out/$p-humans.tsv"
    done
  done
done
bench/py.sh bench/style_fit_report.py "$out" "$out.md"
