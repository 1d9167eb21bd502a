#!/usr/bin/env python3
"""Small PDF utility: text, merge, split, meta."""
import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader, PdfWriter


def existing_pdf(value):
    path = Path(value)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {value}")
    return path


def page_ranges(spec, count):
    pages = []
    for part in spec.split(","):
        start, _, end = part.partition("-")
        if not start.isdigit() or (end and not end.isdigit()):
            raise SystemExit(f"bad page range: {part!r}")
        a, b = int(start), int(end or start)
        if not 1 <= a <= b <= count:
            raise SystemExit(f"page range {part} outside 1-{count}")
        pages.extend(range(a - 1, b))
    return pages


def cmd_text(args):
    if shutil.which("pdftotext") is None:
        sys.exit("pdftotext not found: ask the user to install poppler (see SKILL.md)")
    subprocess.run(["pdftotext", "-layout", str(args.pdf), "-"], check=True, timeout=120)


def cmd_merge(args):
    writer = PdfWriter()
    for pdf in args.inputs:
        writer.append(str(pdf))
    with open(args.out, "wb") as fh:
        writer.write(fh)


def cmd_split(args):
    reader = PdfReader(str(args.pdf))
    writer = PdfWriter()
    for i in page_ranges(args.pages, len(reader.pages)):
        writer.add_page(reader.pages[i])
    out = args.pdf.with_name(f"{args.pdf.stem}-{args.pages.replace(',', '_')}.pdf")
    with open(out, "wb") as fh:
        writer.write(fh)
    print(out)


def cmd_meta(args):
    reader = PdfReader(str(args.pdf))
    print(f"pages: {len(reader.pages)}")
    for key, value in (reader.metadata or {}).items():
        print(f"{key.lstrip('/')}: {value}")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("text")
    t.add_argument("pdf", type=existing_pdf)
    m = sub.add_parser("merge")
    m.add_argument("out")
    m.add_argument("inputs", nargs="+", type=existing_pdf)
    s = sub.add_parser("split")
    s.add_argument("pdf", type=existing_pdf)
    s.add_argument("pages")
    meta = sub.add_parser("meta")
    meta.add_argument("pdf", type=existing_pdf)
    args = p.parse_args()
    {"text": cmd_text, "merge": cmd_merge, "split": cmd_split, "meta": cmd_meta}[args.cmd](args)


if __name__ == "__main__":
    main()
