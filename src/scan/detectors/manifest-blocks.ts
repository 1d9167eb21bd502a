// Fenced blocks of a markdown file that ARE a dependency manifest: a ```json package.json with lifecycle
// scripts or dependencies, a ```toml pyproject.toml, a ```yaml package.yaml (pnpm's YAML form of
// package.json). The engine reads them with the manifest detector as if the skill shipped the file, so a
// `"postinstall": "curl … | bash"` in SKILL.md is the install-script finding it would be in package.json.
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import type { CodeBlock, Framing } from '../../core/markdown.js';
import { escapeRegExp } from '../../util/regexp.js';

/**
 * Version ranges in a manifest shown in documentation are the reader's to pick (a library's pyproject rightly
 * says `httpx>=0.24`); only what the manifest runs or where it installs from is reported for a block.
 */
export const BLOCK_MANIFEST_SKIPPED: ReadonlySet<string> = new Set([
  'manifest.unpinned-dependency',
  'manifest.install-script-unpinned',
]);

/**
 * How much a manifest block's framing lowers its findings. As for fenced blocks (engine/scan.ts, each code rule's framing weights), except that a
 * manifest handed to the user ("Setup: install dependencies with this package.json") is not safer for it:
 * npm runs its install scripts on the user's `npm install` without showing them, the same reason the
 * remote-script and prerequisite-lure rules keep user-addressed lures high.
 */
export const BLOCK_MANIFEST_FRAMING: Readonly<Record<Framing, number>> = {
  instruction: 1,
  'user-action': 1,
  example: 0.5,
  'documents-risk': 0.2,
};

export interface BlockManifest {
  /** The file name the manifest detector knows the block's kind by. */
  name: 'package.json' | 'pyproject.toml';
  /** Text for the detector, with as many lines as the block, each at the line it came from. */
  text: string;
  /** Maps a line of `text` back to the block's line (1-based, both). */
  lineOf(line: number): number;
}

// Keys that make a JSON or YAML object a package manifest rather than any config.
const PACKAGE_KEYS = [
  'scripts',
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
];
/** Text in which one of PACKAGE_KEYS can be a key: written out, or escaped in a double-quoted YAML key. */
const MAY_HOLD_PACKAGE_KEY = /scripts|[dD]ependencies|\\/;
const PYPROJECT_TABLES = /^\s*\[(?:project|tool\.poetry|tool\.uv|tool\.pdm|build-system)[\].]/m;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function packageShaped(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && PACKAGE_KEYS.some((k) => isRecord(v[k]));
}

/**
 * Documentation JSON is often abridged: `// comments`, `...` lines and trailing commas. Blanked line by line
 * so each key stays at its line.
 */
function tolerantJson(code: string): string {
  return code
    .split('\n')
    .map((l) => (/^\s*(?:\/\/.*|\.\.\.|…)\s*,?\s*$/.test(l) ? '' : l))
    .join('\n')
    .replace(/,(\s*[}\]])/g, ' $1');
}

/** The line of the YAML block where `key:` is written, for a hit on the JSON line that holds `"key":`. */
function yamlLineMap(yaml: string, json: string): (line: number) => number {
  const yamlLines = yaml.split('\n');
  const jsonLines = json.split('\n');
  return (line) => {
    const key = /^\s*"((?:[^"\\]|\\.)*)"\s*:/.exec(jsonLines[line - 1] ?? '')?.[1];
    if (key === undefined) return 1;
    const escaped = escapeRegExp(key);
    const at = yamlLines.findIndex((l) => new RegExp(`^\\s*(?:-\\s+)?["']?${escaped}["']?\\s*:`).test(l));
    return at < 0 ? 1 : at + 1;
  };
}

const same = (line: number) => line;

/** The manifest a fenced block is, if any. */
export function blockManifest(block: Pick<CodeBlock, 'lang' | 'rawLang' | 'code'>): BlockManifest | null {
  const raw = block.rawLang.split(/\s/)[0] ?? '';
  // Most JSON and YAML blocks are configs, and parsing each cost more than the rest of this module: one can
  // only be package-shaped if a package key is written in it, or spelled with a double-quoted escape.
  if ((block.lang === 'json' || block.lang === 'yaml') && !MAY_HOLD_PACKAGE_KEY.test(block.code)) return null;
  if (block.lang === 'json') {
    const text = tolerantJson(block.code);
    try {
      return packageShaped(JSON.parse(text)) ? { name: 'package.json', text, lineOf: same } : null;
    } catch {
      return null;
    }
  }
  if (raw === 'toml') {
    if (!PYPROJECT_TABLES.test(block.code)) return null;
    try {
      parseToml(block.code);
    } catch {
      return null;
    }
    return { name: 'pyproject.toml', text: block.code, lineOf: same };
  }
  if (block.lang === 'yaml') {
    let doc: unknown;
    try {
      doc = parseYaml(block.code);
    } catch {
      return null;
    }
    if (!packageShaped(doc)) return null;
    const text = JSON.stringify(doc, null, 2);
    return { name: 'package.json', text, lineOf: yamlLineMap(block.code, text) };
  }
  return null;
}
