import type { Skill } from '../core/types.js';

// Benign sample inputs for detonation: the file types a skill documents (in SKILL.md or its scripts) get a
// small, valid example each, so a script that needs an input file reaches its main path.

export interface SampleInput {
  /** File name inside the sandbox inputs folder. */
  name: string;
  extension: string;
  content: Buffer;
}

// A 1x1 transparent PNG and a one-page PDF: the smallest valid files of two formats skills often take.
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF_MINIMAL = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

const SAMPLES: Record<string, string | Buffer> = {
  csv: 'date,region,units,revenue\n2026-01-05,north,12,340.50\n2026-01-06,south,7,198.00\n2026-01-07,east,19,512.25\n',
  tsv: 'date\tregion\tunits\n2026-01-05\tnorth\t12\n2026-01-06\tsouth\t7\n',
  json: '{"name": "sample", "version": "1.0.0", "items": [{"id": 1, "label": "first"}, {"id": 2, "label": "second"}]}\n',
  jsonl: '{"id": 1, "text": "first"}\n{"id": 2, "text": "second"}\n',
  yaml: 'name: sample\nversion: 1.0.0\nitems:\n  - first\n  - second\n',
  yml: 'name: sample\nitems:\n  - first\n',
  toml: '[project]\nname = "sample"\nversion = "1.0.0"\n',
  md: '# Sample document\n\nA short paragraph with a [link](https://example.com).\n\n## Section\n\n- one\n- two\n',
  txt: 'The quick brown fox jumps over the lazy dog.\nA second line of sample text.\n',
  html: '<!doctype html><html><head><title>Sample</title></head><body><h1>Sample</h1><p>Text.</p></body></html>\n',
  xml: '<?xml version="1.0"?><root><item id="1">first</item><item id="2">second</item></root>\n',
  log: '2026-01-05T10:00:00Z INFO service started\n2026-01-05T10:00:01Z WARN slow response 1200ms\n',
  sql: 'SELECT id, name FROM users WHERE active = 1;\n',
  py: 'def add(a, b):\n    return a + b\n',
  js: 'export function add(a, b) {\n  return a + b;\n}\n',
  png: PNG_1X1,
  pdf: PDF_MINIMAL,
};

const EXTENSION_RE = /\.([a-z]{2,5})\b/gi;

/** The sample inputs matching file types the skill mentions; always at least a text and a JSON file. */
export function sampleInputs(skill: Skill): SampleInput[] {
  const mentioned = new Set<string>(['txt', 'json']);
  const texts = [skill.body, ...skill.files.filter((f) => f.kind === 'script').map((f) => f.text ?? '')];
  for (const text of texts) {
    for (const m of text.matchAll(EXTENSION_RE)) {
      const ext = m[1]!.toLowerCase();
      if (ext in SAMPLES) mentioned.add(ext);
    }
  }
  return [...mentioned].sort().map((ext) => ({
    name: `sample.${ext}`,
    extension: ext,
    content: Buffer.isBuffer(SAMPLES[ext]) ? (SAMPLES[ext] as Buffer) : Buffer.from(SAMPLES[ext] as string),
  }));
}
