import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';

// The built-in rule files parsed once, at build time. Parsing ~100 YAML files costs about 0.4 s of a cold
// process, and every scan worker is one: the build stores each file's value as JSON beside the compiled code,
// keyed by the file's hash, and a process reads that instead. A file edited after the build no longer matches
// its hash and is parsed as YAML, so the snapshot can be stale without ever being wrong.

/** What a snapshot holds for one file, by its path relative to the rules folder (with `/`). */
interface Entry {
  sha1: string;
  json: string;
}

/** YAML.parse as the rule loaders call it (knowledge.ts). */
export function parseYamlText(text: string): unknown {
  return YAML.parse(text, { maxAliasCount: 100 });
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * Writes the snapshot of every YAML file under `rulesDir` to `out`. A file whose value JSON cannot carry
 * exactly (a date, an infinity) is left out, so it is always parsed. Returns how many files each way.
 */
export function writeYamlSnapshot(rulesDir: string, out: string): { stored: number; left: number } {
  const entries: Record<string, Entry> = {};
  let left = 0;
  for (const file of yamlFiles(rulesDir)) {
    const text = readFileSync(file, 'utf8');
    let value: unknown;
    try {
      value = parseYamlText(text);
    } catch {
      left++; // invalid YAML is reported by the loader that reads it, with its message
      continue;
    }
    const json = JSON.stringify(value);
    if (json === undefined || !isDeepStrictEqual(JSON.parse(json), value)) {
      left++;
      continue;
    }
    entries[relative(rulesDir, file).split(sep).join('/')] = { sha1: sha1(text), json };
  }
  writeFileSync(out, JSON.stringify(entries));
  return { stored: Object.keys(entries).length, left };
}

/** A snapshot read from disk: the rules folder it describes and its entries. */
export class YamlSnapshot {
  private constructor(
    private readonly rulesDir: string,
    private readonly entries: Readonly<Record<string, Entry>>,
  ) {}

  /** The snapshot at `file` for the rules under `rulesDir`; an empty one when there is none or it is unreadable. */
  static load(file: string, rulesDir: string): YamlSnapshot {
    let entries: Record<string, Entry> = {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (parsed && typeof parsed === 'object') entries = parsed as Record<string, Entry>;
    } catch {
      // no snapshot (sources run under tsx or vitest): every file is parsed
    }
    return new YamlSnapshot(rulesDir, entries);
  }

  /** The value of `file` (whose text is `text`) when the snapshot holds this very text; else undefined. */
  valueOf(file: string, text: string): unknown {
    const rel = relative(this.rulesDir, file).split(sep).join('/');
    const entry = Object.hasOwn(this.entries, rel) ? this.entries[rel] : undefined;
    if (!entry || typeof entry.json !== 'string' || entry.sha1 !== sha1(text)) return undefined;
    return JSON.parse(entry.json);
  }
}
