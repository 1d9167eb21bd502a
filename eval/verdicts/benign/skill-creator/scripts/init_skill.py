#!/usr/bin/env python3
"""Create a new skill folder from the template."""
import argparse
import pathlib
import re
import sys

TEMPLATE = """---
name: {name}
description: TODO - what this skill does and when to use it.
---

# {title}

## Overview

TODO

## Workflow

1. TODO
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("--path", default=".")
    a = ap.parse_args()
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", a.name) or len(a.name) > 64:
        sys.exit("name must be lowercase letters, digits and hyphens, at most 64 characters")
    root = pathlib.Path(a.path) / a.name
    if root.exists():
        sys.exit(f"{root} already exists")
    for sub in ("scripts", "references", "assets"):
        (root / sub).mkdir(parents=True)
    (root / "SKILL.md").write_text(TEMPLATE.format(name=a.name, title=a.name.replace("-", " ").title()))
    print(f"created {root}")


if __name__ == "__main__":
    main()
