import json
import pathlib
import re
import sys

HIDDEN = re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]")
COMMENT = re.compile(r"<!--.*?-->", re.S)
MAX_BYTES = 2_000_000


def load_rules():
    path = pathlib.Path(__file__).resolve().parent.parent / "rules.json"
    with path.open(encoding="utf-8") as fh:
        raw = json.load(fh)
    return {rule: [re.compile(p, re.I) for p in patterns] for rule, patterns in raw.items()}


def lint_text(name, text, rules):
    for number, line in enumerate(text.splitlines(), start=1):
        if HIDDEN.search(line):
            yield name, number, "hidden"
        for rule, patterns in rules.items():
            if any(p.search(line) for p in patterns):
                yield name, number, rule
    for match in COMMENT.finditer(text):
        yield name, text.count("\n", 0, match.start()) + 1, "comment"


def files_under(target):
    if target.is_file():
        return [target]
    return sorted(p for p in target.rglob("*") if p.is_file() and p.suffix in {".md", ".txt", ".json"})


def main(argv):
    if len(argv) != 2 or not pathlib.Path(argv[1]).exists():
        sys.exit("usage: lint.py <file-or-folder>")
    rules = load_rules()
    for path in files_under(pathlib.Path(argv[1])):
        if path.stat().st_size > MAX_BYTES:
            print(f"{path}: skipped, larger than {MAX_BYTES} bytes")
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for name, number, rule in lint_text(str(path), text, rules):
            print(f"{name}:{number}: {rule}")


if __name__ == "__main__":
    main(sys.argv)
