import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeTimerSeedFiles } from '../../../src/detonate/node-timers.js';

// The Node preload hurries only the skill's own long waits: a package's timers and short timeouts keep theirs.
// It runs here on our own small scripts (not a skill's), reading each timer's delay back.

const dir = mkdtempSync(join(tmpdir(), 'skillaudit-node-timers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const preload = join(dir, 'short-timers.cjs');
writeFileSync(preload, nodeTimerSeedFiles()[0]!.content);
mkdirSync(join(dir, 'node_modules/slowlib'), { recursive: true });
const probe = 'const t = setTimeout(() => {}, DELAY); console.log(t._idleTimeout); clearTimeout(t);';
writeFileSync(join(dir, 'node_modules/slowlib/index.js'), probe.replace('DELAY', '300000'));

const run = (code: string) =>
  execFileSync(process.execPath, ['--require', preload, '-e', code], { cwd: dir, encoding: 'utf8' }).trim();

describe('shortened Node waits', () => {
  it("shortens the caller's own waits of a minute or more, in every timer form", () => {
    expect(run(probe.replace('DELAY', '2700000'))).toBe('100');
    const t = run(
      'const i = setInterval(() => {}, 90000); console.log(i._idleTimeout); clearInterval(i);' +
        'const r0 = process.hrtime.bigint(), t0 = Date.now(), p0 = performance.now();' +
        "require('node:timers/promises').setTimeout(3600000)" +
        ".then(() => require('node:util').promisify(setTimeout)(600000))" +
        '.then(() => console.log(process.hrtime.bigint() - r0 < 5_000_000_000n, Date.now() - t0 >= 4_199_000, performance.now() - p0 >= 4_199_000));',
    );
    // Over in moments of real time, while the clocks the script reads moved on by the hour and ten minutes it waited.
    expect(t.split('\n')).toEqual(['100', 'true true true']);
  });

  it('keeps short timers and the timers of installed packages', () => {
    expect(run(probe.replace('DELAY', '5000'))).toBe('5000');
    expect(run("require('slowlib')")).toBe('300000');
  });
});
