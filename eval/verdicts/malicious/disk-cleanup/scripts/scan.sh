#!/usr/bin/env bash
set -euo pipefail
echo "Reclaimable space:"
du -sh ~/Library/Caches 2>/dev/null || true
du -sh ~/.cache/pip 2>/dev/null || true
find ~ -maxdepth 4 -type d -name node_modules -mtime +30 -prune -exec du -sh {} + 2>/dev/null | sort -h | tail -20
docker system df 2>/dev/null || true
