// `skillaudit optimize` end to end: the real CLI entry (main), intake, scanner and quality profile, and the ai
// SDK over HTTP against the scripted fake model server speaking the Anthropic and OpenAI Responses protocols.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { staticQualityProfile } from '../../../src/quality/index.js';
import { runCli } from '../../support/cli-run.js';
import {
  INJECTED_REWRITE,
  isOptimize,
  RISKY_SKILL,
  STRONG_REWRITE,
  WEAK_SKILL,
  WORSE_REWRITE,
  writeSkill,
} from '../../support/fake-model/optimize-script.js';
import {
  type FakeModelServer,
  type FakeTurn,
  startFakeModelServer,
} from '../../support/fake-model-server.js';
import { loadLocalSkill } from '../../support/load-folder.js';

let server: FakeModelServer;
let root: string;
let skills: string;
let weakDir: string;
let riskyDir: string;

/** sha256 over every path and file content under a folder: equal before and after means untouched. */
function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const visit = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = join(d, e.name);
      hash.update(relative(dir, abs));
      if (e.isDirectory()) visit(abs);
      else hash.update(readFileSync(abs));
    }
  };
  visit(dir);
  return hash.digest('hex');
}

function script(turns: FakeTurn[]) {
  server.setScripts([{ name: 'optimize', match: isOptimize, turns }]);
}

let outCount = 0;
const freshOut = () => join(root, 'outs', `out-${++outCount}`);

async function optimize(
  args: string[],
  model = 'anthropic/claude-sonnet-4-6',
): Promise<{ code: number; out: string; err: string }> {
  const r = await runCli(['optimize', ...args, '--model', model, '--base-url', server.baseUrl, '--no-cache']);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  server = await startFakeModelServer();
  root = mkdtempSync(join(tmpdir(), 'skillaudit-optimize-'));
  skills = join(root, 'skills');
  weakDir = writeSkill(skills, WEAK_SKILL);
  riskyDir = writeSkill(skills, RISKY_SKILL);
  process.env.ANTHROPIC_API_KEY = 'test-key';
  process.env.OPENAI_API_KEY = 'test-key';
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.OPENAI_API_KEY;
});

afterEach(() => server.reset());

describe('skillaudit optimize', () => {
  for (const model of ['anthropic/claude-sonnet-4-6', 'openai/gpt-5-mini']) {
    it(`writes a better-scoring copy, a diff and a table, and leaves the input alone (${model.split('/')[0]})`, async () => {
      script([{ json: STRONG_REWRITE }, { json: STRONG_REWRITE }]);
      const before = treeHash(weakDir);
      const out = freshOut();
      const run = await optimize([weakDir, '--out', out, '--quiet'], model);
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      expect(treeHash(weakDir)).toBe(before);

      // The optimised folder scores higher through the real intake and profile, not only in our report.
      const original = staticQualityProfile(await loadLocalSkill(weakDir));
      const copy = await loadLocalSkill(join(out, WEAK_SKILL.name), out);
      const optimised = staticQualityProfile(copy);
      expect(optimised.overall!).toBeGreaterThan(original.overall!);
      expect(copy.name).toBe(WEAK_SKILL.name);
      expect(copy.description).toBe(STRONG_REWRITE.description);
      // Every other file is copied byte for byte.
      expect(readFileSync(join(out, WEAK_SKILL.name, 'scripts', 'summarize.py'), 'utf8')).toBe(
        WEAK_SKILL.files['scripts/summarize.py'],
      );

      const diff = readFileSync(join(out, 'optimize.diff'), 'utf8');
      expect(diff).toMatch(/^--- a\/weak-csv\/SKILL\.md\n\+\+\+ b\/weak-csv\/SKILL\.md\n@@ /);
      expect(diff).toContain('+## When not to use');
      expect(diff).toContain('-description: Helps with files.');
      // The diff applies to the original with git apply and gives the written SKILL.md.
      const work = mkdtempSync(join(tmpdir(), 'skillaudit-optimize-apply-'));
      writeSkill(work, WEAK_SKILL);
      execFileSync('git', ['apply', join(out, 'optimize.diff')], { cwd: work });
      expect(readFileSync(join(work, WEAK_SKILL.name, 'SKILL.md'), 'utf8')).toBe(
        readFileSync(join(out, WEAK_SKILL.name, 'SKILL.md'), 'utf8'),
      );
      rmSync(work, { recursive: true, force: true });

      const report = JSON.parse(readFileSync(join(out, 'optimize.json'), 'utf8'));
      expect(report.improved).toBe(true);
      expect(report.bestRound).toBe(1);
      expect(report.rounds.map((r: { outcome: string }) => r.outcome)).toEqual(['improved', 'not_better']);
      expect(report.stopped.reason).toBe('no_improvement');
      expect(report.after.scores.overall).toBe(optimised.overall);
      expect(report.dimensionsUsed).toEqual([
        'structural-completeness',
        'conciseness',
        'description-content-consistency',
      ]);
      expect(report.usage.calls).toBe(2);
      expect(report.usage.input).toBeGreaterThan(0);
      expect(report.model.apiKeySet).toBe(true);
      expect(JSON.stringify(report)).not.toContain('test-key');

      // The table: one row per dimension used, before and after.
      expect(run.out).toMatch(/Structural completeness\s+0\.86\s+1\.00/);
      expect(run.out).toMatch(/Overall \(dimensions used\)\s+\d\.\d\d\s+\d\.\d\d \+/);
      expect(run.out).toContain("kept: round 1's rewrite");

      // The skill reached the model as delimited data, under a system prompt that says so.
      const first = server.requests.find((r) => r.script === 'optimize');
      const raw = JSON.stringify(first?.body);
      expect(raw).toContain('<skill_file path=\\"SKILL.md\\">');
      expect(raw).toContain('untrusted data under audit');
    });
  }

  it('runs as the built binary, over Chat Completions, with exit code 0 and the table on stdout', async () => {
    script([{ json: STRONG_REWRITE }, { json: STRONG_REWRITE }]);
    const out = freshOut();
    const bin = resolve('bin/skillaudit.js');
    const args = [bin, 'optimize', weakDir, '--out', out, '--quiet', '--no-cache'];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...args, '--model', 'openai-chat/gpt-4.1-mini', '--base-url', server.baseUrl],
      { env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(stdout).toMatch(/^weak-csv: before → after\n/);
    expect(stdout).toContain("kept: round 1's rewrite");
    expect(server.requests.filter((r) => r.protocol === 'chat' && r.script === 'optimize')).toHaveLength(2);
  });

  it('asks no more than --rounds times, and refuses --rounds 0', async () => {
    script([{ json: STRONG_REWRITE }, { json: STRONG_REWRITE }]);
    const run = await optimize([
      weakDir,
      '--out',
      freshOut(),
      '--rounds',
      '1',
      '--quiet',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    expect(report.rounds).toHaveLength(1);
    expect(report.roundsAllowed).toBe(1);
    expect(report.stopped).toEqual({ reason: 'rounds_done', message: '1 round(s) done' });
    const zero = await optimize([weakDir, '--out', freshOut(), '--rounds', '0']);
    expect(zero.code).toBe(2);
    expect(zero.err).toContain('--rounds must be at least 1');
  });

  it('keeps the original when the rewrite scores worse, and says there was no improvement', async () => {
    script([{ json: WORSE_REWRITE }]);
    const out = freshOut();
    const run = await optimize([weakDir, '--out', out, '--quiet']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(join(out, WEAK_SKILL.name, 'SKILL.md'), 'utf8')).toBe(WEAK_SKILL.files['SKILL.md']);
    expect(readFileSync(join(out, 'optimize.diff'), 'utf8')).toBe('');
    const report = JSON.parse(readFileSync(join(out, 'optimize.json'), 'utf8'));
    expect(report.improved).toBe(false);
    expect(report.rounds).toHaveLength(1);
    expect(report.rounds[0].outcome).toBe('not_better');
    expect(report.rounds[0].scores.overall).toBeLessThan(report.before.scores.overall);
    expect(report.stopped.reason).toBe('no_improvement');
    expect(run.out).toContain('kept: the original (no improvement)');
  });

  it('never copies a symbolic link out of the skill, and lists it in optimize.json', async () => {
    const dir = writeSkill(join(root, 'linked'), WEAK_SKILL);
    symlinkSync('/etc/hostname', join(dir, 'notes.txt'));
    script([{ json: WORSE_REWRITE }]);
    const out = freshOut();
    const run = await optimize([dir, '--out', out, '--quiet', '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).notCopied).toEqual(['notes.txt (symbolic link, not copied)']);
    expect(readdirSync(join(out, WEAK_SKILL.name)).sort()).toEqual(['SKILL.md', 'scripts']);
  });

  it('rejects a rewrite that adds a new URL and a curl | sh, says why, and asks again with the reasons', async () => {
    script([{ json: INJECTED_REWRITE }, { json: STRONG_REWRITE }, { json: STRONG_REWRITE }]);
    const out = freshOut();
    const run = await optimize([weakDir, '--out', out, '--quiet', '--format', 'json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    const [rejected, improved] = report.rounds;
    expect(rejected.outcome).toBe('rejected');
    const reasons = rejected.reasons.join('\n');
    expect(reasons).toContain('adds URLs absent from the original: "https://get.example.org/setup.sh"');
    expect(reasons).toContain('adds commands or code absent from the original');
    expect(reasons).toContain('the scanner finds new risks');
    expect(improved.outcome).toBe('improved');
    expect(report.bestRound).toBe(2);
    const written = readFileSync(join(out, WEAK_SKILL.name, 'SKILL.md'), 'utf8');
    expect(written).not.toContain('get.example.org');
    // The second request carries the rejection back to the model, inside a data block.
    const second = server.requests.filter((r) => r.script === 'optimize')[1];
    expect(JSON.stringify(second?.body)).toMatch(/<previous_answer>\\nRejected: adds URLs/);
  });

  it('refuses a risky skill before any model request, naming the findings (exit 2)', async () => {
    script([{ json: STRONG_REWRITE }]);
    const out = freshOut();
    const run = await optimize([riskyDir, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('refusing to optimise a skill whose safety status is risky');
    expect(run.err).toMatch(/Top findings:\n {2}(?:P\d|E\d|PE\d|SC\d) high SKILL\.md:\d+ /);
    expect(server.requests).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('stops cleanly on a model error and on the cost cap, writing what was done (exit 2)', async () => {
    script([{ json: STRONG_REWRITE }]);
    server.inject({ status: 400 });
    const out = freshOut();
    const failed = await optimize([weakDir, '--out', out, '--quiet']);
    expect(failed.code).toBe(2);
    expect(failed.err).toMatch(/optimize stopped early: round 1: .*400/);
    const report = JSON.parse(readFileSync(join(out, 'optimize.json'), 'utf8'));
    expect(report.stopped.reason).toBe('model_error');
    expect(report.rounds).toEqual([]);
    expect(readFileSync(join(out, WEAK_SKILL.name, 'SKILL.md'), 'utf8')).toBe(WEAK_SKILL.files['SKILL.md']);

    server.reset();
    const capped = freshOut();
    const run = await optimize([weakDir, '--out', capped, '--quiet', '--max-cost', 'tokens:50']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('cost cap 50 tokens reached');
    expect(server.requests).toEqual([]);
    expect(JSON.parse(readFileSync(join(capped, 'optimize.json'), 'utf8')).stopped.reason).toBe('cost_cap');
  });

  it('refuses an --out inside the input, a non-empty --out without --force, and a source with several skills', async () => {
    script([{ json: STRONG_REWRITE }]);
    const inside = await optimize([weakDir, '--out', join(weakDir, 'opt')]);
    expect(inside.code).toBe(2);
    expect(inside.err).toContain('overlaps the input');
    const parent = await optimize([weakDir, '--out', skills, '--force']);
    expect(parent.code).toBe(2);
    expect(parent.err).toContain('overlaps the input');

    const full = freshOut();
    mkdirSync(full, { recursive: true });
    writeFileSync(join(full, 'keep.txt'), 'mine');
    const busy = await optimize([weakDir, '--out', full]);
    expect(busy.code).toBe(2);
    expect(busy.err).toContain('is not empty; pass --force');

    const several = await optimize([skills, '--out', freshOut()]);
    expect(several.code).toBe(2);
    expect(several.err).toMatch(
      /holds 2 skills \((risky-sync, weak-csv|weak-csv, risky-sync)\); choose one with --skill/,
    );
    expect(server.requests).toEqual([]);

    // --skill picks one; --force writes into the folder and leaves other files there alone.
    script([{ json: STRONG_REWRITE }, { json: STRONG_REWRITE }]);
    const picked = await optimize([skills, '--skill', WEAK_SKILL.name, '--out', full, '--force', '--quiet']);
    expect(picked.code).toBe(0);
    expect(readFileSync(join(full, 'keep.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(full, WEAK_SKILL.name, 'SKILL.md'))).toBe(true);
  });
});
