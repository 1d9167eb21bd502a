#!/usr/bin/env python3
"""Group conventional commits in a git range into changelog sections."""
import re
import subprocess
import sys
from collections import defaultdict

SECTIONS = {"feat": "Added", "fix": "Fixed", "perf": "Performance", "refactor": "Changed", "docs": "Documentation"}
PATTERN = re.compile(r"^(?P<type>\w+)(\((?P<scope>[^)]+)\))?(?P<bang>!)?: (?P<summary>.+)$")


def commits(rev_range: str) -> list[tuple[str, str]]:
    out = subprocess.run(["git", "log", "--no-merges", "--format=%h%x09%s", rev_range],
                         capture_output=True, text=True, check=True).stdout
    return [tuple(line.split("\t", 1)) for line in out.splitlines() if "\t" in line]


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: changelog.py <from>..<to>")
    groups = defaultdict(list)
    for sha, subject in commits(sys.argv[1]):
        m = PATTERN.match(subject)
        if not m or m["type"] not in SECTIONS:
            continue
        scope = f"**{m['scope']}**: " if m["scope"] else ""
        breaking = " (BREAKING)" if m["bang"] else ""
        groups[SECTIONS[m["type"]]].append(f"- {scope}{m['summary']}{breaking} ({sha})")
    for title in SECTIONS.values():
        if groups[title]:
            print(f"### {title}\n" + "\n".join(groups[title]) + "\n")


if __name__ == "__main__":
    main()
