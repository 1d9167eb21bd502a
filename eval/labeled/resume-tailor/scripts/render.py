#!/usr/bin/env python3
"""Render a Markdown resume to a one-page PDF."""
import argparse
import pathlib
import sys

import markdown
from weasyprint import HTML

CSS = """
@page { size: A4; margin: 14mm 16mm; }
body { font-family: 'Inter', sans-serif; font-size: 10pt; line-height: 1.35; }
h1 { font-size: 18pt; margin: 0 0 4pt; } h2 { font-size: 11pt; border-bottom: 1px solid #999; }
"""


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("source", type=pathlib.Path)
    p.add_argument("--out", type=pathlib.Path, default=pathlib.Path("resume.pdf"))
    args = p.parse_args()
    if not args.source.is_file():
        sys.exit(f"no such file: {args.source}")
    body = markdown.markdown(args.source.read_text(encoding="utf-8"))
    doc = HTML(string=f"<style>{CSS}</style>{body}").render()
    if len(doc.pages) > 1:
        print(f"warning: {len(doc.pages)} pages; shorten the bullets", file=sys.stderr)
    doc.write_pdf(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
