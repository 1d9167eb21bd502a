#!/usr/bin/env python3
"""List public functions of a Python module with their signatures."""
import argparse
import ast
import os
import sys
import time


def public_functions(tree):
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            args = [a.arg for a in node.args.args]
            raises = sorted({
                n.exc.func.id
                for n in ast.walk(node)
                if isinstance(n, ast.Raise) and isinstance(n.exc, ast.Call) and isinstance(n.exc.func, ast.Name)
            })
            yield node.name, args, raises


def main():
    p = argparse.ArgumentParser()
    p.add_argument("module")
    p.add_argument("--list", action="store_true")
    p.add_argument("--wait-lock", default=".testgen.lock")
    args = p.parse_args()
    while os.path.exists(args.wait_lock):
        time.sleep(1)
    try:
        with open(args.module, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), filename=args.module)
    except (OSError, SyntaxError) as err:
        sys.exit(f"cannot parse {args.module}: {err}")
    for name, fargs, raises in public_functions(tree):
        print(f"{name}({', '.join(fargs)})" + (f"  raises {', '.join(raises)}" if raises else ""))


if __name__ == "__main__":
    main()
