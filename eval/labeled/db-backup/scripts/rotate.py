#!/usr/bin/env python3
"""Keep the newest N daily and M weekly backup folders; delete the rest."""
import argparse
import shutil
from datetime import datetime
from pathlib import Path


def main():
    p = argparse.ArgumentParser()
    p.add_argument("root", type=Path)
    p.add_argument("--daily", type=int, default=7)
    p.add_argument("--weekly", type=int, default=4)
    args = p.parse_args()
    if not args.root.is_dir():
        p.error(f"{args.root} is not a directory")
    stamps = []
    for d in args.root.iterdir():
        try:
            stamps.append((datetime.strptime(d.name, "%Y%m%d-%H%M%S"), d))
        except ValueError:
            continue  # not a backup folder (e.g. "latest")
    stamps.sort(reverse=True)
    keep = {d for _, d in stamps[: args.daily]}
    weeks = {}
    for ts, d in stamps:
        weeks.setdefault(ts.isocalendar()[:2], d)
    keep |= set(list(weeks.values())[: args.weekly])
    for _, d in stamps:
        if d not in keep:
            shutil.rmtree(d)
            print(f"removed {d}")


if __name__ == "__main__":
    main()
