#!/usr/bin/env python3
"""Report prompt-injection and exfiltration red flags in a folder of text files. Read-only."""
import argparse
import re
import sys
from collections import Counter
from pathlib import Path

# Rule catalogue: id -> regex. Patterns describe attacker text; nothing here is executed.
RULES = {
    "override-phrase": re.compile(r"ignore (all )?(previous|prior) instructions|developer mode", re.I),
    "html-comment": re.compile(r"<!--.*?(assistant|agent|ai)\b", re.I),
    "pipe-to-shell": re.compile(r"(curl|wget)[^|\n]*\|\s*(ba|z)?sh\b"),
    "env-dump": re.compile(r"os\.environ\b|process\.env\b(?!\.)"),
    "credential-path": re.compile(r"~/\.(ssh|aws|kube)|\.git-credentials|\.netrc"),
    "invisible-unicode": re.compile("[\u200b-\u200f\u202a-\u202e\U000e0000-\U000e007f]"),
}
TEXT_SUFFIXES = {".md", ".txt", ".py", ".sh", ".js", ".ts", ".json", ".yaml", ".yml", ".toml", ".ps1"}
MAX_BYTES = 2_000_000


def scan_file(path):
    try:
        if path.stat().st_size > MAX_BYTES:
            return [("skipped-large-file", 0, "")]
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        return [("unreadable", 0, str(err))]
    hits = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for rule, rx in RULES.items():
            if rx.search(line):
                excerpt = line.strip().encode("unicode_escape").decode("ascii")[:100]
                hits.append((rule, lineno, excerpt))
    return hits


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("folder", type=Path)
    args = p.parse_args()
    if not args.folder.is_dir():
        sys.exit(f"not a folder: {args.folder}")
    counts = Counter()
    for path in sorted(args.folder.rglob("*")):
        if path.is_symlink() or not path.is_file() or path.suffix.lower() not in TEXT_SUFFIXES:
            continue
        for rule, lineno, excerpt in scan_file(path):
            counts[rule] += 1
            print(f"{path.relative_to(args.folder)}:{lineno}  {rule}  {excerpt}")
    for rule, n in counts.most_common():
        print(f"{n:5d}  {rule}")


if __name__ == "__main__":
    main()
