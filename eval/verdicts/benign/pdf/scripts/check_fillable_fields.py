import sys

from pypdf import PdfReader

# Tells the agent whether the PDF has fillable form fields, which decides the form-filling path.
if len(sys.argv) != 2:
    sys.exit("usage: check_fillable_fields.py input.pdf")
reader = PdfReader(sys.argv[1])
if reader.get_fields():
    print("This PDF has fillable form fields")
else:
    print("This PDF does not have fillable form fields; you will need to visually determine where to enter data")
