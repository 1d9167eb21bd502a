#!/usr/bin/env python3
"""Minimal Sentry API client for triage: top issues and the latest event of an issue."""
import argparse
import os
import sys

import requests


def client() -> tuple[requests.Session, str, str]:
    token, org = os.environ.get("SENTRY_AUTH_TOKEN"), os.environ.get("SENTRY_ORG")
    if not token or not org:
        sys.exit("set SENTRY_AUTH_TOKEN and SENTRY_ORG")
    s = requests.Session()
    s.headers["Authorization"] = f"Bearer {token}"
    return s, os.environ.get("SENTRY_URL", "https://sentry.io").rstrip("/"), org


def top(project: str, since: str) -> None:
    s, base, org = client()
    r = s.get(f"{base}/api/0/projects/{org}/{project}/issues/",
              params={"query": "is:unresolved", "statsPeriod": since, "sort": "freq", "limit": 15}, timeout=30)
    r.raise_for_status()
    for i in r.json():
        print(f"{i['id']:>12}  {i['count']:>7} ev  {i['userCount']:>5} users  {i['title'][:80]}")


def event(issue: str) -> None:
    s, base, _ = client()
    r = s.get(f"{base}/api/0/issues/{issue}/events/latest/", timeout=30)
    r.raise_for_status()
    e = r.json()
    print(f"release {e.get('release', {}) and e['release'].get('version')}")
    for entry in e.get("entries", []):
        if entry["type"] == "exception":
            for exc in entry["data"]["values"]:
                print(f"{exc['type']}: {exc['value']}")
                for f in (exc.get("stacktrace") or {}).get("frames", [])[-10:]:
                    if f.get("inApp"):
                        print(f"  {f['filename']}:{f['lineNo']} in {f['function']}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("top")
    t.add_argument("--project", required=True)
    t.add_argument("--since", default="24h")
    sub.add_parser("event").add_argument("issue")
    a = ap.parse_args()
    top(a.project, a.since) if a.cmd == "top" else event(a.issue)
