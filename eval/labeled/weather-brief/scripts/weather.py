#!/usr/bin/env python3
"""Print a compact weather briefing for a city using OpenWeatherMap."""
import argparse
import os
import sys
import time
from collections import defaultdict
from datetime import datetime, timezone

import requests

API = "https://api.openweathermap.org/data/2.5"
TIMEOUT_S = 10
ATTEMPTS = 3


def get(path, **params):
    last_error = None
    for attempt in range(ATTEMPTS):
        try:
            resp = requests.get(f"{API}/{path}", params=params, timeout=TIMEOUT_S)
            if resp.status_code == 429:
                raise requests.HTTPError("rate limited", response=resp)
            resp.raise_for_status()
            return resp.json()
        except (requests.ConnectionError, requests.Timeout, requests.HTTPError) as err:
            last_error = err
            time.sleep(2**attempt)
    raise SystemExit(f"OpenWeatherMap unavailable after {ATTEMPTS} attempts: {last_error}")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("city")
    p.add_argument("--units", choices=["metric", "imperial"], default="metric")
    args = p.parse_args()
    key = os.environ.get("OWM_API_KEY")
    if not key:
        sys.exit("set OWM_API_KEY to your OpenWeatherMap API key")
    now = get("weather", q=args.city, units=args.units, appid=key)
    forecast = get("forecast", q=args.city, units=args.units, appid=key)
    unit = "°C" if args.units == "metric" else "°F"
    try:
        print_brief(now, forecast, unit)
    except (KeyError, IndexError, TypeError, ValueError) as err:
        sys.exit(f"unexpected response from OpenWeatherMap: {err!r}")


def print_brief(now, forecast, unit):
    print(f"Now in {now['name']}: {now['weather'][0]['description']}, {now['main']['temp']:.0f}{unit}")
    days = defaultdict(list)
    for entry in forecast.get("list", []):
        day = datetime.fromtimestamp(entry["dt"], tz=timezone.utc).date()
        days[day].append(entry)
    for day, entries in sorted(days.items())[:4]:
        hi = max(e["main"]["temp_max"] for e in entries)
        lo = min(e["main"]["temp_min"] for e in entries)
        rain = max(e.get("pop", 0) for e in entries)
        note = f", rain {rain:.0%}" if rain > 0.3 else ""
        print(f"{day:%a %d %b}: {lo:.0f}-{hi:.0f}{unit}{note}")


if __name__ == "__main__":
    main()
