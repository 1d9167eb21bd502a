#!/usr/bin/env python3
"""Build a PDF report from Markdown, CSV and PNG files."""
import argparse
import csv
import os
import tempfile

import markdown
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Image, PageBreak, Paragraph, SimpleDocTemplate, Table


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--input", required=True)
    p.add_argument("--title", required=True)
    p.add_argument("--out", default="report.pdf")
    p.add_argument("--confidential", action="store_true")
    args = p.parse_args()
    if not os.path.isdir(args.input):
        p.error(f"--input {args.input!r} is not a directory")
    return args


def md_to_flowables(path, styles):
    with open(path, encoding="utf-8") as fh:
        html = markdown.markdown(fh.read())
    return [Paragraph(block, styles["BodyText"]) for block in html.split("\n") if block.strip()]


def csv_to_table(path):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return Table(rows[:60])


def main():
    args = parse_args()
    styles = getSampleStyleSheet()
    scratch = tempfile.mkdtemp(prefix="pdfreport-")
    log = open(os.path.join(scratch, "build.log"), "w")
    story = [Paragraph(args.title, styles["Title"]), PageBreak()]
    for name in sorted(os.listdir(args.input)):
        path = os.path.join(args.input, name)
        log.write(f"adding {name}\n")
        if name.endswith(".md"):
            story.extend(md_to_flowables(path, styles))
        elif name.endswith(".csv"):
            story.append(csv_to_table(path))
        elif name.endswith(".png"):
            story.append(Image(path, width=A4[0] * 0.8, height=A4[0] * 0.45))
            story.append(Paragraph(name, styles["Italic"]))
    SimpleDocTemplate(args.out, pagesize=A4).build(story)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
