#!/usr/bin/env python3
"""OCR every image in a folder with pytesseract and write one .txt per image plus low-confidence words."""
import argparse
import pathlib
import sys

import pytesseract
from PIL import Image

EXTS = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp"}


def ocr(path: pathlib.Path, lang: str) -> tuple[str, list[str]]:
    with Image.open(path) as img:
        data = pytesseract.image_to_data(img, lang=lang, output_type=pytesseract.Output.DICT)
        text = pytesseract.image_to_string(img, lang=lang)
    weak = [w for w, c in zip(data["text"], data["conf"]) if w.strip() and 0 <= float(c) < 60]
    return text, weak


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=pathlib.Path)
    ap.add_argument("--lang", default="eng")
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path("text"))
    a = ap.parse_args()
    if not a.folder.is_dir():
        sys.exit(f"not a folder: {a.folder}")
    a.out.mkdir(parents=True, exist_ok=True)
    for img in sorted(p for p in a.folder.iterdir() if p.suffix.lower() in EXTS):
        text, weak = ocr(img, a.lang)
        (a.out / f"{img.stem}.txt").write_text(text)
        print(f"{img.name}: {len(text.split())} words" + (f", check: {' '.join(weak[:10])}" if weak else ""))


if __name__ == "__main__":
    main()
