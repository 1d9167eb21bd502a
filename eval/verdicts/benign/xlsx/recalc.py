#!/usr/bin/env python3
"""Recalculate all formulas in a workbook with headless LibreOffice and report formula errors."""
import json
import os
import pathlib
import platform
import subprocess
import sys

from openpyxl import load_workbook

MACRO = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">
Sub RecalculateAndSave
  ThisComponent.calculateAll()
  ThisComponent.store()
  ThisComponent.close(True)
End Sub
</script:module>"""

ERRORS = ("#REF!", "#DIV/0!", "#VALUE!", "#N/A", "#NAME?", "#NULL!", "#NUM!")


def macro_dir() -> pathlib.Path:
    # LibreOffice looks for user macros in its profile folder, which differs by OS
    if platform.system() == "Darwin":
        return pathlib.Path.home() / "Library/Application Support/LibreOffice/4/user/basic/Standard"
    return pathlib.Path.home() / ".config/libreoffice/4/user/basic/Standard"


def ensure_macro() -> None:
    d = macro_dir()
    d.mkdir(parents=True, exist_ok=True)
    (d / "Module1.xba").write_text(MACRO)


def recalc(path: str, timeout: int) -> None:
    ensure_macro()
    cmd = ["soffice", "--headless", "--norestore",
           "vnd.sun.star.script:Standard.Module1.RecalculateAndSave?language=Basic&location=application",
           os.path.abspath(path)]
    subprocess.run(cmd, capture_output=True, timeout=timeout, check=False)


def scan_errors(path: str) -> dict:
    wb = load_workbook(path, data_only=True)
    found = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value in ERRORS:
                    found.setdefault(cell.value, []).append(f"{ws.title}!{cell.coordinate}")
    return found


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: recalc.py <file.xlsx> [timeout_seconds]")
    recalc(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30)
    errors = scan_errors(sys.argv[1])
    print(json.dumps({"status": "errors_found" if errors else "success", "errors": errors}, indent=2))
