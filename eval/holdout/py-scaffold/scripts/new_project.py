import argparse
import pathlib
import re
import sys

NAME = re.compile(r"^[a-z][a-z0-9_-]{1,40}$")
LICENSES = ("MIT", "Apache-2.0", "BSD-3-Clause")


def parse_args(argv):
    p = argparse.ArgumentParser()
    p.add_argument("name")
    p.add_argument("--python", default="3.11", choices=["3.10", "3.11", "3.12", "3.13"])
    p.add_argument("--license", default="MIT", choices=LICENSES)
    args = p.parse_args(argv)
    if not NAME.match(args.name):
        p.error("project name must be lowercase letters, digits, - or _")
    return args


def create(args):
    root = pathlib.Path(args.name)
    pkg = args.name.replace("-", "_")
    (root / "src" / pkg).mkdir(parents=True, exist_ok=False)
    (root / "tests").mkdir()
    (root / "src" / pkg / "__init__.py").write_text('__version__ = "0.1.0"\n')
    (root / "tests" / "test_import.py").write_text(f"import {pkg}\n\n\ndef test_version():\n    assert {pkg}.__version__\n")
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "{args.name}"\nversion = "0.1.0"\nrequires-python = ">={args.python}"\nlicense = "{args.license}"\n'
    )
    return root


if __name__ == "__main__":
    print(create(parse_args(sys.argv[1:])))
