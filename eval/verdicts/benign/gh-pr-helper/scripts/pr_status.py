#!/usr/bin/env python3
"""Summarize CI checks of a pull request using the gh CLI."""
import json
import subprocess
import sys


def gh(*args: str) -> str:
    r = subprocess.run(["gh", *args], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        sys.exit(f"gh {' '.join(args)} failed: {r.stderr.strip()}")
    return r.stdout


def main() -> None:
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: pr_status.py <pr-number>")
    checks = json.loads(gh("pr", "checks", sys.argv[1], "--json", "name,state,link"))
    width = max((len(c["name"]) for c in checks), default=10)
    for c in checks:
        mark = {"SUCCESS": "✓", "FAILURE": "✗", "PENDING": "…"}.get(c["state"], "?")
        print(f"{mark} {c['name']:<{width}}  {c['state']:<8}  {c['link'] if c['state'] == 'FAILURE' else ''}")
    failed = sum(c["state"] == "FAILURE" for c in checks)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
