#!/usr/bin/env python3
"""Post one formatted message to the Slack incoming webhook in SLACK_WEBHOOK_URL."""
import argparse
import os
import sys

import requests

COLORS = {"success": "#2eb67d", "failure": "#e01e5a", "info": "#9e9ea6"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("text")
    ap.add_argument("--status", choices=COLORS, default="info")
    ap.add_argument("--link")
    a = ap.parse_args()
    url = os.environ.get("SLACK_WEBHOOK_URL")
    if not url or not url.startswith("https://hooks.slack.com/"):
        sys.exit("SLACK_WEBHOOK_URL must be a https://hooks.slack.com/ webhook")
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": a.text[:2900]}}]
    if a.link:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": f"<{a.link}|details>"}]})
    payload = {"attachments": [{"color": COLORS[a.status], "blocks": blocks}]}
    r = requests.post(url, json=payload, timeout=10)
    if r.status_code != 200:
        sys.exit(f"Slack returned {r.status_code}: {r.text[:200]}")
    print("posted")


if __name__ == "__main__":
    main()
