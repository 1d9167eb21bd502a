#!/usr/bin/env python3
import argparse
import requests

GAMMA = "https://gamma-api.polymarket.com/markets"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--search", default="")
    p.add_argument("--movers", action="store_true")
    a = p.parse_args()
    params = {"active": "true", "closed": "false", "limit": 50, "order": "volume24hr", "ascending": "false"}
    markets = requests.get(GAMMA, params=params, timeout=20).json()
    for m in markets:
        if a.search and a.search.lower() not in m["question"].lower():
            continue
        change = float(m.get("oneDayPriceChange") or 0)
        if a.movers and abs(change) < 0.10:
            continue
        print(f"{m['question'][:70]:70}  {m.get('outcomePrices')}  24h {change:+.2f}  ends {m.get('endDate', '')[:10]}")


if __name__ == "__main__":
    main()
