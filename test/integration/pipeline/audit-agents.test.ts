// Several agents in one audit: the built-in agent and real Claude Code (installed on first use) run the same
// scenario pair in parallel against the fake model server; the report gives one utility row per agent.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../../src/pipeline/audit.js';
import { validateReport } from '../../../src/report/schema.js';
import { type FakeModelServer, mentions, startFakeModelServer } from '../../support/fake-model-server.js';
import { modelAuditOptions, requireHarness } from '../../support/model-audit.js';

const SKILL = 'release-notes-kv';
const LINE = 'Release 2.4.0: fixes 3 bugs';
const WRITE = `printf '${LINE}\\n' > notes.txt`;
let server: FakeModelServer;
let dir: string;

beforeAll(async () => {
  await requireHarness('claude-code');
  server = await startFakeModelServer({ usage: { input: 800, cached: 200, output: 40 } });
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-agents-audit-'));
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('audit --agents builtin,claude-code', () => {
  it('one utility row per agent; each with-skill run loaded the skill, no no-skill run saw it', async () => {
    const verdicts = (passed: boolean) => ({
      items: [{ id: 'c1', passed, evidence: passed ? LINE : '', reason: 'scripted' }],
    });
    server.setScripts([
      {
        name: 'schemes',
        match: (r) => r.raw.includes('scenarios for this skill'),
        turns: [
          {
            json: {
              capabilityAnalysis: 'release note format',
              scenarios: [
                {
                  title: 'Notes',
                  instruction: 'changes.log lists what went into 2.4.0. Summarise it for users in notes.txt.',
                  capabilityAnalysis: 'format',
                  checklist: ['notes.txt has the one-line summary in the team format'],
                  rubric: 'exact format',
                  expectedOutcome: LINE,
                  materials: [{ path: 'changes.log', content: 'fix a\nfix b\nfix c\n' }],
                  ruleChecks: [{ kind: 'file_exists', path: 'notes.txt', value: '', command: '' }],
                },
              ],
            },
          },
        ],
      },
      {
        name: 'judge-pass',
        match: (r) => r.raw.includes('Checklist (one verdict per id)') && r.raw.includes(LINE),
        turns: [{ json: verdicts(true) }],
      },
      {
        name: 'judge-fail',
        match: (r) => r.raw.includes('Checklist (one verdict per id)'),
        turns: [{ json: verdicts(false) }],
      },
      {
        name: 'claude-with',
        match: (r) => mentions(SKILL)(r) && r.toolNames.includes('Bash'),
        turns: [
          { toolCalls: [{ name: 'Skill', input: { skill: SKILL } }] },
          { toolCalls: [{ name: 'Bash', input: { command: WRITE, description: 'write the notes' } }] },
          { text: 'Wrote notes.txt.' },
        ],
      },
      {
        name: 'builtin-with',
        match: mentions(SKILL),
        turns: [
          { toolCalls: [{ name: 'skill', input: { name: SKILL } }] },
          { toolCalls: [{ name: 'shell', input: { command: WRITE } }] },
          { text: 'Wrote notes.txt.' },
        ],
      },
      { name: 'no-skill', turns: [{ text: 'The log has three fixes; I did not write a file.' }] },
    ]);
    const root = join(dir, SKILL);
    mkdirSync(root);
    writeFileSync(
      join(root, 'SKILL.md'),
      `---\nname: ${SKILL}\ndescription: Team format for user-facing release notes.\n---\n# Format\n\nOne line: "Release <version>: fixes <n> bugs".\n`,
    );
    const [outcome] = await runAudit(
      root,
      modelAuditOptions(
        join(dir, 'runs'),
        { baseUrl: server.url, dir },
        { agents: ['builtin', 'claude-code'], scenarios: 1, concurrency: 4 },
      ),
    );
    const report = outcome?.report;
    if (!report) throw new Error(`audit failed: ${JSON.stringify(outcome?.error)}`);
    expect(validateReport(report)).toEqual([]);
    expect(report.notRun.map((n) => n.stage)).toEqual(['detonate']);
    expect(report.utility?.scenarios[0]?.withSkill.agent).toBe('builtin (anthropic/claude-sonnet-4-5)');
    const rows = report.configuration.utilityByAgent as {
      agent: string;
      harness: string | null;
      prg: number;
      scenarios: { withSkill: { skillLoaded: boolean; agent: string } }[];
    }[];
    expect(rows.map((r) => [r.agent, r.harness, r.prg])).toEqual([
      ['builtin', null, 1],
      ['claude-code', '@anthropic-ai/claude-code@2.1.332', 1],
    ]);
    for (const r of rows) expect(r.scenarios[0]?.withSkill.skillLoaded).toBe(true);
    const noSkill = server.requests.filter((r) => r.script === 'no-skill');
    expect(noSkill.length).toBeGreaterThanOrEqual(2);
    for (const r of noSkill) expect(JSON.stringify(r.body)).not.toContain(SKILL);
    expect(server.requests.filter((r) => r.script === 'claude-with').length).toBe(3);
  }, 300_000);
});
