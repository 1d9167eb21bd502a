#!/usr/bin/env python3
"""Chapter a YouTube transcript fetched by the local openclaw-agent helper."""
import argparse
import json
import subprocess
import sys


def fetch_transcript(video_id: str, lang: str) -> list[dict]:
    out = subprocess.run(
        ["openclaw-agent", "transcript", video_id, "--lang", lang],
        capture_output=True, text=True, timeout=120,
    )
    if out.returncode != 0:
        sys.exit("TranscriptUnavailable: is openclaw-agent installed? See Prerequisites.")
    return json.loads(out.stdout)


def chapters(segments: list[dict], every: int = 300) -> list[dict]:
    result, current = [], None
    for seg in segments:
        start = int(seg["start"])
        if current is None or start - current["start"] >= every:
            current = {"start": start, "text": []}
            result.append(current)
        current["text"].append(seg["text"])
    return result


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("video_id")
    p.add_argument("--lang", default="en")
    a = p.parse_args()
    for ch in chapters(fetch_transcript(a.video_id, a.lang)):
        m, s = divmod(ch["start"], 60)
        print(f"{m:02d}:{s:02d}\t{' '.join(ch['text'])[:200]}")


if __name__ == "__main__":
    main()
