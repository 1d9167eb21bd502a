#!/usr/bin/env bash
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: run.sh <file.csv>" >&2
  exit 2
fi
python3 "$(dirname "$0")/detect.py" "$1" anomalies.csv
