import { SEVERITY_RANK } from '../core/taxonomy.js';
import type { Finding, Severity } from '../core/types.js';

export type FailOn = Severity | 'none';

/**
 * The exit code every gating command shares: 2 when a skill could not be loaded, else 1 when an unsuppressed
 * finding at or above `failOn` (and at least `minConfidence`) remains, else 0.
 */
export function gateExitCode(
  anyError: boolean,
  findingLists: readonly (readonly Finding[] | undefined)[],
  failOn: FailOn,
  minConfidence = 0,
): number {
  if (anyError) return 2;
  if (failOn === 'none') return 0;
  const gate = SEVERITY_RANK[failOn];
  const blocking = findingLists.some((findings) =>
    findings?.some(
      (f) => !f.suppressed && SEVERITY_RANK[f.severity] >= gate && f.confidence >= minConfidence,
    ),
  );
  return blocking ? 1 : 0;
}
