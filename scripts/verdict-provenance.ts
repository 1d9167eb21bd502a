// What the verdict model was fitted on, beyond the data: a digest of the code and rules that produce the
// findings it reads (src/scan, rules/, src/score, the model file itself left out). `npm run train:verdict`
// records it in the model; a unit test recomputes it, so a change to the scanner without a refit fails CI
// instead of shipping weights learned on another scanner's findings.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const MODEL_FILE = 'src/score/verdict-model.json';
export const SNAPSHOT_FILE = 'test/fixtures/verdict/feature-snapshot.json';
const INPUTS = ['src/scan', 'rules', 'src/score'];

function files(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...files(root, path));
    else out.push(path);
  }
  return out;
}

/** sha256 over the paths and contents of every file the findings and the decision come from. */
export function scannerDigest(root = process.cwd()): string {
  const hash = createHash('sha256');
  for (const dir of INPUTS) {
    for (const path of files(root, dir)) {
      const name = relative(root, join(root, path)).split(sep).join('/');
      if (name === MODEL_FILE) continue;
      hash.update(`${name}\0`).update(readFileSync(join(root, path))).update('\0');
    }
  }
  return hash.digest('hex');
}
