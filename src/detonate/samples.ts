import type { Skill } from '../core/types.js';
import { type DataShape, dataShape, leafKeys, leafValue, shapedObject } from './data-shape.js';

// Benign sample inputs for detonation: the file types a skill documents (in SKILL.md or its scripts) get a
// small, valid example each, so a script that needs an input file reaches its main path. CSV, JSON and JSON
// Lines samples also carry the fields the skill's scripts read (data-shape.ts): `row["amount"]` finds a column.

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
  vtt: 'WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nAlice: Let us start with the release plan.\n\n00:00:03.500 --> 00:00:06.000\nBob: The build is green; we ship on Friday.\n',
  srt: '1\n00:00:00,000 --> 00:00:03,000\nAlice: Let us start with the release plan.\n\n2\n00:00:03,500 --> 00:00:06,000\nBob: The build is green; we ship on Friday.\n',
  ipynb: `${JSON.stringify({
    cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# Sample notebook'] },
      {
        cell_type: 'code',
        execution_count: 1,
        metadata: {},
        outputs: [{ name: 'stdout', output_type: 'stream', text: ['3\n'] }],
        source: ['print(1 + 2)'],
      },
    ],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  })}\n`,
  png: PNG_1X1,
  pdf: PDF_MINIMAL,
};

// Formats a file's name gives away, whatever its extension says: an OpenAPI document has to have paths.
const OPENAPI_YAML =
  'openapi: 3.0.3\ninfo:\n  title: Sample API\n  version: 1.0.0\npaths:\n  /items:\n    get:\n      summary: List items\n      responses:\n        "200":\n          description: The items\n';
const OPENAPI_JSON = `${JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Sample API', version: '1.0.0' },
  paths: { '/items': { get: { summary: 'List items', responses: { '200': { description: 'The items' } } } } },
})}\n`;
const NAMED: { stem: RegExp; ext: RegExp; content: string }[] = [
  { stem: /^(openapi|swagger)\b/i, ext: /^ya?ml$/, content: OPENAPI_YAML },
  { stem: /^(openapi|swagger)\b/i, ext: /^json$/, content: OPENAPI_JSON },
];

const CSV_ROWS = 3;
const CSV_EXTRA_COLUMNS = 30;

/** The sample CSV with a column for each field the scripts read that it lacks, in plain values. */
function shapedCsv(shape: DataShape): string {
  const [header, ...rows] = (SAMPLES.csv as string)
    .trimEnd()
    .split('\n')
    .map((l) => l.split(','));
  const extra = leafKeys(shape, CSV_EXTRA_COLUMNS).filter(
    ([key]) => /^[\w -]+$/.test(key) && !header!.includes(key),
  );
  const literal = (key: string) => shape.literals?.get(key)?.replace(/[,\r\n]/g, ' ');
  const cell = (key: string, use: 'text' | 'number') =>
    (use === 'text' && literal(key)) || String(leafValue(key, use) ?? '');
  const lines = [header!, ...rows.slice(0, CSV_ROWS)].map((row, i) => [
    ...row,
    ...extra.map(([key, use]) => (i === 0 ? key : cell(key, use))),
  ]);
  return `${lines.map((l) => l.join(',')).join('\n')}\n`;
}

/** JSON samples: the plain sample object, then every field the scripts read. */
function shapedJson(base: string, shape: DataShape): string {
  const shaped = shapedObject(shape);
  return base
    .trimEnd()
    .split('\n')
    .map((line) => JSON.stringify({ ...JSON.parse(line), ...shaped }))
    .join('\n')
    .concat('\n');
}

function sampleContent(fileName: string, ext: string, shape: DataShape): string | Buffer | null {
  const named = NAMED.find((n) => n.stem.test(fileName) && n.ext.test(ext));
  if (named) return named.content;
  if (shape.size > 0 && ext === 'csv') return shapedCsv(shape);
  if (shape.size > 0 && (ext === 'json' || ext === 'jsonl')) return shapedJson(SAMPLES[ext] as string, shape);
  return SAMPLES[ext] ?? null;
}

/** A small file for a name a script opened and found missing: a sample of its type, else a line of text. */
export function sampleFileFor(name: string, shape: DataShape): Buffer {
  const ext = /\.([a-z0-9]{2,6})$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return Buffer.from(sampleContent(name, ext, shape) ?? 'sample\n');
}

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
  const shape = dataShape(skill);
  return [...mentioned].sort().map((ext) => ({
    name: `sample.${ext}`,
    extension: ext,
    content: Buffer.from(sampleContent(`sample.${ext}`, ext, shape)!),
  }));
}

export interface NamedInput {
  /** Relative to the folder the command runs in. */
  path: string;
  content: Buffer;
}

// A relative file name with an extension, as a command's argument: `openapi.yaml`, `data/*.csv`, `./notes.vtt`.
const RELATIVE_FILE = /^(?:\.\/)?(?:[\w][\w.*-]*\/)*[\w*][\w.*-]*\.([a-z0-9]{2,6})$/i;
// Options and redirections whose argument is an output: the command writes it, so it is not created first.
const OUTPUT_FLAG = /^(?:\d?>>?|-o|-O|--out(?:put)?(?:-\w+)?|--dest\w*|--to-file|--save(?:-to)?)$/;
// Code and the manifests a package manager reads: not sample data (a requirements file of prose breaks pip).
const NOT_DATA =
  /\.(py|sh|bash|js|mjs|cjs|ts|rb|pl|ps1|exe|lock)$|^(requirements[\w.-]*\.txt|package(-lock)?\.json|pyproject\.toml|setup\.(cfg|py)|tsconfig\.json|cargo\.toml|go\.mod)$/i;

/**
 * Input files a SKILL.md command names that the skill does not ship (`python3 scripts/gen.py openapi.yaml`):
 * the agent would run it on the user's file, so the run gets a small valid one of that type, at that name, instead
 * of stopping at "No such file". A glob (`notebooks/*.ipynb`) gets one matching file.
 */
export function namedInputs(
  command: string,
  shipped: ReadonlySet<string>,
  shape: DataShape = new Map(),
): NamedInput[] {
  const words = command.split(/[\s;|&()]+/).map((w) => w.replace(/^["']|["']$/g, ''));
  const out: NamedInput[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const m = RELATIVE_FILE.exec(word);
    if (!m || (i > 0 && OUTPUT_FLAG.test(words[i - 1]!))) continue;
    const path = word.replace(/^\.\//, '').replaceAll('*', 'sample');
    const name = path.split('/').pop()!;
    if (path.split('/').includes('..') || shipped.has(path) || NOT_DATA.test(name)) continue;
    const content = sampleContent(name, m[1]!.toLowerCase(), shape);
    if (content !== null && !out.some((o) => o.path === path))
      out.push({ path, content: Buffer.from(content) });
  }
  return out;
}
