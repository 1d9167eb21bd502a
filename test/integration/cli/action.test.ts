import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildProgram } from '../../../src/cli/main.js';
import { BUILT_BIN, REPO_ROOT, requireBuild } from '../../support/built-cli.js';
import { sarifErrors } from '../../support/sarif-schema.js';

// The GitHub Action as the runner executes it: action.yml is parsed, each `run` step's script runs in bash with
// the runner's flags (`bash --noprofile --norc -eo pipefail`), its `${{ }}` expressions substituted into env as
// the runner does, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files, against a real git repository with a base
// commit and a pull request commit. `npm` is a recording stand-in: installing needs the network. The `uses`
// steps (setup-node, upload-sarif) are GitHub's; whether they would run is decided from their `if`.

const repo = REPO_ROOT;
const labeled = join(repo, 'eval', 'labeled');

interface Step {
  name: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}

interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(repo, 'action.yml'), 'utf8')) as Action;

let work: string;
let fakeBin: string;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** A repository whose base commit holds a benign and an (untouched) risky skill; the PR commit on top adds a
 * malicious skill, edits the benign one and the README. */
function pullRequestRepo(name: string): { dir: string; base: string } {
  const dir = join(work, name);
  mkdirSync(join(dir, 'skills'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'ci@example.com');
  git(dir, 'config', 'user.name', 'CI');
  cpSync(join(labeled, 'weather-brief'), join(dir, 'skills', 'weather-brief'), { recursive: true });
  cpSync(join(labeled, 'api-docs-generator'), join(dir, 'skills', 'api-docs-generator'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# skills\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  const base = git(dir, 'rev-parse', 'HEAD');
  cpSync(join(labeled, 'web-scraper-pro'), join(dir, 'skills', 'web-scraper-pro'), { recursive: true });
  writeFileSync(
    join(dir, 'skills', 'weather-brief', 'SKILL.md'),
    `${readFileSync(join(dir, 'skills', 'weather-brief', 'SKILL.md'), 'utf8')}\nUse metric units.\n`,
  );
  writeFileSync(join(dir, 'README.md'), '# skills\n\nNow with a scraper.\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'pr');
  return { dir, base };
}

/** How action.yml spells a GitHub expression. */
function expression(expr: string): string {
  return `\${{ ${expr} }}`;
}

interface Context {
  workspace: string;
  inputs: Record<string, string>;
  baseSha: string;
  outputs: Record<string, Record<string, string>>;
  conclusions: Record<string, 'success' | 'failure'>;
}

/** A `${{ }}` expression of the kinds action.yml uses; anything else fails the test, so it is never untested. */
function lookup(expr: string, ctx: Context): string {
  const input = /^inputs\.([\w-]+)$/.exec(expr);
  if (input) {
    const name = input[1]!;
    if (!(name in action.inputs)) throw new Error(`action.yml reads an undeclared input ${name}`);
    return ctx.inputs[name] ?? substitute(action.inputs[name]!.default ?? '', ctx);
  }
  const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
  if (output) return ctx.outputs[output[1]!]?.[output[2]!] ?? '';
  const conclusion = /^steps\.([\w-]+)\.conclusion$/.exec(expr);
  if (conclusion) return ctx.conclusions[conclusion[1]!] ?? '';
  if (expr === 'github.action_path') return repo;
  if (expr === 'github.event.pull_request.base.sha') return ctx.baseSha;
  throw new Error(`unsupported expression in action.yml: ${expr}`);
}

function substitute(text: string, ctx: Context): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => lookup(expr, ctx));
}

/** An `if:` made of `&&`-joined `always()` and `<expr> == '<literal>'` terms. */
function condition(step: Step, ctx: Context): boolean {
  if (step.if === undefined) return Object.values(ctx.conclusions).every((c) => c === 'success');
  return step.if.split('&&').every((raw) => {
    const term = raw.trim();
    if (term === 'always()') return true;
    const eq = /^([\w.-]+)\s*==\s*'([^']*)'$/.exec(term);
    if (!eq) throw new Error(`unsupported condition term in action.yml: ${term}`);
    return lookup(eq[1]!, ctx) === eq[2];
  });
}

interface StepRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runScript(script: string, env: Record<string, string>, cwd: string): Promise<StepRun> {
  return new Promise((done, fail) => {
    const file = join(mkdtempSync(join(work, 'step-')), 'script.sh');
    writeFileSync(file, script);
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
      cwd,
      env: { PATH: `${fakeBin}:${process.env.PATH}`, HOME: process.env.HOME ?? work, NO_COLOR: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

interface ActionRun {
  ran: string[];
  runs: Record<string, StepRun>;
  outputs: Record<string, Record<string, string>>;
  summary: string;
  npmCalls: string[];
  sarifPath: string;
  /** True when the last step left the job failed. */
  failed: boolean;
}

async function runAction(
  workspace: string,
  inputs: Record<string, string>,
  baseSha: string,
): Promise<ActionRun> {
  const ctx: Context = { workspace, inputs, baseSha, outputs: {}, conclusions: {} };
  const runnerTemp = mkdtempSync(join(work, 'runner-temp-'));
  const summaryFile = join(runnerTemp, 'step-summary.md');
  const npmLog = join(runnerTemp, 'npm.log');
  writeFileSync(summaryFile, '');
  const ran: string[] = [];
  const runs: Record<string, StepRun> = {};
  for (const step of action.runs.steps) {
    const key = step.id ?? step.name;
    if (!condition(step, ctx)) continue;
    ran.push(key);
    if (step.uses) {
      ctx.conclusions[key] = 'success';
      continue;
    }
    const outputFile = join(runnerTemp, `${key.replace(/\W/g, '_')}.out`);
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([name, value]) => [name, substitute(String(value), ctx)]),
    );
    const r = await runScript(
      step.run!,
      {
        ...env,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        RUNNER_TEMP: runnerTemp,
        GITHUB_WORKSPACE: workspace,
        NPM_LOG: npmLog,
      },
      workspace,
    );
    runs[key] = r;
    ctx.outputs[key] = Object.fromEntries(
      readFileSync(outputFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    ctx.conclusions[key] = r.code === 0 ? 'success' : 'failure';
  }
  const last = action.runs.steps.at(-1)!;
  return {
    ran,
    runs,
    outputs: ctx.outputs,
    summary: readFileSync(summaryFile, 'utf8'),
    npmCalls: existsSync(npmLog) ? readFileSync(npmLog, 'utf8').trim().split('\n') : [],
    sarifPath: join(workspace, lookup('inputs.sarif-file', ctx)),
    failed:
      ctx.conclusions[last.id ?? last.name] === 'failure' ||
      Object.values(ctx.conclusions).includes('failure'),
  };
}

function sarifUris(path: string): string[] {
  const log = JSON.parse(readFileSync(path, 'utf8')) as Log;
  expect(sarifErrors(log)).toEqual([]);
  return [
    ...new Set(
      log.runs[0]!.results!.map(
        (r) => r.locations![0]!.physicalLocation!.artifactLocation!.uri!.split('/')[1]!,
      ),
    ),
  ].sort();
}

beforeAll(() => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'skillaudit-action-'));
  fakeBin = join(work, 'fake-bin');
  mkdirSync(fakeBin);
  // Records the call; creates nothing, so a step that relied on npm having built something would fail.
  writeFileSync(join(fakeBin, 'npm'), '#!/bin/sh\necho "$PWD npm $*" >> "$NPM_LOG"\n');
  chmodSync(join(fakeBin, 'npm'), 0o755);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('action.yml', () => {
  it('is a composite action on Node 20 whose inputs match the brief and whose scan flags exist', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual(
      ['base-ref', 'fail-on', 'path', 'sarif-file', 'upload-sarif', 'version'].sort(),
    );
    expect(action.inputs.path!.default).toBe('.');
    expect(action.inputs['fail-on']!.default).toBe('risky');
    expect(action.inputs['upload-sarif']!.default).toBe('true');
    expect(action.inputs['base-ref']!.default).toBe(expression('github.event.pull_request.base.sha'));
    const steps = action.runs.steps;
    expect(steps[0]).toMatchObject({ uses: 'actions/setup-node@v4', with: { 'node-version': 20 } });
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(upload.uses).toBe('github/codeql-action/upload-sarif@v3');
    expect(upload.with).toEqual({ sarif_file: expression('inputs.sarif-file'), category: 'skillaudit' });
    expect(upload.if).toMatch(/^always\(\) && /);
    // The gate comes after the upload, so a failing scan never prevents the upload.
    expect(steps.indexOf(upload)).toBeLessThan(steps.length - 1);
    for (const step of steps.filter((s) => s.run)) expect(step.shell).toBe('bash');
    // Every flag the scan step passes is one `skillaudit scan` declares.
    const scanCommand = buildProgram().commands.find((c) => c.name() === 'scan')!;
    const declared = new Set(scanCommand.options.map((o) => o.long));
    const script = steps.find((s) => s.id === 'scan')!.run!;
    const used = [...script.matchAll(/args\+?=\(([^)]*)\)/g)].flatMap((m) => m[1]!.match(/--[\w-]+/g) ?? []);
    expect(used).toEqual(
      expect.arrayContaining([
        '--format',
        '--out',
        '--fail-on',
        '--fail-on-finding',
        '--changed-since',
        '--summary',
      ]),
    );
    for (const flag of used) expect(declared).toContain(flag);
  });

  it('docs/ci.md examples use only inputs the action declares and flags scan declares', () => {
    const docs = readFileSync(join(repo, 'docs', 'ci.md'), 'utf8');
    const blocks = [...docs.matchAll(/```(yaml|sh)\n([\s\S]*?)```/g)].map((m) => ({
      lang: m[1],
      text: m[2]!,
    }));
    const workflow = parse(blocks.find((b) => b.text.includes('uses: SkillAudit/skillaudit@'))!.text);
    const step = workflow.jobs.skillaudit.steps.find((s: Step) =>
      s.uses?.startsWith('SkillAudit/skillaudit@'),
    );
    for (const input of Object.keys(step.with)) expect(Object.keys(action.inputs)).toContain(input);
    expect(workflow.permissions['security-events']).toBe('write');
    const declared = new Set(
      buildProgram()
        .commands.find((c) => c.name() === 'scan')!
        .options.map((o) => o.long),
    );
    const commands = blocks.flatMap((b) => b.text.match(/skillaudit scan [^\n]*/g) ?? []);
    expect(commands.length).toBeGreaterThan(3);
    for (const flag of commands.flatMap((c) => c.match(/(?<=\s)--[\w-]+/g) ?? []))
      expect(declared).toContain(flag);
  });

  it('on a pull request: scans only the added and edited skills, writes valid SARIF and a summary, fails on risky', async () => {
    const { dir, base } = pullRequestRepo('pr');
    const r = await runAction(dir, {}, base);
    expect(r.runs.scan!.code).toBe(0);
    expect(r.outputs.scan!['exit-code']).toBe('1');
    expect(r.ran).toContain('Upload SARIF to code scanning');
    expect(r.failed).toBe(true);
    expect(r.runs['Apply fail-on']!.stdout).toMatch(
      /::error title=SkillAudit::skills at or above fail-on risky/,
    );
    // Only the changed skills: the untouched risky skill in the base commit is not scanned.
    expect(sarifUris(r.sarifPath)).toEqual(['web-scraper-pro']);
    expect(r.summary).toMatch(/^## SkillAudit scan: 2 skills \(🔴 1 risky, 🟡 0 caution, 🟢 1 pass\)/);
    expect(r.summary).toContain('`skills/weather-brief`');
    expect(r.summary).not.toContain('api-docs-generator');
    expect(r.summary).toContain('fail-on risky: failed');
    // The default install runs npm ci in the action's own checkout, whose bin the scan ran.
    expect(r.npmCalls).toEqual([`${repo} npm ci --no-audit --no-fund`]);
    expect(r.outputs.install!.bin).toBe(BUILT_BIN);
  });

  it('passes with fail-on none and still uploads', async () => {
    const { dir, base } = pullRequestRepo('pr-none');
    const r = await runAction(dir, { 'fail-on': 'none', 'sarif-file': 'out/audit.sarif' }, base);
    expect(r.outputs.scan!['exit-code']).toBe('0');
    expect(r.failed).toBe(false);
    expect(r.ran).toContain('Upload SARIF to code scanning');
    expect(sarifUris(join(dir, 'out', 'audit.sarif'))).toEqual(['web-scraper-pro']);
  });

  it('gates on medium only when a changed skill has a medium finding', async () => {
    const { dir, base } = pullRequestRepo('pr-benign');
    // A PR that only edits the benign skill: nothing at or above medium.
    git(dir, 'reset', '-q', '--hard', base);
    writeFileSync(
      join(dir, 'skills', 'weather-brief', 'notes.md'),
      '# Notes\n\nCity names are case-insensitive.\n',
    );
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'benign pr');
    const r = await runAction(dir, { 'fail-on': 'medium', 'upload-sarif': 'false' }, base);
    expect(r.outputs.scan!['exit-code']).toBe('0');
    expect(r.failed).toBe(false);
    expect(r.ran).not.toContain('Upload SARIF to code scanning');
    expect(sarifUris(r.sarifPath)).toEqual([]);
    expect(r.summary).toMatch(/1 skill changed since [0-9a-f]{40} \\\(1 changed file\\\)/);
  });

  it('with no base (a push): scans every skill under path', async () => {
    const { dir } = pullRequestRepo('push');
    const r = await runAction(dir, { path: 'skills' }, '');
    expect(r.outputs.scan!['exit-code']).toBe('1');
    expect(sarifUris(r.sarifPath)).toEqual(['api-docs-generator', 'web-scraper-pro']);
  });

  it('in a shallow checkout: fetches the base commit and compares the two trees', async () => {
    const { dir, base } = pullRequestRepo('origin');
    const clone = join(work, 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${dir}`, clone]);
    expect(() => git(clone, 'cat-file', '-e', `${base}^{commit}`)).toThrow();
    const r = await runAction(clone, {}, base);
    expect(r.runs.scan!.stderr).toMatch(/no merge base here \(a shallow clone\?\)/);
    expect(r.outputs.scan!['exit-code']).toBe('1');
    expect(sarifUris(r.sarifPath)).toEqual(['web-scraper-pro']);
    expect(r.summary).toContain('2 skills changed');
  });

  it('reports a scan that cannot run (an unknown base) as exit 2, not as findings', async () => {
    const { dir } = pullRequestRepo('bad-base');
    const r = await runAction(dir, {}, '0000000000000000000000000000000000000000');
    expect(r.outputs.scan!['exit-code']).toBe('2');
    expect(r.ran).not.toContain('Upload SARIF to code scanning');
    expect(r.runs['Apply fail-on']!.code).toBe(2);
    expect(r.runs['Apply fail-on']!.stdout).toMatch(/could not complete \(exit code 2\)/);
  });

  it('installs a pinned release from npm and refuses a version that is not one', async () => {
    const { dir, base } = pullRequestRepo('pinned');
    const ctx: Context = { workspace: dir, inputs: {}, baseSha: base, outputs: {}, conclusions: {} };
    const install = action.runs.steps.find((s) => s.id === 'install')!;
    const runInstall = async (version: string) => {
      const temp = mkdtempSync(join(work, 'install-'));
      const env = Object.fromEntries(
        Object.entries(install.env!).map(([k, v]) => [k, substitute(v, { ...ctx, inputs: { version } })]),
      );
      const out = join(temp, 'out');
      writeFileSync(out, '');
      const r = await runScript(
        install.run!,
        { ...env, GITHUB_OUTPUT: out, RUNNER_TEMP: temp, NPM_LOG: join(temp, 'npm.log') },
        dir,
      );
      return {
        ...r,
        temp,
        output: readFileSync(out, 'utf8'),
        npm: existsSync(join(temp, 'npm.log')) ? readFileSync(join(temp, 'npm.log'), 'utf8') : '',
      };
    };
    const pinned = await runInstall('0.1.0');
    expect(pinned.code).toBe(0);
    expect(pinned.npm).toContain(
      `npm install --prefix ${pinned.temp}/skillaudit-0.1.0 --no-audit --no-fund skillaudit@0.1.0`,
    );
    expect(pinned.output).toContain(
      `bin=${pinned.temp}/skillaudit-0.1.0/node_modules/skillaudit/bin/skillaudit.js`,
    );
    const hostile = await runInstall('1.0; touch pwned');
    expect(hostile.code).toBe(2);
    expect(hostile.stdout).toMatch(/::error title=SkillAudit::version must be a release/);
    expect(hostile.npm).toBe('');
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });
});
