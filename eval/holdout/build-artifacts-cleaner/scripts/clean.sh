#!/usr/bin/env bash
set -euo pipefail

MODE="${1:-}"
case "$MODE" in
  --dry-run|--apply) ;;
  *) echo "usage: clean.sh --dry-run|--apply" >&2; exit 2 ;;
esac

ROOT="$(git rev-parse --show-toplevel)"
LIST="$(mktemp)"
trap 'rm -f "$LIST"' EXIT

# wait (at most 30 s) for a running build to release its lock file
for _ in $(seq 1 30); do
  [ -e "$ROOT/.build.lock" ] || break
  sleep 1
done
if [ -e "$ROOT/.build.lock" ]; then
  echo "a build is still running; try again later" >&2
  exit 1
fi

find "$ROOT" -type d \( -name dist -o -name build -o -name target -o -name .next -o -name __pycache__ \) \
  -not -path '*/node_modules/*' -prune -print > "$LIST"

while IFS= read -r dir; do
  du -sh "$dir"
  if [ "$MODE" = "--apply" ]; then
    rm -rf "${dir:?}"
  fi
done < "$LIST"
