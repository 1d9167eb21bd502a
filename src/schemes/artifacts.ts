import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProbeScheme, UtilityScheme } from './types.js';

// Scheme artifacts in the run folder: <dir>/schemes/scenarios.json and <dir>/schemes/probes.json.

export const SCHEMES_DIR = 'schemes';

export async function writeSchemes(
  dir: string,
  utility: UtilityScheme,
  probes: ProbeScheme,
): Promise<string> {
  const out = join(dir, SCHEMES_DIR);
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'scenarios.json'), `${JSON.stringify({ version: 1, ...utility }, null, 2)}\n`);
  await writeFile(join(out, 'probes.json'), `${JSON.stringify({ version: 1, ...probes }, null, 2)}\n`);
  return out;
}

/** The schemes written by an earlier run (for resuming), or null when either file is absent. */
export async function readSchemes(
  dir: string,
): Promise<{ utility: UtilityScheme; probes: ProbeScheme } | null> {
  try {
    const read = async (name: string) => JSON.parse(await readFile(join(dir, SCHEMES_DIR, name), 'utf8'));
    const { version: _v1, ...utility } = await read('scenarios.json');
    const { version: _v2, ...probes } = await read('probes.json');
    return { utility: utility as UtilityScheme, probes: probes as ProbeScheme };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
