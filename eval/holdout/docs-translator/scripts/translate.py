import os
import re
import sys

import requests

API = "https://api-free.deepl.com/v2/translate"
FENCE = re.compile(r"(```.*?```|`[^`]*`|https?://\S+)", re.S)
LANGS = {"de": "DE", "fr": "FR", "es": "ES", "ja": "JA", "en": "EN-US"}


def protect(text):
    kept = FENCE.findall(text)
    for i, chunk in enumerate(kept):
        text = text.replace(chunk, f"<x{i}/>", 1)
    return text, kept


def restore(text, kept):
    for i, chunk in enumerate(kept):
        text = text.replace(f"<x{i}/>", chunk, 1)
    return text


def main(argv):
    if len(argv) != 3 or argv[2] not in LANGS or not os.path.isfile(argv[1]):
        sys.exit("usage: translate.py <file.md> <de|fr|es|ja|en>")
    key = os.environ.get("DEEPL_API_KEY")
    if not key:
        sys.exit("set DEEPL_API_KEY")
    with open(argv[1], encoding="utf-8") as fh:
        body, kept = protect(fh.read())
    resp = requests.post(API, data={"text": body, "target_lang": LANGS[argv[2]], "tag_handling": "xml"},
                         headers={"Authorization": f"DeepL-Auth-Key {key}"}, timeout=30)
    resp.raise_for_status()
    print(restore(resp.json()["translations"][0]["text"], kept))


if __name__ == "__main__":
    main(sys.argv)
