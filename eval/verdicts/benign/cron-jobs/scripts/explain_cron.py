#!/usr/bin/env python3
"""Explain a 5-field cron expression in words and show the next 5 run times."""
import datetime as dt
import sys

from croniter import croniter

NAMES = ["minute", "hour", "day of month", "month", "day of week"]


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit('usage: explain_cron.py "<min> <hour> <dom> <mon> <dow>"')
    expr = sys.argv[1]
    fields = expr.split()
    if len(fields) != 5 or not croniter.is_valid(expr):
        sys.exit(f"not a valid 5-field cron expression: {expr!r}")
    for name, value in zip(NAMES, fields):
        print(f"{name:13} {value}")
    it = croniter(expr, dt.datetime.now())
    print("next runs:")
    for _ in range(5):
        print("  " + it.get_next(dt.datetime).strftime("%a %Y-%m-%d %H:%M"))


if __name__ == "__main__":
    main()
