// Scripts the fake model server for a model-backed audit of one small skill: scheme generation, the blind judge
// (passes only trials that show the total line) and the built-in agent's with-skill and no-skill turns. Shared by
// the pipeline integration test and the audit benchmark (bench/audit.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeRequestView, type FakeScript, type FakeTurn, mentions } from '../fake-model-server.js';

export const SKILL = 'ledger-totals-xq';
/** A marker only the evaluator side (checklist) carries: no agent request may ever contain it. */
export const CHECK_MARK = 'evaluator-only-mark-5521';
export const TOTAL = 'grand total: 42.50';
export const WRITE_TOTAL = `printf '${TOTAL}\\n' > totals.txt`;

export const scenario = (n: number) => ({
  title: `Invoices ${n}`,
  instruction: `Finance batch ${n}: invoices.csv holds this month's invoices. Put the overall sum in totals.txt.`,
  capabilityAnalysis: 'the skill fixes the summary line format',
  checklist: [`totals.txt holds the summary line (${CHECK_MARK})`, 'the amount is 42.50'],
  rubric: 'the sum must match the file',
  expectedOutcome: `totals.txt with "${TOTAL}"`,
  materials: [{ path: 'invoices.csv', content: 'id,amount\n1,40.00\n2,2.50\n' }],
  ruleChecks: [{ kind: 'file_exists', path: 'totals.txt', value: '', command: '' }],
});

export const isSchemes = (r: FakeRequestView) => r.raw.includes('scenarios for this skill');
export const isJudge = (r: FakeRequestView) => r.raw.includes('Checklist (one verdict per id)');
export const isChainJudge = (r: FakeRequestView) => r.raw.includes("SkillAudit's behaviour-chain judge");
export const isGranularityJudge = (r: FakeRequestView) =>
  r.raw.includes("SkillAudit's task-granularity judge");

/** The quality profile's rubric judges (Tables 13, 14): quotes the with-skill run's message and the skill. */
export const RUBRIC_SCRIPTS: FakeScript[] = [
  {
    name: 'rubric-chain',
    match: isChainJudge,
    turns: [{ json: { score: 0.75, evidence: ['Wrote totals.txt.'], rationale: 'scripted' } }],
  },
  {
    name: 'rubric-granularity',
    match: isGranularityJudge,
    turns: [{ json: { score: 1, evidence: ['The summary line reads'], rationale: 'scripted' } }],
  },
];

/** Rubric judges, schemes, judge (passes items only when the trial shows the total line), then the agent turns. */
export function scripts(withSkillTurns: FakeTurn[], noSkillTurns: FakeTurn[], scenarios = 2): FakeScript[] {
  const verdicts = (passed: boolean) => ({
    items: ['c1', 'c2'].map((id) => ({ id, passed, evidence: passed ? TOTAL : '', reason: 'scripted' })),
  });
  return [
    ...RUBRIC_SCRIPTS,
    {
      name: 'schemes',
      match: isSchemes,
      turns: [
        {
          json: {
            capabilityAnalysis: 'summary line format',
            scenarios: Array.from({ length: scenarios }, (_, i) => scenario(i + 1)),
          },
        },
      ],
    },
    {
      name: 'judge-pass',
      match: (r) => isJudge(r) && r.raw.includes(TOTAL),
      turns: [{ json: verdicts(true) }],
    },
    { name: 'judge-fail', match: isJudge, turns: [{ json: verdicts(false) }] },
    { name: 'with-skill', match: mentions(SKILL), turns: withSkillTurns },
    { name: 'no-skill', turns: noSkillTurns },
  ];
}

/** The with-skill agent: loads the skill, writes the total line, says so (three model turns). */
export const LOADS_AND_WRITES: FakeTurn[] = [
  { toolCalls: [{ name: 'skill', input: { name: SKILL } }] },
  { toolCalls: [{ name: 'shell', input: { command: WRITE_TOTAL } }] },
  { text: 'Wrote totals.txt.' },
];

/** Writes the skill folder <root>/ledger-totals-xq/SKILL.md (with `extra` appended to its body). */
export function writeSkill(root: string, extra = ''): string {
  const folder = join(root, SKILL);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'SKILL.md'),
    `---\nname: ${SKILL}\ndescription: House style for invoice summaries.\n---\n# House style\n\nThe summary line reads "grand total: <sum>" with two decimals, alone on its line.\n${extra}`,
  );
  return folder;
}
