#!/usr/bin/env python3
"""Small Vercel REST client: deployments, build logs and env vars for one project."""
import argparse
import os
import sys

import requests

API = "https://api.vercel.com"


def session() -> requests.Session:
    token = os.environ.get("VERCEL_TOKEN")
    if not token:
        sys.exit("VERCEL_TOKEN is not set")
    s = requests.Session()
    s.headers["Authorization"] = f"Bearer {token}"
    if team := os.environ.get("VERCEL_TEAM_ID"):
        s.params = {"teamId": team}
    return s


def deployments(s: requests.Session, project: str) -> None:
    r = s.get(f"{API}/v6/deployments", params={"app": project, "limit": 10}, timeout=20)
    r.raise_for_status()
    for d in r.json()["deployments"]:
        print(f"{d['uid']}  {d['state']:<8}  {d.get('target') or 'preview':<10}  {d['url']}")


def logs(s: requests.Session, deployment: str) -> None:
    r = s.get(f"{API}/v3/deployments/{deployment}/events", params={"builds": 1}, timeout=30)
    r.raise_for_status()
    for e in r.json():
        text = e.get("payload", {}).get("text") or e.get("text")
        if text:
            print(text)


def env_set(s: requests.Session, project: str, key: str, value: str, target: str) -> None:
    body = {"key": key, "value": value, "type": "encrypted", "target": [target]}
    r = s.post(f"{API}/v10/projects/{project}/env", json=body, params={"upsert": "true"}, timeout=20)
    r.raise_for_status()
    print(f"set {key} for {target}")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("deployments").add_argument("--project", required=True)
    sub.add_parser("logs").add_argument("deployment")
    e = sub.add_parser("env-set")
    for name in ("project", "key", "value"):
        e.add_argument(name)
    e.add_argument("--target", choices=["production", "preview", "development"], default="preview")
    a = ap.parse_args()
    s = session()
    if a.cmd == "deployments":
        deployments(s, a.project)
    elif a.cmd == "logs":
        logs(s, a.deployment)
    else:
        env_set(s, a.project, a.key, a.value, a.target)


if __name__ == "__main__":
    main()
