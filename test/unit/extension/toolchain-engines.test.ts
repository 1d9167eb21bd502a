import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The extension's toolchain runs on the Node this project supports (20.19): no package in its lock file may
// require a newer Node, or `npm ci --prefix extension` warns and may break on a supported machine.

const NODE = [20, 19] as const;

/** Whether Node 20.19 satisfies an `engines.node` range (the forms npm packages use: >=, ^, ~, x, ||). */
function admitsNode20(range: string): boolean {
  return range.split('||').some((alternative) => {
    const alt = alternative.trim();
    if (alt === '' || alt === '*' || alt === 'x') return true;
    const m = /^(>=|\^|~|=|>)?\s*v?(\d+)(?:\.(\d+|x))?/.exec(alt);
    if (!m) return false;
    const major = Number(m[2]);
    const minor = m[3] === undefined || m[3] === 'x' ? 0 : Number(m[3]);
    const below = /<\s*=?\s*v?(\d+)(?:\.(\d+))?/.exec(alt.slice(m[0].length));
    if (
      below &&
      (Number(below[1]) < NODE[0] || (Number(below[1]) === NODE[0] && Number(below[2] ?? 0) <= NODE[1]))
    )
      return false;
    const atMost = major < NODE[0] || (major === NODE[0] && minor <= NODE[1]);
    if (m[1] === '^') return major === NODE[0] && minor <= NODE[1];
    if (m[1] === '~' || m[1] === '=' || m[1] === undefined)
      return major === NODE[0] && (m[3] === undefined || minor <= NODE[1]);
    return atMost;
  });
}

describe('the extension toolchain on Node 20', () => {
  it('reads engine ranges as npm does for the forms in use', () => {
    for (const ok of ['>=18', '>=20.0.0', '^20.19.0', '^18 || ^20', '>= 14.18.0', '*', '>=12 <21', '20.x'])
      expect(admitsNode20(ok), ok).toBe(true);
    for (const no of ['>=22.13.0', '^22', '>=20.20', '^18', '>=12 <20', '^18.0.0 || >=22'])
      expect(admitsNode20(no), no).toBe(false);
  });

  it('every package in extension/package-lock.json runs on Node 20.19', () => {
    const lock = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../../extension/package-lock.json'), 'utf8'),
    ) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages)
      .map(([path, p]) => [path, !Array.isArray(p.engines) ? p.engines?.node : undefined] as const)
      .filter(
        (entry): entry is readonly [string, string] => entry[1] !== undefined && !admitsNode20(entry[1]),
      );
    expect(refusing).toEqual([]);
  });
});
