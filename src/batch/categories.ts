import { readFileSync } from 'node:fs';
import { UserError } from '../util/errors.js';

// A skill's category for the by-category tables: a `--categories FILE` mapping wins (a marketplace's own
// taxonomy), then the skill's frontmatter (`category`, or `metadata.category` as the agent-skills spec nests
// extra keys), else none ("uncategorised" in the tables).

export const UNCATEGORISED = 'uncategorised';

export type CategoryMap = ReadonlyMap<string, string>;

/**
 * Reads a mapping from skill to category: a JSON object `{ "<key>": "<category>" }`, or lines
 * `<key>,<category>` (a tab works too; `#` starts a comment). A key is a skill name, its source as given to
 * the batch, or its content hash.
 */
export function loadCategories(path: string): CategoryMap {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UserError('NOT_FOUND', `--categories ${path}: ${(error as Error).message}`);
  }
  const map = new Map<string, string>();
  if (text.trimStart().startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UserError('USAGE', `--categories ${path}: not valid JSON (${(error as Error).message})`);
    }
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>))
      if (typeof value === 'string' && value.trim() !== '') map.set(key, value.trim());
    return map;
  }
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const at = line.search(/[\t,]/);
    if (at <= 0 || line.slice(at + 1).trim() === '')
      throw new UserError('USAGE', `--categories ${path}:${index + 1}: expected "<skill>,<category>"`);
    map.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  });
  return map;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 80) : null;
}

/** The category the skill declares in its frontmatter, if any. */
export function declaredCategory(frontmatter: Record<string, unknown>): string | null {
  const metadata = frontmatter.metadata;
  return (
    text(frontmatter.category) ??
    (metadata && typeof metadata === 'object' ? text((metadata as Record<string, unknown>).category) : null)
  );
}

/** The mapping's category for any of the skill's keys, else the declared one. */
export function categoryOf(
  keys: { name: string | null; source: string; contentHash: string | null },
  declared: string | null,
  map: CategoryMap | undefined,
): string | null {
  for (const key of [keys.name, keys.source, keys.contentHash])
    if (key !== null && map?.has(key)) return map.get(key) ?? null;
  return declared;
}
