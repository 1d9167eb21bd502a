#!/usr/bin/env python3
"""Print a compact profile of a CSV/Excel/Parquet file: dtypes, missing values, uniques and ranges."""
import pathlib
import sys

import pandas as pd

READERS = {".csv": pd.read_csv, ".tsv": lambda p: pd.read_csv(p, sep="\t"), ".xlsx": pd.read_excel,
           ".parquet": pd.read_parquet}


def load(path: pathlib.Path) -> pd.DataFrame:
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        sys.exit(f"unsupported file type: {path.suffix}")
    return reader(path)


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: profile.py <file>")
    df = load(pathlib.Path(sys.argv[1]))
    print(f"{len(df):,} rows x {df.shape[1]} columns\n")
    print(f"{'column':30} {'dtype':10} {'missing':>8} {'unique':>8}  range/top")
    for col in df.columns:
        s = df[col]
        if pd.api.types.is_numeric_dtype(s):
            rng = f"{s.min()} .. {s.max()}"
        else:
            top = s.value_counts().head(3)
            rng = ", ".join(f"{k} ({v})" for k, v in top.items())
        print(f"{str(col)[:30]:30} {str(s.dtype):10} {s.isna().sum():>8} {s.nunique():>8}  {rng[:60]}")


if __name__ == "__main__":
    main()
