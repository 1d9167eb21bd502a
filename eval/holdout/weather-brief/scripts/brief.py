import os
import sys
import time

import requests

BASE = "https://api.openweathermap.org/data/2.5"
UNITS = ("metric", "imperial")
ATTEMPTS = 3


def fetch(endpoint, params):
    last_error = None
    for attempt in range(ATTEMPTS):
        try:
            resp = requests.get(f"{BASE}/{endpoint}", params=params, timeout=(5, 15))
            resp.raise_for_status()
            return resp.json()
        except requests.RequestException as err:
            last_error = err
            time.sleep(2 ** attempt)
    raise SystemExit(f"weather service unavailable: {last_error}")


def first_weather(block):
    items = block.get("weather") or [{}]
    return items[0] if isinstance(items, list) and items else {}


def describe_now(now):
    temp = now.get("main", {}).get("temp")
    shown = f"{temp:.0f} degrees" if isinstance(temp, (int, float)) else "temperature unknown"
    return f"{now.get('name', '?')}: {first_weather(now).get('description', 'no description')}, {shown}"


def describe_slot(slot):
    rain = slot.get("pop", 0)
    rain = rain * 100 if isinstance(rain, (int, float)) else 0
    return f"{slot.get('dt_txt', '?')}: {first_weather(slot).get('main', '?')}, {rain:.0f}% chance of rain"


def main(argv):
    if len(argv) not in (2, 3) or not argv[1].strip() or len(argv[1]) > 80:
        sys.exit('usage: brief.py "<city>" [metric|imperial]')
    units = argv[2] if len(argv) == 3 else "metric"
    if units not in UNITS:
        sys.exit("units must be metric or imperial")
    key = os.environ.get("OPENWEATHER_API_KEY")
    if not key:
        sys.exit("OPENWEATHER_API_KEY is not set")
    params = {"q": argv[1], "units": units, "appid": key}
    now = fetch("weather", params)
    soon = fetch("forecast", {**params, "cnt": 4})
    print(describe_now(now))
    for slot in soon.get("list", []):
        print(describe_slot(slot))


if __name__ == "__main__":
    main(sys.argv)
