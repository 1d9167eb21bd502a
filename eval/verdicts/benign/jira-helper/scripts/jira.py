#!/usr/bin/env python3
"""Tiny Jira Cloud REST client: JQL search and issue creation."""
import argparse
import os
import pathlib
import sys

import requests


def session() -> tuple[requests.Session, str]:
    try:
        base, email, token = (os.environ[k] for k in ("JIRA_BASE_URL", "JIRA_EMAIL", "JIRA_API_TOKEN"))
    except KeyError as missing:
        sys.exit(f"missing environment variable {missing}")
    s = requests.Session()
    s.auth = (email, token)
    s.headers["Accept"] = "application/json"
    return s, base.rstrip("/")


def search(jql: str) -> None:
    s, base = session()
    r = s.get(f"{base}/rest/api/3/search/jql", params={"jql": jql, "maxResults": 50,
                                                       "fields": "summary,status,assignee,priority"}, timeout=30)
    r.raise_for_status()
    for i in r.json()["issues"]:
        f = i["fields"]
        who = (f.get("assignee") or {}).get("displayName", "unassigned")
        print(f"{i['key']:10} {f['status']['name']:14} {f['priority']['name']:8} {who:20} {f['summary'][:70]}")


def create(project: str, summary: str, kind: str, desc_file: str | None) -> None:
    s, base = session()
    text = pathlib.Path(desc_file).read_text() if desc_file else ""
    doc = {"type": "doc", "version": 1,
           "content": [{"type": "paragraph", "content": [{"type": "text", "text": text or summary}]}]}
    body = {"fields": {"project": {"key": project}, "summary": summary, "issuetype": {"name": kind},
                       "description": doc}}
    r = s.post(f"{base}/rest/api/3/issue", json=body, timeout=30)
    r.raise_for_status()
    print(f"created {r.json()['key']}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("search").add_argument("jql")
    c = sub.add_parser("create")
    c.add_argument("project")
    c.add_argument("summary")
    c.add_argument("--type", default="Task")
    c.add_argument("--description-file")
    a = ap.parse_args()
    search(a.jql) if a.cmd == "search" else create(a.project, a.summary, a.type, a.description_file)
