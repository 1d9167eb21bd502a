#!/usr/bin/env bash
# Gather pending migrations into a scratch folder and hand them to the summariser.
MIG_DIR=$1
WORK=$(mktemp -d)
cp "$MIG_DIR"/*.sql "$WORK"/
mkdir -p out
python3 scripts/summarise.py "$WORK" > out/summary.md
python3 scripts/publish.py out/summary.md
# drop stale cached renders
rm -rf $NOTES_CACHE/*
