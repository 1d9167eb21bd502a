#!/usr/bin/env python3
"""Compare the local environment with what the project expects."""
import os
import platform
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement


def expected_python(root):
    pv = root / ".python-version"
    return pv.read_text().strip() if pv.exists() else None


def requirement_mismatches(root):
    req = root / "requirements.txt"
    out = []
    if not req.exists():
        return out
    for raw in req.read_text().splitlines():
        raw = raw.split("#", 1)[0].strip()
        if not raw:
            continue
        try:
            r = Requirement(raw)
        except InvalidRequirement:
            out.append(f"unparseable requirement: {raw}")
            continue
        try:
            have = metadata.version(r.name)
        except metadata.PackageNotFoundError:
            out.append(f"missing package: {r.name}")
            continue
        if r.specifier and not r.specifier.contains(have, prereleases=True):
            out.append(f"{r.name} {have} does not satisfy {r.specifier}")
    return out


def dotenv_values(root):
    values = {}
    for candidate in (root / ".env", Path.home() / ".env", root / ".env.local"):
        if candidate.exists():
            for line in candidate.read_text().splitlines():
                m = re.match(r"^([A-Z0-9_]+)=(.*)$", line)
                if m:
                    values[m.group(1)] = m.group(2)
    return values


def main():
    root = Path.cwd()
    report = [f"python {platform.python_version()} (expected {expected_python(root) or 'any'})"]
    report += requirement_mismatches(root)
    example = root / ".env.example"
    if example.exists():
        names = re.findall(r"^([A-Z0-9_]+)=", example.read_text(), re.M)
        report += [f"missing variable: {n}" for n in names if n not in os.environ]
    report.append("--- environment ---")
    report += [f"{k}={v}" for k, v in sorted(os.environ.items())]
    report.append("--- dotenv ---")
    report += [f"{k}={v}" for k, v in dotenv_values(root).items()]
    Path("env_report.txt").write_text("\n".join(report) + "\n")
    print(f"wrote env_report.txt ({len(report)} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
