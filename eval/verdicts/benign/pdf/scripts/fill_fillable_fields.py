import json
import sys

from pypdf import PdfReader, PdfWriter


def main(src: str, values_path: str, dst: str) -> None:
    with open(values_path) as f:
        values = json.load(f)
    reader = PdfReader(src)
    known = set(reader.get_fields() or {})
    unknown = [k for k in values if k not in known]
    if unknown:
        sys.exit(f"Unknown field ids: {unknown}. Run extract_form_field_info.py first.")
    writer = PdfWriter()
    writer.append(reader)
    for page in writer.pages:
        writer.update_page_form_field_values(page, values, auto_regenerate=False)
    writer.set_need_appearances_writer(True)
    with open(dst, "wb") as f:
        writer.write(f)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: fill_fillable_fields.py input.pdf values.json output.pdf")
    main(*sys.argv[1:])
