#!/usr/bin/env python3
"""Make a good-looking GIF from a video with ffmpeg's two-pass palette method."""
import argparse
import pathlib
import shutil
import subprocess
import sys
import tempfile


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("input", type=pathlib.Path)
    ap.add_argument("--fps", type=int, default=12)
    ap.add_argument("--width", type=int, default=480)
    ap.add_argument("-o", "--output", type=pathlib.Path)
    a = ap.parse_args()
    if not shutil.which("ffmpeg"):
        sys.exit("ffmpeg not found; see Install in SKILL.md")
    if not a.input.is_file():
        sys.exit(f"no such file: {a.input}")
    out = a.output or a.input.with_suffix(".gif")
    filters = f"fps={a.fps},scale={a.width}:-1:flags=lanczos"
    with tempfile.TemporaryDirectory() as tmp:
        palette = pathlib.Path(tmp) / "palette.png"
        subprocess.run(["ffmpeg", "-y", "-i", str(a.input), "-vf", f"{filters},palettegen", str(palette)],
                       check=True, capture_output=True, timeout=600)
        subprocess.run(["ffmpeg", "-y", "-i", str(a.input), "-i", str(palette), "-lavfi",
                        f"{filters}[x];[x][1:v]paletteuse", str(out)], check=True, capture_output=True, timeout=600)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
