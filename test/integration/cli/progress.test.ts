import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, runBuilt } from '../../support/built-cli.js';

// Progress goes to stderr, a plain line per stage or per tenth of the skills when stderr is not a terminal
// (as here: a pipe), and stdout keeps only the result, so JSON on stdout parses.

let dir: string;

function skill(name: string): string {
  const root = join(dir, 'skills', name);
  mkdirSync(root, { recursive: true });
  writeFileSync(
    join(root, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Formats ${name} tables as Markdown. Use when asked to tidy a table.\n---\n# ${name}\n\nRead the table the user gives and print it as a Markdown table.\n`,
  );
  return root;
}

beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-progress-'));
  for (const name of ['alpha', 'beta', 'gamma']) skill(name);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('progress on a pipe', () => {
  it('scan: count lines on stderr, clean JSON on stdout', async () => {
    const r = await runBuilt(['scan', join(dir, 'skills'), '--format', 'json'], dir);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as { skills: unknown[] };
    expect(json.skills).toHaveLength(3);
    expect(r.stderr).toMatch(/^skillaudit: scanned 3\/3 \(\d+ s\)$/m);
    expect(r.stdout).not.toContain('scanned');
  });

  it('audit: a line per stage on stderr, the report alone on stdout', async () => {
    const r = await runBuilt(
      [
        'audit',
        join(dir, 'skills', 'alpha'),
        '--no-detonate',
        '--format',
        'json',
        '--out',
        join(dir, 'runs'),
      ],
      dir,
    );
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { skill: { name: string }; verdict: { status: string } };
    expect(report.skill.name).toBe('alpha');
    const stages = r.stderr.split('\n').filter((l) => l.startsWith('skillaudit: alpha: '));
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]).toMatch(/^skillaudit: alpha: [a-z].* \(\d+ s\)$/);
    expect(r.stderr).not.toContain('\r');
    expect(r.stderr).not.toContain('\u001b[');
  });

  it('--quiet prints no progress', async () => {
    const r = await runBuilt(['scan', join(dir, 'skills'), '--format', 'json', '--quiet'], dir);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});
