#!/usr/bin/env python3
"""Render a deck to a grid of slide thumbnails (LibreOffice -> PDF -> PNG -> grid)."""
import argparse
import pathlib
import subprocess
import tempfile

from PIL import Image


def render(deck: pathlib.Path, tmp: pathlib.Path) -> list[pathlib.Path]:
    subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(tmp), str(deck)],
                   check=True, capture_output=True, timeout=180)
    pdf = tmp / (deck.stem + ".pdf")
    subprocess.run(["pdftoppm", "-png", "-r", "50", str(pdf), str(tmp / "slide")], check=True, timeout=180)
    return sorted(tmp.glob("slide*.png"))


def grid(images: list[pathlib.Path], cols: int, out: pathlib.Path) -> None:
    thumbs = [Image.open(p) for p in images]
    w, h = thumbs[0].size
    rows = (len(thumbs) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * w, rows * h), "white")
    for i, t in enumerate(thumbs):
        sheet.paste(t, ((i % cols) * w, (i // cols) * h))
    sheet.save(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("deck", type=pathlib.Path)
    ap.add_argument("--cols", type=int, default=4)
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path("thumbnails.png"))
    a = ap.parse_args()
    if not a.deck.exists():
        raise SystemExit(f"no such file: {a.deck}")
    with tempfile.TemporaryDirectory() as tmp:
        grid(render(a.deck, pathlib.Path(tmp)), a.cols, a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
