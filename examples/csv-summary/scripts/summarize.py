#!/usr/bin/env python3
"""Summarize a CSV/TSV file: rows, columns, inferred types, missing values and basic statistics.

Reads only the file named on the command line; writes only to stdout and stderr.
Exit codes: 0 success, 1 bad input (missing file, undecodable text, no header), 2 usage error.
"""

import argparse
import csv
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

DEFAULT_MAX_ROWS = 1_000_000
MISSING = {"", "na", "n/a", "null", "none", "nan", "-"}


def parse_number(value):
    """Return value as a float, or None when it is not a plain number."""
    try:
        return float(value)
    except ValueError:
        return None


def sniff_dialect(sample):
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        return csv.excel


def summarize(path, max_rows):
    with path.open("r", encoding="utf-8-sig", newline="") as handle:
        dialect = sniff_dialect(handle.read(64 * 1024))
        handle.seek(0)
        reader = csv.reader(handle, dialect)
        header = next(reader, None)
        if not header:
            raise ValueError("the file is empty or has no header row")
        columns = [{"name": name.strip() or f"column_{i + 1}", "values": [], "missing": 0}
                   for i, name in enumerate(header)]
        rows = 0
        ragged = 0
        truncated = False
        for row in reader:
            if rows >= max_rows:
                truncated = True
                break
            rows += 1
            if len(row) != len(columns):
                ragged += 1
            for i, column in enumerate(columns):
                value = row[i].strip() if i < len(row) else ""
                if value.lower() in MISSING:
                    column["missing"] += 1
                else:
                    column["values"].append(value)
    return {
        "file": str(path),
        "delimiter": dialect.delimiter,
        "rows": rows,
        "truncated": truncated,
        "ragged_rows": ragged,
        "columns": [describe(column) for column in columns],
    }


def describe(column):
    values = column["values"]
    numbers = [parse_number(v) for v in values]
    summary = {"name": column["name"], "missing": column["missing"]}
    if values and all(n is not None for n in numbers):
        summary.update(
            type="numeric",
            min=min(numbers),
            max=max(numbers),
            mean=round(statistics.fmean(numbers), 6),
            median=statistics.median(numbers),
        )
    else:
        counts = Counter(values)
        top = counts.most_common(1)
        summary.update(
            type="text",
            distinct=len(counts),
            most_common=top[0][0] if top else None,
            most_common_count=top[0][1] if top else 0,
        )
    return summary


def print_text(summary):
    print(f"{summary['file']}: {summary['rows']} rows, {len(summary['columns'])} columns "
          f"(delimiter {summary['delimiter']!r})")
    if summary["truncated"]:
        print("note: stopped at --max-rows; statistics cover the rows read")
    if summary["ragged_rows"]:
        print(f"note: {summary['ragged_rows']} rows have a different number of fields than the header")
    for column in summary["columns"]:
        line = f"- {column['name']} [{column['type']}] missing={column['missing']}"
        if column["type"] == "numeric":
            line += (f" min={column['min']:g} max={column['max']:g}"
                     f" mean={column['mean']:g} median={column['median']:g}")
        else:
            line += f" distinct={column['distinct']} most_common={column['most_common']!r}"
        print(line)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="CSV or TSV file to summarize")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--max-rows", type=int, default=DEFAULT_MAX_ROWS,
                        help=f"stop after this many data rows (default {DEFAULT_MAX_ROWS})")
    args = parser.parse_args(argv)
    if args.max_rows <= 0:
        parser.error("--max-rows must be positive")
    if not args.file.is_file():
        print(f"error: {args.file} is not a readable file", file=sys.stderr)
        return 1
    try:
        summary = summarize(args.file, args.max_rows)
    except UnicodeDecodeError:
        print(f"error: {args.file} is not UTF-8 text; re-export it as UTF-8 CSV", file=sys.stderr)
        return 1
    except (ValueError, csv.Error, OSError) as error:
        print(f"error: {args.file}: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print_text(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
