// `skillaudit tasks export` end to end on examples/csv-summary: scenarios from the fake model server over HTTP,
// written as Harbor task pairs; the pairs differ only by the skill, and the generated test.sh runs in bash.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Command } from 'commander';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerTasks } from '../../../src/cli/tasks.js';
import { type FakeModelServer, startFakeModelServer } from '../../support/fake-model-server.js';

const HOSTILE_VALUE = `rows'; touch "$PWNED"; echo '`;
const scenario = (n: number) => ({
  title: `Profile ${n}`,
  instruction: `Finance sent data/sales${n}.csv. Write profile.md telling us what it holds.`,
  capabilityAnalysis: 'profiling before answering',
  checklist: [`CHECKLIST-SECRET-${n}: states the row count`, 'names the column with missing values'],
  rubric: 'numbers must match',
  expectedOutcome: 'profile.md',
  materials: [{ path: `data/sales${n}.csv`, content: 'region,amount\nnorth,10\nsouth,\n' }],
  ruleChecks: [
    { kind: 'file_exists', path: 'profile.md', value: '', command: '' },
    { kind: 'file_contains', path: 'profile.md', value: 'rows: 2\nmissing: amount', command: '' },
    { kind: 'file_contains', path: 'profile.md', value: HOSTILE_VALUE, command: '' },
    { kind: 'command_succeeds', path: '', value: '', command: "grep -q 'rows' profile.md" },
  ],
});

let server: FakeModelServer;
let out: string;

function walk(root: string): string[] {
  const files: string[] = [];
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) visit(abs);
      else files.push(relative(root, abs));
    }
  };
  visit(root);
  return files.sort();
}

async function runExport(dir: string, extra: string[] = []): Promise<void> {
  const program = new Command().exitOverride();
  registerTasks(program);
  const saved = process.env.ANTHROPIC_API_KEY;
  process.env.ANTHROPIC_API_KEY = 'test-key';
  try {
    await program.parseAsync(
      [
        'tasks',
        'export',
        'examples/csv-summary',
        '--out',
        dir,
        '--base-url',
        server.baseUrl,
        '--no-cache',
        '--quiet',
        ...extra,
      ],
      { from: 'user' },
    );
  } finally {
    if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
    else process.env.ANTHROPIC_API_KEY = saved;
  }
}

beforeAll(async () => {
  server = await startFakeModelServer();
  server.setScripts([
    {
      name: 'schemes',
      turns: [{ json: { capabilityAnalysis: 'profiles data', scenarios: [1, 2, 3].map(scenario) } }],
    },
  ]);
  out = mkdtempSync(join(tmpdir(), 'skillaudit-tasks-'));
  await runExport(out, ['--model', 'anthropic/claude-sonnet-4-6']);
});

afterAll(async () => {
  await server.close();
  rmSync(out, { recursive: true, force: true });
});

describe('tasks export', () => {
  let tasksDir: string;
  beforeAll(() => {
    const [skillDir] = readdirSync(out);
    tasksDir = join(out, skillDir as string, 'tasks');
  });

  it('writes three pairs, the schemes and an index', () => {
    const folders = readdirSync(tasksDir)
      .filter((f) => f !== 'index.json')
      .sort();
    expect(folders).toEqual([
      'csv-summary-s1__no_skill',
      'csv-summary-s1__with_skill',
      'csv-summary-s2__no_skill',
      'csv-summary-s2__with_skill',
      'csv-summary-s3__no_skill',
      'csv-summary-s3__with_skill',
    ]);
    const index = JSON.parse(readFileSync(join(tasksDir, 'index.json'), 'utf8'));
    expect(index.tasks).toHaveLength(6);
    expect(existsSync(join(tasksDir, '..', 'schemes', 'scenarios.json'))).toBe(true);
    expect(server.requests.filter((r) => r.path === '/v1/messages')).toHaveLength(1);
  });

  it('follows Harbor’s task layout', () => {
    const dir = join(tasksDir, 'csv-summary-s1__with_skill');
    for (const f of ['task.toml', 'instruction.md', 'environment/Dockerfile', 'tests/test.sh']) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    const toml = parse(readFileSync(join(dir, 'task.toml'), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(toml.schema_version).toBe('1.1');
    expect(toml.environment?.skills_dir).toBe('/skills');
    expect(toml.verifier?.timeout_sec).toBeGreaterThan(0);
    expect(toml.agent?.timeout_sec).toBeGreaterThan(0);
    expect(toml.environment).toMatchObject({ cpus: 1, memory_mb: 2048 });
    expect(toml.metadata).toMatchObject({ skillaudit_condition: 'with_skill', skillaudit_scenario: 's1' });
    expect(readFileSync(join(dir, 'environment', 'Dockerfile'), 'utf8')).toMatch(/^FROM python:3\.12-slim\n/);
    expect(statSync(join(dir, 'tests', 'test.sh')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(dir, 'instruction.md'), 'utf8')).toBe(
      'Finance sent data/sales1.csv. Write profile.md telling us what it holds.\n',
    );
  });

  it('the two tasks of a pair differ only by the skill (and the condition label)', () => {
    const withDir = join(tasksDir, 'csv-summary-s2__with_skill');
    const noDir = join(tasksDir, 'csv-summary-s2__no_skill');
    const withFiles = walk(withDir);
    const noFiles = walk(noDir);
    const skillFiles = withFiles.filter((f) => f.startsWith('environment/skills/'));
    expect(skillFiles.sort()).toEqual(
      walk('examples/csv-summary').map((f) => `environment/skills/csv-summary/${f}`),
    );
    expect(withFiles.filter((f) => !f.startsWith('environment/skills/'))).toEqual(noFiles);
    for (const f of noFiles) {
      const a = readFileSync(join(withDir, f), 'utf8');
      const b = readFileSync(join(noDir, f), 'utf8');
      if (f === 'task.toml') {
        // Only the condition label and Harbor's skills_dir (where the skill is) differ.
        expect(a).toContain('skills_dir = "/skills"');
        expect(b).not.toContain('skills_dir');
        const label = (t: string, cond: string) =>
          t.replaceAll(cond, 'COND').replace('skills_dir = "/skills"\n', '');
        expect(label(a, 'with_skill')).toBe(label(b, 'no_skill'));
      } else {
        expect(a, f).toBe(b);
      }
    }
    expect(readFileSync(join(withDir, 'environment/skills/csv-summary/SKILL.md'), 'utf8')).toBe(
      readFileSync('examples/csv-summary/SKILL.md', 'utf8'),
    );
  });

  it('keeps the checklist out of everything the agent sees', () => {
    for (const cond of ['with_skill', 'no_skill']) {
      const dir = join(tasksDir, `csv-summary-s3__${cond}`);
      for (const f of walk(dir).filter((p) => !p.startsWith('tests/'))) {
        expect(readFileSync(join(dir, f), 'utf8'), f).not.toContain('CHECKLIST-SECRET');
      }
      const checklist = JSON.parse(readFileSync(join(dir, 'tests', 'checklist.json'), 'utf8'));
      expect(checklist.checklist[0].text).toBe('CHECKLIST-SECRET-3: states the row count');
    }
  });

  it('test.sh scores the rule checks, with hostile values kept as data', () => {
    const root = mkdtempSync(join(tmpdir(), 'skillaudit-verifier-'));
    try {
      const app = join(root, 'app');
      const logs = join(root, 'logs');
      mkdirSync(app);
      // Harbor runs the script in the container; here /app and /logs are moved into a temp folder.
      const script = readFileSync(join(tasksDir, 'csv-summary-s1__no_skill', 'tests', 'test.sh'), 'utf8')
        .replaceAll('/logs/verifier', join(logs, 'verifier'))
        .replaceAll('cd /app', `cd ${app}`);
      writeFileSync(join(root, 'test.sh'), script);
      const pwned = join(root, 'pwned');
      const run = () =>
        execFileSync('bash', [join(root, 'test.sh')], {
          env: { PATH: process.env.PATH, PWNED: pwned },
        }).toString();

      let said = run();
      expect(readFileSync(join(logs, 'verifier', 'reward.txt'), 'utf8').trim()).toBe('0.0000');
      expect(said).toContain('0/4 passed');

      writeFileSync(join(app, 'profile.md'), 'rows: 2\nmissing: amount\n');
      said = run();
      // exists, the multi-line value and the command pass; the hostile value is simply absent: 3/4.
      expect(said).toContain('3/4 passed');
      expect(readFileSync(join(logs, 'verifier', 'reward.txt'), 'utf8').trim()).toBe('0.7500');
      expect(existsSync(pwned)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a model failure exits 2 with the reason and writes no tasks; no model is a usage error', async () => {
    const failed = mkdtempSync(join(tmpdir(), 'skillaudit-tasks-fail-'));
    try {
      server.inject({ status: 400, times: 1 });
      await runExport(failed, ['--model', 'anthropic/claude-sonnet-4-6']);
      expect(process.exitCode).toBe(2);
      expect(readdirSync(failed)).toEqual([]);
      await expect(runExport(failed, ['--model', ''])).rejects.toThrow(/needs a model/);
    } finally {
      process.exitCode = undefined;
      rmSync(failed, { recursive: true, force: true });
    }
  });
});
