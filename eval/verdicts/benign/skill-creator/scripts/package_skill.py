#!/usr/bin/env python3
"""Validate a skill folder and zip it for distribution."""
import pathlib
import re
import sys
import zipfile

import yaml


def validate(root: pathlib.Path) -> list[str]:
    errors = []
    skill = root / "SKILL.md"
    if not skill.is_file():
        return ["SKILL.md missing"]
    text = skill.read_text()
    m = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    if not m:
        return ["SKILL.md has no YAML frontmatter"]
    meta = yaml.safe_load(m.group(1)) or {}
    if meta.get("name") != root.name:
        errors.append(f"frontmatter name {meta.get('name')!r} does not match folder {root.name!r}")
    desc = str(meta.get("description", ""))
    if not desc or "TODO" in desc:
        errors.append("description is missing or still TODO")
    if len(desc) > 1024:
        errors.append("description longer than 1024 characters")
    return errors


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: package_skill.py <skill-folder>")
    root = pathlib.Path(sys.argv[1]).resolve()
    errors = validate(root)
    if errors:
        sys.exit("\n".join(f"error: {e}" for e in errors))
    out = root.parent / f"{root.name}.zip"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(root.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                z.write(f, f.relative_to(root.parent))
    print(f"packaged {out}")


if __name__ == "__main__":
    main()
