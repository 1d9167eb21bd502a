import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { SafetyStatus } from '../../core/types.js';
import { scanSource } from '../source/index.js';
import { type SkillFiles, TRANSFORMATIONS, type Transformation } from './evasion.js';

// Runs the evasion suite: each transformation applied to every skill it is for, written to a temporary
// folder, and scanned by the real intake and scanner, so intake limits and file discovery are part of what
// is measured. Malicious skills count when they stay risky; benign ones when they stay pass.

/** Costly transformations (thousands of files, megabytes) run on at most this many skills, mixed by source. */
export const COSTLY_SAMPLE = 12;

/** A skill the suite may transform: where it is and what it is labelled and scored today. */
export interface EvasionSubject {
  id: string;
  dir: string;
  label: 'malicious' | 'risky' | 'benign';
  status: SafetyStatus;
}

export interface EvasionRow {
  transformation: string;
  applies: 'malicious' | 'benign';
  description: string;
  /** Skills it applied to (a transformation with nothing to change is not counted). */
  skills: number;
  /** Malicious: still risky. Benign: still pass. */
  held: number;
  share: number | null;
  split: Record<SafetyStatus, number>;
  /** The skills that gave way (malicious no longer risky, benign no longer pass), with what they became. */
  gaveWay: { id: string; status: SafetyStatus | 'error' }[];
}

export interface EvasionReport {
  /** Malicious skills flagged risky, and benign skills that pass, before any transformation. */
  malicious: number;
  benign: number;
  rows: EvasionRow[];
}

/** The skill's files as bytes; links, special files and .git are left out (intake would not follow them). */
export function readSkillFiles(dir: string): SkillFiles {
  const files: SkillFiles = new Map();
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      if (name === '.git' || name === 'node_modules') continue;
      const path = join(at, name);
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) files.set(relative(dir, path).split(sep).join('/'), readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

function writeSkillFiles(dir: string, files: SkillFiles): void {
  for (const [path, bytes] of files) {
    const to = resolve(dir, path);
    if (!to.startsWith(`${resolve(dir)}${sep}`)) continue;
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, bytes);
  }
}

/** The subjects in a stable order that mixes sources (by a hash of the id), so a sample spreads across them. */
function mixed(subjects: readonly EvasionSubject[]): EvasionSubject[] {
  const key = (id: string) => createHash('sha256').update(id).digest('hex');
  return [...subjects].sort((a, b) => key(a.id).localeCompare(key(b.id)));
}

async function runOne(t: Transformation, subjects: readonly EvasionSubject[]): Promise<EvasionRow> {
  const root = mkdtempSync(join(tmpdir(), `skillaudit-evasion-${t.id}-`));
  const written = new Map<string, string>();
  try {
    for (const [i, s] of (t.costly ? mixed(subjects) : subjects).entries()) {
      if (t.costly && written.size >= COSTLY_SAMPLE) break;
      const changed = t.apply(readSkillFiles(s.dir));
      if (!changed) continue;
      const folder = `s${String(i).padStart(4, '0')}`;
      writeSkillFiles(join(root, folder), changed);
      written.set(folder, s.id);
    }
    const split: Record<SafetyStatus, number> = { pass: 0, caution: 0, risky: 0 };
    const gaveWay: EvasionRow['gaveWay'] = [];
    let held = 0;
    if (written.size) {
      const results = await scanSource(root);
      const byFolder = new Map(results.map((r) => [relative(root, resolve(r.path)).split(sep)[0]!, r]));
      for (const [folder, id] of written) {
        const status = byFolder.get(folder)?.scan?.status;
        if (!status) {
          gaveWay.push({ id, status: 'error' });
          continue;
        }
        split[status]++;
        if (status === (t.applies === 'malicious' ? 'risky' : 'pass')) held++;
        else gaveWay.push({ id, status });
      }
    }
    return {
      transformation: t.id,
      applies: t.applies,
      description: t.description,
      skills: written.size,
      held,
      share: written.size ? held / written.size : null,
      split,
      gaveWay,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The suite over scored subjects: malicious skills flagged risky and benign skills that pass. */
export async function runEvasion(
  subjects: readonly EvasionSubject[],
  transformations: readonly Transformation[] = TRANSFORMATIONS,
): Promise<EvasionReport> {
  const malicious = subjects.filter((s) => s.label === 'malicious' && s.status === 'risky');
  const benign = subjects.filter((s) => s.label === 'benign' && s.status === 'pass');
  const rows: EvasionRow[] = [];
  for (const t of transformations) rows.push(await runOne(t, t.applies === 'malicious' ? malicious : benign));
  return { malicious: malicious.length, benign: benign.length, rows };
}
