#!/usr/bin/env python3
"""Write a redacted copy of a log file to stdout; counts per rule go to stderr."""
import argparse
import re
import sys
from collections import Counter

# Patterns for secrets as they appear in logs. They only match text; nothing is looked up or sent.
RULES = [
    ("private-key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S)),
    ("aws-access-key", re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b")),
    ("slack-token", re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}\b")),
    ("openai-key", re.compile(r"\bsk-[A-Za-z0-9_-]{20,}\b")),
    ("bearer", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*")),
    ("url-password", re.compile(r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)")),
    ("kv-secret", re.compile(r"(?i)\b(password|passwd|secret|token|api_key)\s*[=:]\s*\S+")),
    ("email", re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b")),
    ("ipv4", re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")),
]
MAX_BYTES = 200 * 1024 * 1024


def redact(text, counts):
    for name, rx in RULES:
        text, n = rx.subn(f"[REDACTED:{name}]", text)
        counts[name] += n
    return text


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("logfile", type=argparse.FileType("r", encoding="utf-8", errors="replace"))
    args = p.parse_args()
    with args.logfile as fh:
        text = fh.read(MAX_BYTES + 1)
    if len(text) > MAX_BYTES:
        sys.exit("log file larger than 200 MiB: split it first")
    counts = Counter()
    sys.stdout.write(redact(text, counts))
    for name, _ in RULES:
        print(f"{counts[name]:6d}  {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
