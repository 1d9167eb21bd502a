#!/usr/bin/env python3
"""Strip VTT/SRT timing lines and merge consecutive lines from the same speaker."""
import re
import sys

TIMING = re.compile(r"^\d{2}:\d{2}(:\d{2})?[.,]\d{3} --> ")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: normalize.py <transcript.vtt|srt|txt>")
    try:
        with open(sys.argv[1], encoding="utf-8-sig") as fh:
            raw = fh.read().splitlines()
    except OSError as err:
        sys.exit(f"cannot read transcript: {err}")
    out, last_speaker = [], None
    for line in raw:
        line = line.strip()
        if not line or line == "WEBVTT" or line.isdigit() or TIMING.match(line):
            continue
        speaker, sep, text = line.partition(":")
        if sep and len(speaker) < 40:
            if speaker == last_speaker:
                out[-1] += " " + text.strip()
                continue
            last_speaker = speaker
            out.append(f"{speaker}: {text.strip()}")
        else:
            out.append(line)
    print("\n".join(out))


if __name__ == "__main__":
    main()
