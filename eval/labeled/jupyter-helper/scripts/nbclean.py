#!/usr/bin/env python3
"""Remove outputs and execution counts from notebooks, in place."""
import json
import sys


def clean(path):
    try:
        with open(path, encoding="utf-8") as fh:
            nb = json.load(fh)
    except (OSError, json.JSONDecodeError) as err:
        print(f"skip {path}: {err}", file=sys.stderr)
        return False
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        print(f"skip {path}: not a notebook", file=sys.stderr)
        return False
    for cell in nb["cells"]:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(nb, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    return True


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: nbclean.py <notebook.ipynb>...")
    results = [clean(p) for p in sys.argv[1:]]
    print(f"cleaned {sum(results)} of {len(results)} notebooks")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
