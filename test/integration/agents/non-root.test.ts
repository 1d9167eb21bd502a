// A non-root user (uid 65534) audits with Codex. The machine-wide agents cache is root's, so the harness is
// taken from $XDG_CACHE_HOME/skillaudit/agents, a folder under /tmp that the sandbox hides; the run binds it
// back read-only, so the agent uses it and cannot change it. The whole CLI runs as that uid, from source.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installAgent } from '../../../src/agents/index.js';
import type { EvidenceBundle } from '../../../src/sandbox/index.js';
import { withoutProgress } from '../../support/built-cli.js';
import { spawnCli } from '../../support/cli-run.js';
import { SKILL, scripts, WRITE_TOTAL, writeSkill } from '../../support/fake-model/audit-script.js';
import { harnessTurns } from '../../support/fake-model/harness-turns.js';
import { type FakeModelServer, startFakeModelServer } from '../../support/fake-model-server.js';

const NOBODY = 65534;
let server: FakeModelServer;
let base: string;
let harness: string;

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error('this test switches to uid 65534 with setpriv: run it as root');
  const bin = await installAgent('codex');
  if (!bin) throw new Error('codex has no harness');
  const installed = bin.slice(0, bin.indexOf('/node_modules/'));
  base = mkdtempSync(join(tmpdir(), 'skillaudit-nonroot-'));
  chmodSync(base, 0o755);
  const cache = join(base, 'cache', 'skillaudit', 'agents');
  mkdirSync(cache, { recursive: true });
  harness = join(cache, basename(installed));
  // Hard links when the cache shares a file system with /tmp (no 420 MB copy), a copy otherwise.
  try {
    execFileSync('cp', ['-al', installed, cache]);
  } catch {
    execFileSync('cp', ['-a', installed, cache]);
  }
  for (const dir of ['home', 'out']) {
    mkdirSync(join(base, dir));
    chownSync(join(base, dir), NOBODY, NOBODY);
  }
  writeSkill(base);
  server = await startFakeModelServer({ usage: { input: 1000, cached: 400, output: 60 } });
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('agents cache as a non-root user', () => {
  it('uses the harness from $XDG_CACHE_HOME, bound read-only into the sandbox', async () => {
    const marker = join(harness, 'written-by-the-agent');
    server.setScripts(
      scripts(
        harnessTurns('codex', SKILL, [`touch ${marker}; echo "touch exit $?"`, WRITE_TOTAL]),
        [{ text: 'I looked but wrote no file.' }],
        1,
      ),
    );
    const out = join(base, 'out');
    const { code, stdout, stderr } = await spawnCli(
      [
        'audit',
        join(base, SKILL),
        '--model',
        'openai/gpt-5-codex',
        '--base-url',
        server.baseUrl,
        '--agent',
        'codex',
        '--scenarios',
        '1',
        '--no-detonate',
        '--no-cache',
        '--format',
        'json',
        '--out',
        out,
      ],
      {
        PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: join(base, 'home'),
        XDG_CACHE_HOME: join(base, 'cache'),
        OPENAI_API_KEY: 'test-key',
      },
      ['setpriv', '--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', '--'],
    ).done;
    expect(withoutProgress(stderr)).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.configuration.utilityByAgent).toEqual([
      expect.objectContaining({ agent: 'codex', prg: 1, validPairs: 1 }),
    ]);

    const trial = join(out, readdirSync(out)[0] as string, 'trials', `${SKILL}-s1__with_skill__codex`);
    // The harness that ran is the one in the user's cache, not the machine-wide one.
    const evidence = JSON.parse(readFileSync(join(trial, 'evidence.json'), 'utf8')) as EvidenceBundle;
    expect(evidence.processes.some((p) => p.argv.some((a) => a.startsWith(harness)))).toBe(true);
    // The agent tried to write into its install folder and could not.
    const steps = JSON.parse(readFileSync(join(trial, 'result.json'), 'utf8')).run.steps as {
      output?: string;
    }[];
    const touch = steps.find((s) => s.output?.includes('touch exit'));
    expect(touch?.output).toContain('Read-only file system');
    expect(touch?.output).toContain('touch exit 1');
    expect(existsSync(marker)).toBe(false);
  }, 300_000);
});
