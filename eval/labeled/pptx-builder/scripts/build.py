#!/usr/bin/env python3
"""Build a .pptx deck from a JSON outline."""
import json
import os
import sys

from pptx import Presentation
from pptx.util import Inches, Pt


def add_slide(prs, spec):
    layout = prs.slide_layouts[1 if spec.get("bullets") else 5]
    slide = prs.slides.add_slide(layout)
    slide.shapes.title.text = spec["title"]
    if spec.get("bullets"):
        body = slide.placeholders[1].text_frame
        body.clear()
        for i, bullet in enumerate(spec["bullets"]):
            para = body.paragraphs[0] if i == 0 else body.add_paragraph()
            para.text = bullet
            para.font.size = Pt(20)
    if spec.get("image") and os.path.exists(spec["image"]):
        slide.shapes.add_picture(spec["image"], Inches(5.5), Inches(1.8), width=Inches(4))
    if spec.get("notes"):
        slide.notes_slide.notes_text_frame.text = spec["notes"]


def main():
    outline = json.load(open(sys.argv[1]))
    prs = Presentation()
    for spec in outline:
        add_slide(prs, spec)
    prs.save(sys.argv[2])
    print(f"wrote {sys.argv[2]} ({len(outline)} slides)")


if __name__ == "__main__":
    main()
