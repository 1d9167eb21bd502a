#!/usr/bin/env python3
"""OCR an image with Tesseract; print text to stdout and low-confidence pages to stderr."""
import argparse
import re
import shutil
import sys
from pathlib import Path

import pytesseract
from PIL import Image, ImageSequence

LANG = re.compile(r"^[a-z]{3}(_[a-z]+)?(\+[a-z]{3}(_[a-z]+)?)*$")
LOW_CONFIDENCE = 70
TIMEOUT_S = 120


def page_text(page, lang):
    data = pytesseract.image_to_data(page, lang=lang, output_type=pytesseract.Output.DICT, timeout=TIMEOUT_S)
    confs = [float(c) for c in data["conf"] if float(c) >= 0]
    words = [w for w in data["text"] if w.strip()]
    return " ".join(words), (sum(confs) / len(confs) if confs else 0.0)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("image", type=Path)
    p.add_argument("--lang", default="eng")
    args = p.parse_args()
    if not args.image.is_file():
        sys.exit(f"no such file: {args.image}")
    if not LANG.match(args.lang):
        sys.exit(f"bad --lang {args.lang!r}; use Tesseract codes like eng or eng+deu")
    if shutil.which("tesseract") is None:
        sys.exit("tesseract not found: ask the user to install it (see README.md)")
    try:
        with Image.open(args.image) as img:
            for number, page in enumerate(ImageSequence.Iterator(img), 1):
                text, conf = page_text(page.convert("L"), args.lang)
                print(text)
                if conf < LOW_CONFIDENCE:
                    print(f"page {number}: mean confidence {conf:.0f}", file=sys.stderr)
    except (OSError, RuntimeError, pytesseract.TesseractError) as err:
        sys.exit(f"OCR failed: {err}")


if __name__ == "__main__":
    main()
