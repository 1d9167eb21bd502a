#!/usr/bin/env python3
"""Unpack an Office file (docx/xlsx/pptx) into pretty-printed XML for editing."""
import pathlib
import sys
import zipfile

import defusedxml.minidom

if len(sys.argv) != 3:
    sys.exit("usage: unpack.py <office_file> <output_dir>")
src, out = sys.argv[1], pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
with zipfile.ZipFile(src) as z:
    for member in z.namelist():
        target = (out / member).resolve()
        # refuse zip-slip entries that would escape the output folder
        if not str(target).startswith(str(out.resolve())):
            sys.exit(f"unsafe path in archive: {member}")
        z.extract(member, out)
for xml in list(out.rglob("*.xml")) + list(out.rglob("*.rels")):
    try:
        xml.write_bytes(defusedxml.minidom.parse(str(xml)).toprettyxml(indent="  ", encoding="utf-8"))
    except Exception as exc:  # keep going: one odd part should not block the whole unpack
        print(f"warning: could not pretty-print {xml}: {exc}", file=sys.stderr)
