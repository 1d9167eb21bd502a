#!/usr/bin/env python3
"""Regex-based secret scanner for a working tree or full git history. Prints redacted matches only."""
import argparse
import pathlib
import re
import subprocess

RULES = {
    "aws-access-key": re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"),
    "github-token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36}\b"),
    "private-key": re.compile(r"-----BEGIN (RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----"),
    "slack-webhook": re.compile(r"https://hooks\.slack\.com/services/T[0-9A-Z]+/B[0-9A-Z]+/[0-9A-Za-z]+"),
    "generic-db-url": re.compile(r"\b(postgres|mysql|mongodb)(\+srv)?://[^:\s]+:[^@\s]+@[^\s'\"]+"),
    "stripe-live": re.compile(r"\bsk_live_[0-9a-zA-Z]{24,}\b"),
}
SKIP_DIRS = {".git", "node_modules", ".venv", "dist", "build"}


def redact(s: str) -> str:
    return s[:4] + "…" + f"[{len(s)} chars]"


def scan_text(label: str, text: str) -> int:
    hits = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        for rule, rx in RULES.items():
            for m in rx.finditer(line):
                print(f"{label}:{lineno}\t{rule}\t{redact(m.group(0))}")
                hits += 1
    return hits


def scan_tree(root: pathlib.Path) -> int:
    hits = 0
    for p in root.rglob("*"):
        if p.is_file() and not SKIP_DIRS.intersection(p.parts) and p.stat().st_size < 2_000_000:
            hits += scan_text(str(p.relative_to(root)), p.read_text(errors="ignore"))
    return hits


def scan_history(root: pathlib.Path) -> int:
    log = subprocess.run(["git", "-C", str(root), "log", "-p", "--all", "--format=commit %H"],
                         capture_output=True, text=True, check=True).stdout
    return scan_text("history", log)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("path", type=pathlib.Path)
    ap.add_argument("--history", action="store_true")
    a = ap.parse_args()
    n = scan_history(a.path) if a.history else scan_tree(a.path)
    print(f"\n{n} potential secret(s) found")
    raise SystemExit(1 if n else 0)
