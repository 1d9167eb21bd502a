// Resuming a Codex audit: the CLI (a child process) is killed with everything it started as soon as its first
// trial is stored; the same command again runs only what was missing. Counted on the fake server's log:
// no scheme request and no with-skill Codex turn the second time.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutProgress } from '../../support/built-cli.js';
import { spawnCli } from '../../support/cli-run.js';
import { SKILL, WRITE_TOTAL } from '../../support/fake-model/audit-script.js';
import { harnessTurns } from '../../support/fake-model/harness-turns.js';
import type { LoggedRequest } from '../../support/fake-model-server.js';
import { harnessScripts, useHarnessAudit } from './harness-audit.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', OPENAI_API_KEY: 'test-key' };
const h = useHarnessAudit('codex', 'openai/gpt-5-codex', env);

/** A Codex turn: the harness offers its shell tool; SkillAudit's own calls (schemes, judges) offer none. */
const isCodex = (r: LoggedRequest) => JSON.stringify(r.body?.tools ?? []).includes('exec_command');
/** `root` and its descendants, parents first, from one `ps` listing. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] as number) ?? []));
  return tree;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('audit --agent codex, interrupted and run again', () => {
  it('the finished with-skill trial is not run again; the rest is', async () => {
    h.server.setScripts(harnessScripts(harnessTurns('codex', SKILL, [WRITE_TOTAL])));
    const out = join(h.dir, 'runs');
    const args = [
      'audit',
      h.skillDir,
      '--model',
      'openai/gpt-5-codex',
      '--base-url',
      h.server.baseUrl,
      '--agent',
      'codex',
      '--scenarios',
      '1',
      '--concurrency',
      '1',
      '--no-detonate',
      '--no-cache',
      '--format',
      'json',
      '--out',
      out,
    ];
    const first = spawnCli(args, env);
    const stored = () => {
      const [run] = existsSync(out) ? readdirSync(out) : [];
      return (
        run !== undefined &&
        existsSync(join(out, run, 'trials', `${SKILL}-s1__with_skill__codex`, 'result.json'))
      );
    };
    let finished = false;
    void first.done.then(() => {
      finished = true;
    });
    while (!stored() && !finished) await sleep(50);
    // The CLI and everything it started: sandboxes run in process groups of their own, so the tree is
    // collected first (a kill of the CLI alone would leave the running harness to its wall-clock limit).
    for (const pid of processTree(first.child.pid as number)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const firstCodex = h.server.requests.filter(isCodex);
    expect(firstCodex.filter((r) => r.script === 'with-skill')).toHaveLength(3);

    h.server.reset();
    const second = await spawnCli(args, env).done;
    expect(withoutProgress(second.stderr)).toBe('');
    expect(second.code).toBe(0);
    const report = JSON.parse(second.stdout);
    expect(report.utility.prg).toBe(1);
    expect(report.utility.scenarios[0].withSkill.skillLoaded).toBe(true);
    // Schemes and the with-skill run were reused; the no-skill run ran now.
    expect(h.server.requests.filter((r) => r.script === 'schemes')).toEqual([]);
    const codex = h.server.requests.filter(isCodex);
    expect(codex.filter((r) => r.script === 'with-skill')).toEqual([]);
    expect(codex.filter((r) => r.script === 'no-skill').length).toBeGreaterThanOrEqual(1);
  }, 300_000);
});
