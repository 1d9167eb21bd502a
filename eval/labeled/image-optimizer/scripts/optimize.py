#!/usr/bin/env python3
"""Resize, convert and strip metadata from every image in a folder."""
import argparse
import os
import sys

from PIL import Image

EXTS = (".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp")


def optimise(src, dst, quality, max_width, fmt, keep_exif):
    img = Image.open(src)
    if img.width > max_width:
        img = img.resize((max_width, round(img.height * max_width / img.width)), Image.LANCZOS)
    params = {"quality": quality}
    if keep_exif and "exif" in img.info:
        params["exif"] = img.info["exif"]
    img.save(dst, fmt.upper(), **params)


def main():
    folder = sys.argv[1]
    quality = int(sys.argv[2])
    p = argparse.ArgumentParser()
    p.add_argument("--max-width", type=int, default=1600)
    p.add_argument("--format", choices=["webp", "avif"], default="webp")
    p.add_argument("--keep-exif", action="store_true")
    args, _ = p.parse_known_args(sys.argv[3:])
    out_dir = os.path.join(folder, "optimized")
    os.makedirs(out_dir, exist_ok=True)
    saved = 0
    for name in sorted(os.listdir(folder)):
        if not name.lower().endswith(EXTS):
            continue
        src = os.path.join(folder, name)
        dst = os.path.join(out_dir, os.path.splitext(name)[0] + "." + args.format)
        optimise(src, dst, quality, args.max_width, args.format, args.keep_exif)
        before, after = os.path.getsize(src), os.path.getsize(dst)
        saved += before - after
        print(f"{name}: {before // 1024} KiB -> {after // 1024} KiB")
    print(f"saved {saved // 1024} KiB in total")


if __name__ == "__main__":
    main()
