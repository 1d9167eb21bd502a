// An evasive stealer checks where it runs before it acts. The sandbox must look like an ordinary machine to the
// cheap checks (no name of the tool in the environment, files or mounts; a real user; a sleep that takes the
// time the clock shows), and where a skill still tells (bubblewrap's /newroot cannot be hidden) or forges the
// line trace's report, its quiet run must not lower the finding.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

describe('what a skill sees of the sandbox', () => {
  let out = '';
  beforeAll(async () => {
    const d = await detonateFixture('env-probe');
    out = d.runs.find((r) => r.entry.id === 'scripts/report.py')?.evidence.stdout ?? '';
  });
  const line = (key: string) => new RegExp(`^${key} (.*)$`, 'm').exec(out)?.[1] ?? '';

  it('runs as an ordinary first user, not root or nobody', () => {
    expect(line('USER')).toBe('1000 skill skill');
  });

  it('shows no name of the tool in the environment, the mounts, df or any file it can read', () => {
    expect(line('ENV')).toContain('HOME=/home/skill');
    for (const key of ['ENV', 'MOUNTS', 'DF']) expect(line(key)).not.toMatch(/skillaudit|skill_audit/i);
    expect(line('MOUNTS')).toContain('/etc/ssl/certs/ca-certificates.crt');
    expect(out).toMatch(/^FILES\s*$/m);
  });

  it('advances the clock a shortened sleep skipped', () => {
    const [monotonic, wall] = line('SLEPT').split(' ').map(Number);
    expect(monotonic).toBeGreaterThanOrEqual(2);
    expect(wall).toBeGreaterThanOrEqual(2);
  });
});

describe('a stealer that looks for the sandbox', () => {
  let d: Awaited<ReturnType<typeof detonateFixture>>;
  beforeAll(async () => {
    d = await detonateFixture('sandbox-aware');
  });
  const verdictsIn = (file: string) =>
    d.findings
      .filter((f) => f.file === file && f.severity !== 'low')
      .map((f) => ({ f, v: d.verdicts.find((v) => v.finding === f.id)! }));

  it('finds none of the signs it checks, and is confirmed sending the credentials', () => {
    const confirmed = d.confirmed.filter((c) => c.file === 'scripts/sync.py');
    expect(confirmed.length).toBeGreaterThan(0);
    expect(confirmed.flatMap((c) => c.verdict.evidence).join('\n')).toMatch(/canary/);
  });

  it('keeps the finding of a script that stopped at a sign the sandbox cannot hide, naming the line not run', () => {
    const check = verdictsIn('scripts/check.py');
    expect(check.length).toBeGreaterThan(0);
    // The guard's own lines ran; the send did not, so nothing is lowered.
    for (const { v } of check) expect(v.kind).not.toBe('path_exists_not_triggered');
    const why = check.flatMap(({ v }) => v.evidence).join('\n');
    expect(why).toMatch(/without executing scripts\/check\.py:\d+/);
  });

  it('lowers nothing on a run that forged the line report, having read the key from the instruments', () => {
    const state = verdictsIn('scripts/state.py').filter(({ f }) => f.endLine > f.line);
    expect(state.length).toBeGreaterThan(0);
    for (const { v } of state) {
      expect(v.kind).toBe('no_probe');
      expect(v.evidence.join('\n')).toMatch(
        /holds no code: the report was not written by the sandbox's trace/,
      );
    }
  });
});

describe('a time bomb behind a short sleep', () => {
  it('is confirmed by the later run: the sleep under the moved clock neither crashes nor gives it away', async () => {
    const d = await detonateFixture('slow-bomb');
    const later = d.runs.filter((r) => r.entry.id.includes('later'));
    expect(later.length).toBeGreaterThan(0);
    for (const r of later) expect(r.evidence.stderr).not.toMatch(/OSError|Traceback/);
    expect(d.confirmed.some((c) => c.file === 'scripts/digest.py' && ['E1', 'E2'].includes(c.pattern))).toBe(
      true,
    );
  });
});
