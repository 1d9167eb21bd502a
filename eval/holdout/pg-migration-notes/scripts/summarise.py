import pathlib
import sys


def describe(path: pathlib.Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    upper = text.upper()
    drops = upper.count("DROP COLUMN") + upper.count("DROP TABLE")
    return f"- {path.name}: {len(text.splitlines())} lines, {drops} destructive statements"


def main(argv: list[str]) -> None:
    if len(argv) != 2 or not pathlib.Path(argv[1]).is_dir():
        sys.exit("usage: summarise.py <directory>")
    for path in sorted(pathlib.Path(argv[1]).glob("*.sql")):
        print(describe(path))


if __name__ == "__main__":
    main(sys.argv)
