import { availableParallelism } from 'node:os';
import type { Skill } from '../../core/types.js';
import { type IntakeOptions, withSource } from '../../intake/index.js';
import type { ScanCache } from '../../store/scan-cache.js';
import type { UserErrorCode } from '../../util/errors.js';
import type { IndicatorList } from '../detectors/known-indicators.js';
import { BUDGET_SPENT } from '../engine/budget.js';
import type { ScanOptions, SkillScan } from '../engine/scan.js';
import type { Baseline } from '../suppress.js';
import { scanCacheKeyer } from './scan-cache-key.js';
import { type ScanOutcome, ScanPool } from './scan-pool.js';

// Scanning a source: each skill goes to the scan pool as soon as intake has loaded it, so reading a corpus
// and scanning it overlap. Results keep the order in which intake lists the skills. Memory follows the
// pool's backlog, not the corpus: intake waits while the text loaded and not yet scanned is over the
// pool's limit, and a skill's text is let go once it is scanned (unless the caller keeps the skills).

export interface SkillScanResult {
  /** Where the skill is: the input path for a single skill, the input joined with its folder in a corpus. */
  path: string;
  name: string | null;
  /** The skill as loaded, text included: only with `keepSkills`. */
  skill?: Skill;
  scan?: SkillScan;
  /** The scan was read from the cache: nothing the scan reads had changed since it was stored. */
  cached?: true;
  error?: { code: UserErrorCode | 'SCAN_FAILED'; message: string };
}

export interface ScanSourceOptions {
  intake?: IntakeOptions;
  baseline?: Baseline;
  honourInline?: boolean;
  /** Rule packs of the user's own to apply with the built-in rules (`--rules DIR`). */
  ruleDirs?: readonly string[];
  /** Known-bad indicator lists of the user's own to use with the built-in one (`--indicators FILE`). */
  indicatorLists?: readonly IndicatorList[];
  /**
   * Threads that scan: 0 or 1, the main thread alone; N above one, N workers while the main thread reads.
   * Defaults to the machine's parallelism; workers start only when a corpus is large enough to repay their
   * start-up.
   */
  workers?: number;
  onProgress?: (done: number, total: number) => void;
  /** Keep each skill, text included, in its result (a model review reads it); else it is released. */
  keepSkills?: boolean;
  /** Scans of unchanged skills are read from here, and new ones written to it (scan-cache-key.ts). */
  cache?: ScanCache | null;
}

/** Whether a cached value is a scan (a row from another build or a damaged one is a miss). */
function isScan(value: unknown): value is SkillScan {
  const v = value as Partial<SkillScan> | null;
  return !!v && Array.isArray(v.findings) && typeof v.status === 'string' && Array.isArray(v.notes);
}

/** A scan cut short by the time budget depends on the machine's load: it is not kept. */
function cacheable(scan: SkillScan): boolean {
  return !scan.notes.some((n) => n.includes(BUDGET_SPENT));
}

/** Lets a scanned skill's text go: the handle lists every skill to the end, but nothing reads it again. */
function releaseText(skill: Skill): void {
  for (const file of skill.files) file.text = null;
  skill.body = '';
}

/** Loads every skill under `source` and scans each; a skill that fails intake is reported with its error. */
export async function scanSource(
  source: string,
  options: ScanSourceOptions = {},
): Promise<SkillScanResult[]> {
  const scanOptions: ScanOptions = {
    ...(options.baseline ? { baseline: options.baseline } : {}),
    honourInline: options.honourInline ?? false,
    ...(options.ruleDirs?.length ? { ruleDirs: options.ruleDirs } : {}),
    ...(options.indicatorLists?.length ? { indicatorLists: options.indicatorLists } : {}),
  };
  const outcomes = new Map<number, ScanOutcome>();
  const ids = new Map<Skill, number>();
  const cache = options.cache ?? null;
  const keyOf = cache ? scanCacheKeyer(scanOptions) : null;
  /** Skills whose scan came from the cache, and the keys of those scanned now. */
  const cached = new Map<Skill, SkillScan>();
  const keys = new Map<Skill, string>();
  const progress = () => options.onProgress?.(outcomes.size + cached.size, ids.size + cached.size);
  // One scanning thread is the main thread; more are that many workers (the main thread then only feeds them).
  const threads = Math.max(1, options.workers ?? availableParallelism());
  const pool = new ScanPool({
    maxWorkers: threads > 1 ? threads : 0,
    scan: scanOptions,
    onDone: (id, outcome, skill) => {
      outcomes.set(id, outcome);
      if (!options.keepSkills) releaseText(skill);
      progress();
    },
  });
  const add = (skill: Skill) => {
    const key = keyOf?.(skill);
    const hit = key ? cache!.get(key) : null;
    if (isScan(hit)) {
      cached.set(skill, hit);
      if (!options.keepSkills) releaseText(skill);
      progress();
      return;
    }
    if (key) keys.set(skill, key);
    ids.set(skill, pool.add(skill));
  };
  const scanning = pool.run();
  try {
    const intake: IntakeOptions = {
      ...options.intake,
      onSkill: (entry) => {
        if (entry.ok) add(entry.skill);
      },
      // With a cache, workers start only once enough skills missed it (the pool counts what it is given).
      onDiscovered: (count) => {
        if (!cache) pool.expect(count);
      },
      beforeLoad: () => pool.room(),
    };
    return await withSource(source, intake, async (handle) => {
      // Every skill is queued: wait for the scans before the handle (and any temporary folder) goes away.
      pool.close();
      await scanning;
      if (cache) {
        const fresh = [...keys].flatMap(([skill, key]) => {
          const outcome = outcomes.get(ids.get(skill)!);
          return outcome && !('error' in outcome) && cacheable(outcome) ? [[key, outcome] as const] : [];
        });
        cache.putMany(fresh);
      }
      return handle.skills.map((entry): SkillScanResult => {
        if (!entry.ok) return { path: handle.where(entry.path), name: null, error: entry.error };
        const { skill } = entry;
        // The pool has finished: every queued skill has an outcome, or the cache gave one.
        const hit = cached.get(skill);
        const outcome = hit ?? outcomes.get(ids.get(skill)!)!;
        return {
          path: handle.where(skill.provenance.subdir),
          name: skill.name || skill.folderName,
          ...(options.keepSkills ? { skill } : {}),
          ...(hit ? { cached: true as const } : {}),
          ...('error' in outcome
            ? { error: { code: 'SCAN_FAILED' as const, message: outcome.error } }
            : { scan: outcome }),
        };
      });
    });
  } finally {
    // Intake failed (or the scans are done): stop whatever is still queued and end the workers.
    pool.cancel();
    await scanning;
  }
}
