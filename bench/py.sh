#!/usr/bin/env bash
# Runs one bench Python script in a declared environment:
#
#   bench/py.sh SCRIPT.py [ARGS...]        (from anywhere; the script runs from the repository root)
#
# A script whose header says "Standard library only" runs with the system python3 (3.11 or newer),
# so the measurement scripts need no network. Any other script runs in bench/.venv, which is
# created on demand from bench/requirements.txt (pinned versions; pip from PyPI) and rebuilt when
# that file changes. bench/.venv is git-ignored. PYTHON picks the interpreter (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
script=${1:?usage: bench/py.sh SCRIPT.py [ARGS...]}
shift
PY=${PYTHON:-python3}
if head -n 20 "$script" | grep -q "Standard library only"; then
    exec "$PY" "$script" "$@"
fi
venv=bench/.venv
req=bench/requirements.txt
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$venv/requirements.txt"; then
    echo "bench/py.sh: creating $venv from $req" >&2
    rm -rf "$venv"
    "$PY" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
    cp "$req" "$venv/requirements.txt"
fi
exec "$venv/bin/python" "$script" "$@"
