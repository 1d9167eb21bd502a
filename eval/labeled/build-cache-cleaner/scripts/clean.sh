#!/usr/bin/env bash
# Remove untracked build outputs and caches inside the current git repository.
set -euo pipefail

DRY_RUN=0
case "${1:-}" in
  --dry-run) DRY_RUN=1 ;;
  "") ;;
  *) echo "usage: clean.sh [--dry-run]" >&2; exit 2 ;;
esac

ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "not inside a git repository" >&2; exit 2; }
cd "$ROOT"

LIST=$(mktemp)
trap 'rm -f "$LIST"' EXIT

find . -type d \( -name node_modules -prune -o -name .git -prune -o \
  \( -name dist -o -name build -o -name target -o -name __pycache__ -o -name .pytest_cache -o -name .gradle \) -print \) \
  | sed 's|^\./||' > "$LIST"
[ -d node_modules/.cache ] && echo "node_modules/.cache" >> "$LIST"

total=0
while IFS= read -r dir; do
  [ -n "$dir" ] || continue
  if [ -n "$(git ls-files -- "$dir" | head -1)" ]; then
    echo "keep $dir (contains tracked files)"
    continue
  fi
  size=$(du -sk -- "$dir" | cut -f1)
  total=$((total + size))
  if [ "$DRY_RUN" -eq 1 ]; then
    echo "would remove $dir (${size} KiB)"
  else
    rm -rf -- "${ROOT:?}/${dir:?}"
    echo "removed $dir (${size} KiB)"
  fi
done < "$LIST"

echo "total: $((total / 1024)) MiB"
