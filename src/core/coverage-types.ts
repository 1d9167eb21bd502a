// The detonation coverage record's shape (computed by src/detonate/coverage.ts), in core so the report model
// (and the HTML app that type-checks against it without Node's types) can import it without the detonate stage.

export interface MissingDependency {
  kind: 'module' | 'program' | 'interpreter';
  name: string;
  /** Entry ids of the runs that died on it. */
  runs: string[];
}

export interface DetonationCoverage {
  runs: number;
  /** Runs that got past start-up into the skill's code (did not die on a missing dependency first). */
  reachedCode: number;
  /** Runs that ran to a clean end (signals.ts stoppedEarly returned null). */
  completed: number;
  missing: MissingDependency[];
  /** Entry points the run budget left out. */
  overBudget: string[];
  /** Scripts of the skill no run executed, with why (no interpreter here, the budget). */
  scriptsNotRun: { file: string; reason: string }[];
  /** Platform shims runs relied on (shims.ts). */
  shims: string[];
  /**
   * Missing modules runs got inert stand-ins for (module-stand-ins.ts), so the code after the import ran.
   * Absent in reports made before stand-ins existed.
   */
  standIns?: string[];
  /** Installs that could not complete offline, which runs went on past (shims.ts); absent in older reports. */
  installsCut?: string[];
  /**
   * What the sandbox gave the skill because its code asked for it: environment variables its scripts read (keys
   * as canaries) and input files its SKILL.md commands name. Absent in older reports.
   */
  provided?: string[];
  headline: string;
}
