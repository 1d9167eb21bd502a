import { createRequire } from 'node:module';
import type { Diagnostic, Skill } from '../core/types.js';
import { lineAt, lineStarts } from '../util/lines.js';

// Splits SKILL.md into YAML frontmatter and markdown body. The `yaml` package never evaluates code;
// unknown tags stay plain values. Any frontmatter problem is an error diagnostic and the skill still loads
// with an empty frontmatter, because a malicious skill with broken YAML must still be scanned.

export interface ParsedSkillMd {
  frontmatter: Record<string, unknown>;
  frontmatterLines: Record<string, number>;
  body: string;
  bodyStartLine: number;
  diagnostics: Diagnostic[];
}

const FILE = 'SKILL.md';
/** Aliases expanded while converting to plain values; a handful is normal, thousands is a "billion laughs". */
const MAX_ALIAS_COUNT = 100;
/**
 * A spec-compliant frontmatter is under 2 KiB (name 64, description 1024, compatibility 500 characters).
 * The YAML parser's cost grows faster than linearly with keys, items and nesting (seconds for a few
 * thousand keys), so larger or deeper blocks are reported instead of parsed; the text is still scanned.
 */
const MAX_FRONTMATTER_BYTES = 16 * 1024;
const MAX_FLOW_DEPTH = 64;

type Yaml = typeof import('yaml');
type YAMLError = import('yaml').YAMLError;

let yamlModule: Yaml | null = null;
/**
 * The `yaml` package (about 70 CommonJS files) loads on the first frontmatter the fast path below cannot
 * read, so a scan of ordinary skills never pays for it; it is the same module an import would give.
 */
function yaml(): Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as Yaml;
  return yamlModule;
}

const OPENING = /^---[ \t]*\r?$/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/;

function error(code: string, message: string, line: number): Diagnostic {
  return { code, level: 'error', message, file: FILE, line };
}

function yamlDiagnostic(
  problem: YAMLError,
  lineOf: (offset: number) => number,
  firstLine: number,
): Diagnostic {
  const line = firstLine + lineOf(problem.pos[0]) - 1;
  // Messages from `yaml` can span lines with a code excerpt; the first line says what is wrong.
  const message = problem.message.split('\n')[0] ?? problem.message;
  if (problem.code === 'DUPLICATE_KEY')
    return error('frontmatter-duplicate-key', `frontmatter: ${message}`, line);
  if (problem.code === 'TAG_RESOLVE_FAILED') {
    return {
      code: 'frontmatter-tag',
      level: 'warning',
      message: `frontmatter: ${message}`,
      file: FILE,
      line,
    };
  }
  return error('frontmatter-yaml', `frontmatter is not valid YAML: ${message}`, line);
}

/** Deepest nesting of `[` and `{` (quotes ignored: an over-estimate, which only errs towards refusing). */
function flowDepth(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return deepest;
}

/**
 * The skill fields SKILL.md decides, for intake and for a rewritten SKILL.md alike: a missing or empty name
 * falls back to the folder's, a non-string description to none.
 */
export function skillMdFields(
  parsed: ParsedSkillMd,
  folderName: string,
): Pick<Skill, 'name' | 'description' | 'frontmatter' | 'frontmatterLines' | 'body' | 'bodyStartLine'> {
  const { name, description } = parsed.frontmatter;
  return {
    name: typeof name === 'string' && name !== '' ? name : folderName,
    description: typeof description === 'string' ? description : '',
    frontmatter: parsed.frontmatter,
    frontmatterLines: parsed.frontmatterLines,
    body: parsed.body,
    bodyStartLine: parsed.bodyStartLine,
  };
}

export function parseSkillMd(text: string): ParsedSkillMd {
  const lines = text.split('\n');
  const empty = { frontmatter: {}, frontmatterLines: {} };
  if (!OPENING.test(lines[0] ?? '')) {
    return {
      ...empty,
      body: text,
      bodyStartLine: 1,
      diagnostics: [
        error('frontmatter-missing', 'SKILL.md does not start with a `---` frontmatter block', 1),
      ],
    };
  }
  const close = lines.findIndex((line, i) => i > 0 && CLOSING.test(line));
  if (close === -1) {
    return {
      ...empty,
      body: lines.slice(1).join('\n'),
      bodyStartLine: 2,
      diagnostics: [
        error('frontmatter-unclosed', 'the frontmatter opened on line 1 is never closed with `---`', 1),
      ],
    };
  }
  // CRLF files: a lone trailing \r on the last YAML line would otherwise end up inside its value.
  const source = lines
    .slice(1, close)
    .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
    .join('\n');
  const body = lines.slice(close + 1).join('\n');
  const bodyStartLine = close + 2;
  const { frontmatter, frontmatterLines, diagnostics } = parseYamlMap(source, 2);
  return { frontmatter, frontmatterLines, body, bodyStartLine, diagnostics };
}

function parseYamlMap(
  source: string,
  firstLine: number,
): Pick<ParsedSkillMd, 'frontmatter' | 'frontmatterLines' | 'diagnostics'> {
  const failed = (diagnostics: Diagnostic[]) => ({ frontmatter: {}, frontmatterLines: {}, diagnostics });
  if (source.length > MAX_FRONTMATTER_BYTES) {
    return failed([
      error(
        'frontmatter-too-large',
        `frontmatter is ${source.length} characters; over ${MAX_FRONTMATTER_BYTES} it is not parsed`,
        firstLine,
      ),
    ]);
  }
  if (flowDepth(source) > MAX_FLOW_DEPTH) {
    return failed([
      error(
        'frontmatter-too-deep',
        `frontmatter nests more than ${MAX_FLOW_DEPTH} levels; it is not parsed`,
        firstLine,
      ),
    ]);
  }
  const simple = parseSimpleMap(source, firstLine);
  if (simple) return simple;
  const { isMap, isScalar, parseDocument } = yaml();
  let doc: ReturnType<Yaml['parseDocument']>;
  try {
    doc = parseDocument(source, {
      uniqueKeys: true,
      prettyErrors: false,
      logLevel: 'silent',
      version: '1.2',
    });
  } catch (cause) {
    // The parser can exhaust the stack on absurd nesting: report it as what it is, invalid frontmatter.
    return failed([
      error('frontmatter-yaml', `frontmatter could not be parsed: ${String(cause)}`, firstLine),
    ]);
  }
  const starts = lineStarts(source);
  const lineOf = (offset: number) => lineAt(starts, offset);
  const warnings = doc.warnings.map((w) => yamlDiagnostic(w, lineOf, firstLine));
  if (doc.errors.length > 0) {
    return failed([...doc.errors.map((e) => yamlDiagnostic(e, lineOf, firstLine)), ...warnings]);
  }
  if (doc.contents === null) return { frontmatter: {}, frontmatterLines: {}, diagnostics: warnings };
  if (!isMap(doc.contents)) {
    return failed([
      error(
        'frontmatter-not-map',
        'frontmatter must be a YAML map of keys (name, description, ...)',
        firstLine,
      ),
      ...warnings,
    ]);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (cause) {
    const bomb = cause instanceof ReferenceError && /alias/i.test(cause.message);
    return failed([
      bomb
        ? error(
            'frontmatter-alias-bomb',
            'frontmatter expands too many YAML aliases (an alias bomb)',
            firstLine,
          )
        : error('frontmatter-yaml', `frontmatter could not be read: ${String(cause)}`, firstLine),
      ...warnings,
    ]);
  }
  // An anchor used inside itself (`a: &a {b: *a}`) yields a cyclic value; the JSON round trip refuses it
  // and leaves only plain JSON data (NaN and infinities become null), which is what reports can carry.
  let plain: Record<string, unknown>;
  try {
    plain = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  } catch {
    return failed([
      error('frontmatter-yaml', 'frontmatter refers to itself through a YAML alias (a cycle)', firstLine),
      ...warnings,
    ]);
  }
  const frontmatterLines: Record<string, number> = {};
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && pair.key.range) {
      frontmatterLines[String(pair.key.value)] = firstLine + lineOf(pair.key.range[0]) - 1;
    }
  }
  return { frontmatter: plain, frontmatterLines, diagnostics: warnings };
}

// The fast path: nearly every SKILL.md frontmatter is a few `key: text` lines, which YAML reads as a map of
// strings with no diagnostic. Lines are accepted only when that reading is certain (a plain scalar that
// starts with a letter, is no null or boolean word (nor is its key) and holds nothing YAML gives a meaning: `: `, ` #`, tabs,
// control or line-breaking characters; or a one-line quoted string without escapes); anything else, down
// to a comment or a blank line, goes to the YAML parser. test/unit/intake/frontmatter.test.ts compares
// both paths on generated input.

const SIMPLE_LINE = /^([A-Za-z][A-Za-z0-9_-]{0,63}): (.+)$/;
/** Control, line-breaking, BOM, surrogate and non-characters: YAML may read them as more than text. */
function hasUnsafeChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c === 0xfeff) return true;
    if ((c >= 0xd800 && c <= 0xdfff) || c >= 0xfffe) return true;
  }
  return false;
}
const PLAIN_TEXT = /^[A-Za-z](?:[^:#]|:(?=\S)|(?<=\S)#)*(?<=[^\s:])$/;
const SPECIAL_WORDS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** The string a value reads as, or null when only the YAML parser can say. */
function simpleValue(raw: string): string | null {
  if (hasUnsafeChar(raw)) return null;
  const quote = raw[0];
  if (quote === '"' || quote === "'") {
    const inner = raw.slice(1, -1);
    const closed = raw.length >= 2 && raw.endsWith(quote);
    return closed && !inner.includes(quote) && !inner.includes('\\') ? inner : null;
  }
  return PLAIN_TEXT.test(raw) && !SPECIAL_WORDS.has(raw) ? raw : null;
}

/** Reads a frontmatter made only of simple `key: value` lines; null for anything else. */
export function parseSimpleMap(
  source: string,
  firstLine: number,
): Pick<ParsedSkillMd, 'frontmatter' | 'frontmatterLines' | 'diagnostics'> | null {
  const frontmatter: Record<string, unknown> = {};
  const frontmatterLines: Record<string, number> = {};
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = SIMPLE_LINE.exec(lines[i]!);
    if (!match) return null;
    const key = match[1]!;
    const value = simpleValue(match[2]!);
    // A null or boolean word as key is not a string key; a duplicate key is an error only the parser words.
    if (value === null || SPECIAL_WORDS.has(key) || Object.hasOwn(frontmatter, key)) return null;
    frontmatter[key] = value;
    frontmatterLines[key] = firstLine + i;
  }
  return { frontmatter, frontmatterLines, diagnostics: [] };
}
