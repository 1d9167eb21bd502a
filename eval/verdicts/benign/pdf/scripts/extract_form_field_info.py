import json
import sys

from pypdf import PdfReader


def field_info(reader: PdfReader) -> list[dict]:
    out = []
    for page_no, page in enumerate(reader.pages, start=1):
        for annot in page.get("/Annots") or []:
            a = annot.get_object()
            if a.get("/Subtype") != "/Widget" or "/T" not in a:
                continue
            kind = {"/Tx": "text", "/Btn": "checkbox", "/Ch": "choice"}.get(a.get("/FT"), "unknown")
            out.append({"field_id": a["/T"], "page": page_no, "type": kind,
                        "rect": [float(x) for x in a.get("/Rect", [])]})
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: extract_form_field_info.py input.pdf output.json")
    info = field_info(PdfReader(sys.argv[1]))
    with open(sys.argv[2], "w") as f:
        json.dump(info, f, indent=2)
    print(f"Wrote {len(info)} fields to {sys.argv[2]}")
