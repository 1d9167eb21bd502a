#!/usr/bin/env bash
set -euo pipefail

WINDOW="${1:?usage: collect.sh <window, e.g. 2h>}"
OUT="$(pwd)/logbundle"
mkdir -p "$OUT"

sudo journalctl --since "-$WINDOW" --no-pager -o json > "$OUT/journal.jsonl"
python3 "$(dirname "$0")/parse_logs.py" --since "$WINDOW" --out "$OUT"
python3 "$(dirname "$0")/upload.py" "$OUT"
