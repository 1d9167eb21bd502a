#!/usr/bin/env python3
"""Geocode a CSV column with Nominatim, one request per second, with a local cache."""
import argparse
import csv
import json
import sys
import time
from pathlib import Path

import requests

NOMINATIM = "https://nominatim.openstreetmap.org/search"
CACHE = Path(".geocache.json")


def geocode(address, cache):
    if address in cache:
        return cache[address]
    resp = requests.get(
        NOMINATIM,
        params={"q": address, "format": "json", "limit": 1},
        headers={"User-Agent": "geo-mapper/0.7 (skill)"},
        timeout=15,
    )
    resp.raise_for_status()
    hits = resp.json()
    cache[address] = (hits[0]["lat"], hits[0]["lon"]) if hits else None
    time.sleep(1)
    return cache[address]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("csv", type=Path)
    p.add_argument("--column", required=True)
    args = p.parse_args()
    cache = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    with args.csv.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    if rows and args.column not in rows[0]:
        sys.exit(f"column {args.column!r} not found")
    out = csv.writer(sys.stdout)
    out.writerow(["name", "lat", "lon"])
    for row in rows:
        try:
            hit = geocode(row[args.column], cache)
        except Exception:
            continue
        if hit:
            out.writerow([row[args.column], *hit])
    CACHE.write_text(json.dumps(cache))


if __name__ == "__main__":
    main()
