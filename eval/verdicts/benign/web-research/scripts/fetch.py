#!/usr/bin/env python3
"""Fetch a web page politely (robots.txt, timeout, size cap) and print its readable text."""
import sys
import urllib.parse
import urllib.robotparser

import requests
from bs4 import BeautifulSoup

UA = "web-research-skill/1.0 (+https://example.com/bot)"
MAX_BYTES = 2_000_000


def allowed(url: str) -> bool:
    parts = urllib.parse.urlsplit(url)
    rp = urllib.robotparser.RobotFileParser(f"{parts.scheme}://{parts.netloc}/robots.txt")
    try:
        rp.read()
    except OSError:
        return True
    return rp.can_fetch(UA, url)


def fetch(url: str) -> str:
    with requests.get(url, headers={"User-Agent": UA}, timeout=20, stream=True) as r:
        r.raise_for_status()
        body = r.raw.read(MAX_BYTES, decode_content=True)
    soup = BeautifulSoup(body, "html.parser")
    for tag in soup(["script", "style", "nav", "footer", "noscript"]):
        tag.decompose()
    title = soup.title.get_text(strip=True) if soup.title else url
    text = "\n".join(line.strip() for line in soup.get_text("\n").splitlines() if line.strip())
    return f"# {title}\n\n{text}"


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].startswith(("http://", "https://")):
        sys.exit("usage: fetch.py <http(s) url>")
    if not allowed(sys.argv[1]):
        sys.exit("disallowed by robots.txt")
    print(fetch(sys.argv[1]))
