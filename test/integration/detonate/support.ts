import type { Finding, Verdict } from '../../../src/core/types.js';
import { type DetonateOptions, type DetonationResult, detonateSkill } from '../../../src/detonate/index.js';
import { detectBackends } from '../../../src/sandbox/index.js';
import { scanSkill } from '../../../src/scan/engine/scan.js';
import { loadLocalSkill } from '../../support/load-folder.js';

// A fixture skill scanned and detonated on the real sandbox, with its findings and confirmed verdicts.

const FIXTURES = new URL('../../fixtures/detonate/', import.meta.url).pathname;
export async function detonateFixture(
  name: string,
  options: DetonateOptions = {},
): Promise<DetonationResult & { findings: Finding[]; confirmed: (Finding & { verdict: Verdict })[] }> {
  if (!(await detectBackends()).some((b) => b.usable)) throw new Error('no sandbox backend usable');
  const skill = await loadLocalSkill(`${FIXTURES}${name}`);
  const scan = await scanSkill(skill);
  const d = await detonateSkill(skill, scan.findings, options);
  const findings = [...scan.findings, ...d.runtimeFindings];
  const confirmed = d.verdicts
    .filter((v) => v.kind === 'confirmed')
    .map((v) => ({ ...findings.find((f) => f.id === v.finding)!, verdict: v }));
  return { ...d, findings, confirmed };
}
