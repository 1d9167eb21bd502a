// Where a scan spends its time, by phase, for the benchmark (bench/scan.ts). Off unless a caller turns it on:
// then each phase boundary costs one clock read. Phases nest (markdown parsing inside the prose detector,
// tree-sitter inside a code detector): time is charged to the innermost phase only, so the phases add up to
// the scan. Meant for one scan at a time on one thread (the benchmark's in-process pass).

export const PHASES = ['intake', 'markdown', 'prose', 'parse', 'code', 'scoring'] as const;
export type Phase = (typeof PHASES)[number];
export type PhaseTimes = Record<Phase, number>;

let times: PhaseTimes | null = null;
let active: Phase | null = null;
let since = 0;

function charge(now: number): void {
  if (times && active) times[active] += now - since;
  since = now;
}

/** Starts accounting into a fresh record (milliseconds per phase); returns it, filled as phases run. */
export function startTiming(): PhaseTimes {
  times = { intake: 0, markdown: 0, prose: 0, parse: 0, code: 0, scoring: 0 };
  active = null;
  since = performance.now();
  return times;
}

/** Stops accounting; the record returned by startTiming keeps its figures. */
export function stopTiming(): void {
  if (times) charge(performance.now());
  times = null;
  active = null;
}

/** Enters `phase`; returns what to pass to leave(). A no-op unless timing is on. */
export function enter(phase: Phase): Phase | null {
  if (!times) return null;
  const outer = active;
  charge(performance.now());
  active = phase;
  return outer;
}

/** Leaves the phase entered last, back to `outer` (what enter() returned). */
export function leave(outer: Phase | null): void {
  if (!times) return;
  charge(performance.now());
  active = outer;
}

/** Runs `fn` charged to `phase`. */
export function timed<T>(phase: Phase, fn: () => T): T {
  if (!times) return fn();
  const outer = enter(phase);
  try {
    return fn();
  } finally {
    leave(outer);
  }
}

/** Time, calls and characters read for one named unit of work (a detector, a prose rule). */
export interface UnitCost {
  ms: number;
  calls: number;
  chars: number;
}

let units: Map<string, UnitCost> | null = null;

/**
 * Starts accounting per unit as well (the benchmark's per-detector and per-rule table); returns the record,
 * filled as units run until stopUnitTiming(). A unit's time includes what it asked for first (the markdown
 * tree or the syntax tree a later detector finds cached), so units do not add up to the phases.
 */
export function startUnitTiming(): Map<string, UnitCost> {
  units = new Map();
  return units;
}

export function stopUnitTiming(): void {
  units = null;
}

/** True while units are being accounted: callers skip the clock reads otherwise. */
export function unitTimingOn(): boolean {
  return units !== null;
}

/** Adds one call of `unit` that took `ms` over `chars` characters. */
export function chargeUnit(unit: string, ms: number, chars: number): void {
  if (!units) return;
  const cost = units.get(unit);
  if (cost) {
    cost.ms += ms;
    cost.calls++;
    cost.chars += chars;
  } else units.set(unit, { ms, calls: 1, chars });
}
