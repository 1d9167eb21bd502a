#!/usr/bin/env python3
import json
import sys

import requests

EXPECTED = {
    "content-security-policy": "default-src 'self'",
    "strict-transport-security": "max-age=31536000; includeSubDomains",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}


def grade(headers):
    missing = [h for h in EXPECTED if h not in headers]
    csp = headers.get("content-security-policy", "")
    if "content-security-policy" in missing and "x-frame-options" in missing:
        return "F", missing
    hsts = headers.get("strict-transport-security", "")
    if "max-age" not in hsts or int(hsts.split("max-age=")[1].split(";")[0]) < 15552000:
        return "C", missing
    if "unsafe-inline" in csp:
        return "B", missing
    return ("A" if not missing else "B"), missing


url = sys.argv[1]
resp = requests.get(url, allow_redirects=True)
headers = {k.lower(): v for k, v in resp.headers.items()}
g, missing = grade(headers)
cookies = [{"name": c.name, "secure": c.secure, "httponly": c.has_nonstandard_attr("HttpOnly")} for c in resp.cookies]
print(json.dumps({"url": url, "grade": g, "missing": missing, "suggest": {h: EXPECTED[h] for h in missing}, "cookies": cookies}, indent=2))
