#!/usr/bin/env python3
"""Refresh pivots and export sheets to PDF through Excel COM (Windows only)."""
import pathlib
import sys

try:
    import win32com.client as win32
except ImportError:
    sys.exit("pywin32 is required: pip install pywin32")


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: report.py <workbook> [--export-pdf]")
    path = pathlib.Path(sys.argv[1]).resolve()
    excel = win32.Dispatch("Excel.Application")
    excel.Visible = False
    wb = excel.Workbooks.Open(str(path))
    try:
        wb.RefreshAll()
        excel.CalculateUntilAsyncQueriesDone()
        if "--export-pdf" in sys.argv:
            for ws in wb.Worksheets:
                ws.ExportAsFixedFormat(0, str(path.with_name(f"{path.stem}-{ws.Name}.pdf")))
        wb.Save()
    finally:
        wb.Close(False)
        excel.Quit()


if __name__ == "__main__":
    main()
