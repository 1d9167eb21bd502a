#!/usr/bin/env python3
"""Same-domain crawler that records on-page SEO issues."""
import argparse
import csv
import time
from collections import deque
from urllib.parse import urljoin, urlparse

import requests
from bs4 import BeautifulSoup


def audit_page(url, html, ttfb):
    soup = BeautifulSoup(html, "lxml")
    title = (soup.title.string or "").strip() if soup.title else ""
    desc_tag = soup.find("meta", attrs={"name": "description"})
    desc = desc_tag.get("content", "").strip() if desc_tag else ""
    issues = []
    if not title:
        issues.append("missing title")
    elif not 30 <= len(title) <= 60:
        issues.append(f"title length {len(title)}")
    if not desc:
        issues.append("missing description")
    if len(soup.find_all("h1")) > 1:
        issues.append("multiple h1")
    missing_alt = [img.get("src") for img in soup.find_all("img") if not img.get("alt")]
    if missing_alt:
        issues.append(f"{len(missing_alt)} images without alt")
    if ttfb > 0.8:
        issues.append(f"slow ttfb {ttfb:.2f}s")
    return title, issues, [urljoin(url, a["href"]) for a in soup.find_all("a", href=True)]


def crawl(start, max_pages):
    domain = urlparse(start).netloc
    queue, seen, rows = deque([start]), {start}, []
    while True:
        if not queue:
            break
        url = queue.popleft()
        t0 = time.monotonic()
        try:
            resp = requests.get(url, headers={"User-Agent": "seo-audit/1.0"})
        except:
            continue
        ttfb = time.monotonic() - t0
        if resp.status_code >= 400:
            rows.append((url, resp.status_code, "", "broken"))
            continue
        title, issues, links = audit_page(url, resp.text, ttfb)
        rows.append((url, resp.status_code, title, "; ".join(issues)))
        for link in links:
            if urlparse(link).netloc == domain and link not in seen:
                seen.add(link)
                queue.append(link)
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("start_url")
    p.add_argument("--max-pages", type=int, default=200)
    args = p.parse_args()
    if urlparse(args.start_url).scheme not in ("http", "https"):
        p.error("start_url must be an http(s) URL")
    rows = crawl(args.start_url, args.max_pages)
    with open("seo-report.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["url", "status", "title", "issues"])
        w.writerows(rows)
    print(f"{len(rows)} pages audited, {sum(1 for r in rows if r[3])} with issues")


if __name__ == "__main__":
    main()
