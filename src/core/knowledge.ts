import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { parseYamlText, YamlSnapshot } from './yaml-snapshot.js';

// The domain knowledge every stage shares (which folders belong to coding agents, package registries, vendor
// API hosts, campaign indicators) is data in rules/_data/, each file with its provenance in its header. Scan,
// detonation and the task stages read it through this module, so a list is written once and they cannot
// disagree about it.

/** The built-in rule pack: the repository's (and the installed package's) top-level rules/ folder. */
export const BUILTIN_RULES_DIR = fileURLToPath(new URL('../../rules/', import.meta.url));
/** Data lists beside the rules, each with its provenance. */
const DATA = '_data';
/** Where the build puts the built-in rules parsed (dist/yaml-snapshot.json; absent when run from sources). */
export const YAML_SNAPSHOT_FILE = fileURLToPath(new URL('../yaml-snapshot.json', import.meta.url));
let snapshot: YamlSnapshot | undefined;

/** A rule pack or data file that cannot be used: names the file and what is wrong with it. */
export class RulePackError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'RulePackError';
  }
}

/** A YAML file's value; a RulePackError when it cannot be read or parsed. */
export function readYaml(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RulePackError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  snapshot ??= YamlSnapshot.load(YAML_SNAPSHOT_FILE, BUILTIN_RULES_DIR);
  const known = snapshot.valueOf(file, text);
  if (known !== undefined) return known;
  try {
    return parseYamlText(text);
  } catch (error) {
    throw new RulePackError(file, `is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** A data file (YAML or JSON) checked against `schema`; a RulePackError names the file and the first problem. */
export function readDataFile<T>(file: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(readYaml(file));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RulePackError(file, `${issue.path.join('.') || 'data'}: ${issue.message}`);
  }
  return parsed.data;
}

/** A data list of the built-in rules (rules/_data/<name>.yaml), checked against the caller's schema. */
export function ruleData<T>(name: string, schema: z.ZodType<T>): T {
  return readDataFile(join(BUILTIN_RULES_DIR, DATA, `${name}.yaml`), schema);
}
