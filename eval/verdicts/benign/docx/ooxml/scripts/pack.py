#!/usr/bin/env python3
"""Pack an unpacked Office folder back into a .docx/.xlsx/.pptx and check it opens in LibreOffice."""
import pathlib
import shutil
import subprocess
import sys
import tempfile
import zipfile


def pack(folder: pathlib.Path, dst: pathlib.Path) -> None:
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        ct = folder / "[Content_Types].xml"
        z.write(ct, ct.name)  # must be the first entry
        for f in sorted(folder.rglob("*")):
            if f.is_file() and f != ct:
                z.write(f, f.relative_to(folder).as_posix())


def validate(doc: pathlib.Path) -> bool:
    if not shutil.which("soffice"):
        return True
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", tmp, str(doc)],
                           capture_output=True, timeout=120)
        return r.returncode == 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: pack.py <input_dir> <office_file>")
    out = pathlib.Path(sys.argv[2])
    pack(pathlib.Path(sys.argv[1]), out)
    print("ok" if validate(out) else "warning: LibreOffice could not open the packed file")
