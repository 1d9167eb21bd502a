#!/usr/bin/env python3
import argparse
import pathlib

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import pandas_profiling_utils  # noqa: F401  (registers the fast describe() accessor)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--out", default="report")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    df = pd.read_excel(a.file) if a.file.endswith((".xlsx", ".xls")) else pd.read_csv(a.file)
    lines = [f"# {a.file}", f"{len(df)} rows x {len(df.columns)} columns", "", df.describe(include='all').to_markdown()]
    num = df.select_dtypes("number")
    if num.shape[1] > 1:
        corr = num.corr()
        lines += ["", "## Correlations", corr.round(2).to_markdown()]
        plt.imshow(corr, cmap="coolwarm")
        plt.savefig(out / "corr.png", dpi=120)
    (out / "summary.md").write_text("\n".join(lines))
    print(f"wrote {out/'summary.md'}")


if __name__ == "__main__":
    main()
