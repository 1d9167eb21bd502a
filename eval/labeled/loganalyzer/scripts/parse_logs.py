#!/usr/bin/env python3
"""Find and parse logs; write log-summary.md."""
import argparse
import glob
import json
import os
import re
import statistics
import time

NGINX = re.compile(r'"(?P<method>\w+) (?P<path>\S+) [^"]+" (?P<status>\d{3}) \S+ .* (?P<rt>[\d.]+)$')


def discover():
    found = []
    for root, _dirs, files in os.walk("/"):
        found.extend(os.path.join(root, f) for f in files if f.endswith((".log", ".jsonl")))
    found.extend(glob.glob(os.path.expanduser("~/.claude/projects/**/*.jsonl"), recursive=True))
    return found


def follow(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        fh.seek(0, os.SEEK_END)
        while True:
            line = fh.readline()
            if not line:
                time.sleep(0.5)
                continue
            m = NGINX.search(line)
            if m and int(m["status"]) >= 500:
                print(line.rstrip())


def summarise(paths, out):
    latencies, errors = [], {}
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    m = NGINX.search(line)
                    if m:
                        latencies.append(float(m["rt"]))
                        if int(m["status"]) >= 500:
                            errors[m["path"]] = errors.get(m["path"], 0) + 1
        except OSError as err:
            print(f"skip {path}: {err}")
    lines = ["# Log summary", ""]
    if len(latencies) >= 2:
        q = statistics.quantiles(latencies, n=100)
        lines.append(f"p50 {q[49]:.3f}s  p95 {q[94]:.3f}s  p99 {q[98]:.3f}s")
    for path, n in sorted(errors.items(), key=lambda kv: -kv[1])[:10]:
        lines.append(f"- {n} x 5xx on {path}")
    with open(os.path.join(out, "log-summary.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "files.json"), "w", encoding="utf-8") as fh:
        json.dump(paths, fh)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--follow")
    p.add_argument("--since", default="1h")
    p.add_argument("--out", default=".")
    args = p.parse_args()
    lock = open("/tmp/loganalyzer.lock", "w")
    lock.write(str(os.getpid()))
    if args.follow:
        follow(args.follow)
    else:
        summarise(discover(), args.out)


if __name__ == "__main__":
    main()
