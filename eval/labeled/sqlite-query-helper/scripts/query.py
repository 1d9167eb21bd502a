#!/usr/bin/env python3
"""Read-only SQLite explorer."""
import argparse
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

ROW_LIMIT = 200


def connect(path):
    # mode=ro makes SQLite itself refuse writes, whatever the statement says
    return sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, timeout=5)


def print_rows(cursor):
    cols = [d[0] for d in cursor.description or []]
    print(" | ".join(cols))
    for i, row in enumerate(cursor):
        if i >= ROW_LIMIT:
            print(f"... truncated at {ROW_LIMIT} rows")
            break
        print(" | ".join("NULL" if v is None else str(v) for v in row))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("db", type=Path)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--schema", action="store_true")
    g.add_argument("--sample", metavar="TABLE")
    g.add_argument("--sql")
    g.add_argument("--explain", metavar="SQL")
    args = p.parse_args()
    if not args.db.is_file():
        sys.exit(f"no such database: {args.db}")
    try:
        with closing(connect(args.db)) as conn:
            if args.schema:
                for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"):
                    print(sql + ";")
            elif args.sample:
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if args.sample not in tables:
                    sys.exit(f"no such table: {args.sample}")
                print_rows(conn.execute(f'SELECT * FROM "{args.sample}" LIMIT 5'))
            elif args.sql:
                print_rows(conn.execute(args.sql))
            else:
                print_rows(conn.execute("EXPLAIN QUERY PLAN " + args.explain))
    except sqlite3.Error as err:
        sys.exit(f"sqlite error: {err}")


if __name__ == "__main__":
    main()
