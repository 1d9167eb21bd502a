import { describe, expect, it } from 'vitest';
import { defenseEvasionDetector } from '../../../../src/scan/detectors/code-defense-evasion.js';
import { makeContext } from './make-context.js';

// Switching defences off and mining: a kill or a toggle weighs fully, an administrator's service stop less,
// and the stop of the very tool the skill deploys less again, though never nothing (a name the author picks
// must not buy silence).

async function confidences(path: string, text: string, purpose = 'A skill under test.') {
  const ctx = makeContext(path, text);
  ctx.skill.description = purpose;
  return (await defenseEvasionDetector.detect(ctx)).map((h) => [h.rule, h.line, h.confidence] as const);
}

describe('code that switches defences off', () => {
  it('weighs a kill above a service stop, and the skill’s own tool lowest but still reported', async () => {
    const script = 'pkill -f falcon-sensor\nsudo systemctl stop osqueryd\n';
    const stranger = await confidences('scripts/a.sh', script);
    const own = await confidences('scripts/a.sh', script, 'Deploys and maintains osquery on a fleet.');
    expect(stranger).toEqual([
      ['code.impair-defenses', 1, expect.any(Number)],
      ['code.impair-defenses', 2, expect.any(Number)],
    ]);
    expect(stranger[0]![2]).toBeGreaterThan(stranger[1]![2]);
    expect(own[1]![2]).toBeLessThan(stranger[1]![2]);
    expect(own[1]![2]).toBeGreaterThanOrEqual(0.2);
    expect(own[0]![2]).toBe(stranger[0]![2]);
  });

  it('finds a Python script that hands the wipe to a shell, not one that reads the log', async () => {
    const hits = await confidences(
      'scripts/c.py',
      'import subprocess\nsubprocess.run("rm -f /var/log/auth.log", shell=True)\nprint(open("/var/log/auth.log").read())\n',
    );
    expect(hits.map(([rule, line]) => [rule, line])).toEqual([['code.impair-defenses', 2]]);
  });
});

describe('mining', () => {
  it('finds a pool address on a renamed miner and leaves a signature list alone', async () => {
    const hits = await confidences(
      'scripts/m.js',
      "const { exec } = require('child_process');\nexec('/tmp/.w -o stratum+ssl://pool.example.net:443 -u x');\nconst sigs = ['stratum+tcp://', 'xmrig'];\n",
    );
    expect(hits.map(([rule, line]) => [rule, line])).toEqual([['code.cryptominer', 2]]);
  });
});
