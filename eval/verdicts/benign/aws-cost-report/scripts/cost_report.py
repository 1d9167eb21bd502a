#!/usr/bin/env python3
"""Monthly AWS cost grouped by service or tag, with month-over-month change."""
import argparse
import datetime as dt
import os

import boto3
from botocore.config import Config


def month_starts(n: int) -> tuple[str, str]:
    today = dt.date.today().replace(day=1)
    start = today
    for _ in range(n):
        start = (start - dt.timedelta(days=1)).replace(day=1)
    return start.isoformat(), today.isoformat()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--months", type=int, default=3)
    ap.add_argument("--group-by", default="SERVICE", help="SERVICE, LINKED_ACCOUNT or TAG:<key>")
    a = ap.parse_args()
    session = boto3.Session(profile_name=os.environ.get("AWS_PROFILE"))
    ce = session.client("ce", config=Config(connect_timeout=10, read_timeout=30, retries={"max_attempts": 3}))
    kind, _, key = a.group_by.partition(":")
    group = {"Type": "TAG", "Key": key} if kind == "TAG" else {"Type": "DIMENSION", "Key": kind}
    start, end = month_starts(a.months)
    resp = ce.get_cost_and_usage(TimePeriod={"Start": start, "End": end}, Granularity="MONTHLY",
                                 Metrics=["UnblendedCost"], GroupBy=[group])
    table: dict[str, list[float]] = {}
    for i, period in enumerate(resp["ResultsByTime"]):
        for g in period["Groups"]:
            table.setdefault(g["Keys"][0], [0.0] * a.months)[i] = float(g["Metrics"]["UnblendedCost"]["Amount"])
    rows = sorted(table.items(), key=lambda kv: kv[1][-1], reverse=True)[:15]
    for name, costs in rows:
        prev, last = costs[-2] if len(costs) > 1 else 0, costs[-1]
        change = f"{(last - prev) / prev * 100:+.0f}%" if prev else "new"
        print(f"{name[:40]:40} ${last:>10,.2f}  {change}")


if __name__ == "__main__":
    main()
