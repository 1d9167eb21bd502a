// The scan's time budget, apart from the engine: a source scan reads BUDGET_SPENT to keep such scans out of
// the cache without loading every detector.

/**
 * Time one skill's detectors may take before the rest are skipped, and the scan says which files they missed:
 * a pathological skill must not stall a corpus. Real skills take well under a second (bench/scan.ts), and a
 * budget that a busy machine could exhaust would make findings depend on the load, so it is generous. A
 * detector that is running is not interrupted: the budget is checked before each one starts.
 */
export const SKILL_BUDGET_MS = 30_000;
/** Words of the note a scan cut short by its budget carries (source/scan-source.ts does not cache such a scan). */
export const BUDGET_SPENT = "the scan's time budget";
