import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import type { SeedFile } from '../sandbox/types.js';

// The instruments placed in the sandbox (line traces, module stand-ins, offline installs) report what they saw on
// the run's stderr, one fact a line, each line opening with a key made for this detonation. The key and the
// skill's folder are written into the instruments' own files as they are placed, never into the environment,
// and neither names the tool: a line a skill prints is believed only if the skill read the instruments' files to
// learn the key, which only code aimed at this sandbox does. Instruments that live in the process they watch
// cannot hide from it, so what a report claims is also checked against the file: a line trace names only lines
// that hold something, and a report that names a blank line or one past the end was not written by a trace.

/** Placeholders in the instruments' sources, filled by placeInstruments. */
export const CHANNEL_KEY = '__CHANNEL_KEY__';
export const SKILL_ROOT = '__SKILL_ROOT__';

/** A fresh key for one detonation: plain hex, as a build id or a request id looks. */
export function channelKey(): string {
  return randomBytes(12).toString('hex');
}

/**
 * The instruments' seed files with the key and the skill's folder filled in. Only the instruments' files: a
 * skill file carrying the placeholder must never be handed the key.
 */
export function placeInstruments(files: readonly SeedFile[], key: string, skillRoot: string): SeedFile[] {
  return files.map((f) =>
    typeof f.content === 'string'
      ? { ...f, content: f.content.replaceAll(CHANNEL_KEY, key).replaceAll(SKILL_ROOT, skillRoot) }
      : f,
  );
}

/** What the instruments reported of one run. */
export interface InstrumentReport {
  /** The run's stderr without the report lines. */
  stderr: string;
  /** Lines of the skill's code the run executed, by file relative to the skill's folder; null: none reported. */
  linesRun: Record<string, number[]> | null;
  /** Modules that got an inert stand-in (module-stand-ins.ts), once each, in order. */
  standIns: string[];
  /** Installs that could not complete offline and that the run went on past (shims.ts), once each. */
  installsCut: string[];
  /** Where in `stderr` the run went on past the last cut install (-1: none): what came before is the install's. */
  installCutAt: number;
  /** Why the line report cannot be believed (it names lines that hold no code), or null. */
  forged: string | null;
}

/** The lines of a skill file as the sandbox has it, or null when unknown (a file the run made, a cut file). */
export type FileLines = (file: string) => string[] | null;

const KINDS = ['lines', 'stand-in', 'install'] as const;
type ReportKind = (typeof KINDS)[number];

/** How an instrument's report line starts (the key is filled in when the instrument is placed). */
export function reportPrefix(kind: ReportKind): string {
  return `${CHANNEL_KEY} ${kind} `;
}

/** Takes the report lines keyed with `key` out of a run's stderr. `root`: the skill's folder in the sandbox. */
export function takeReport(
  stderr: string,
  key: string,
  root: string,
  fileLines: FileLines,
): InstrumentReport {
  const out: InstrumentReport = {
    stderr,
    linesRun: null,
    standIns: [],
    installsCut: [],
    installCutAt: -1,
    forged: null,
  };
  if (!stderr.includes(key)) return out;
  const prefix = `${root.replace(/\/+$/, '')}/`;
  const kept: string[] = [];
  let keptLength = 0;
  const lines: Record<string, Set<number>> = {};
  for (const line of stderr.split('\n')) {
    const m = line.startsWith(`${key} `) ? /^(\S+) (.*)$/.exec(line.slice(key.length + 1)) : null;
    if (!m || !(KINDS as readonly string[]).includes(m[1]!)) {
      kept.push(line);
      keptLength += line.length + 1;
      continue;
    }
    const body = m[2]!;
    if (m[1] === 'stand-in') {
      if (!out.standIns.includes(body)) out.standIns.push(body);
    } else if (m[1] === 'install') {
      if (!out.installsCut.includes(body)) out.installsCut.push(body);
      out.installCutAt = keptLength;
    } else {
      const claim = /^(.*) ([\d,]*)$/.exec(body);
      if (!claim || !claim[1]!.startsWith(prefix)) continue;
      const file = posix.normalize(claim[1]!.slice(prefix.length));
      const seen = lines[file] ?? new Set<number>();
      for (const n of claim[2]!.split(',').filter(Boolean)) seen.add(Number(n));
      lines[file] = seen;
    }
  }
  out.stderr = kept.join('\n').replace(/\n+$/, stderr.endsWith('\n') ? '\n' : '');
  if (Object.keys(lines).length) {
    out.linesRun = Object.fromEntries(
      Object.entries(lines).map(([file, set]) => [file, [...set].sort((a, b) => a - b)]),
    );
    out.forged = impossibleClaim(out.linesRun, fileLines);
    if (out.forged) out.linesRun = null;
  }
  return out;
}

/** A claimed line no trace reports (blank, or past the end of the file), said plainly; null when all are possible. */
function impossibleClaim(linesRun: Record<string, number[]>, fileLines: FileLines): string | null {
  for (const [file, claimed] of Object.entries(linesRun)) {
    const text = fileLines(file);
    if (!text) continue;
    // Python's tracer reports a module's start as line 0.
    const bad = claimed.find((n) => n > text.length || (n > 0 && !text[n - 1]!.trim()));
    if (bad !== undefined)
      return `the run's report of the lines it executed names ${file}:${bad}, which holds no code: the report was not written by the sandbox's trace, so the run lowers nothing`;
  }
  return null;
}
