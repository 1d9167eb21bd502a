import { describe, expect, it } from 'vitest';
import { scanSkill } from '../../../../src/scan/engine/scan.js';
import { makeSkill, skillMd } from './make-skill.js';

// Steps vendor guides give the user for their own account read as privilege escalation at full weight.

async function strongest(row: string, rule: string): Promise<number> {
  const body = '# Dev containers\n\nWhen a container fails, read references/troubleshooting.md.\n';
  const table = ['# Troubleshooting', '', '| Problem | Solution |', '| --- | --- |', row, ''].join('\n');
  const { findings } = await scanSkill(
    makeSkill({
      'SKILL.md': skillMd(body, 'dev-containers', 'Runs the project in local containers.'),
      'references/troubleshooting.md': table,
    }),
  );
  return Math.max(0, ...findings.filter((f) => f.rule === rule).map((f) => f.confidence));
}

describe("adding the user's own account to a device or service group", () => {
  it('weighs less than joining an administrators group, and is still reported', async () => {
    const docker = await strongest(
      '| "Permission denied" on Linux | Add user to `docker` group: `sudo usermod -aG docker $USER` |',
      'md.privilege-escalation',
    );
    const serial = await strongest(
      '| Board not found | Add user to `dialout` group: `sudo usermod -aG dialout $USER` |',
      'md.privilege-escalation',
    );
    const admin = await strongest(
      '| Board not found | Add user to `sudo` group: `sudo usermod -aG sudo $USER` |',
      'md.privilege-escalation',
    );
    expect(docker).toBeGreaterThan(0);
    expect(serial).toBeGreaterThan(0);
    expect(admin).toBeGreaterThanOrEqual(0.8);
    expect(Math.max(docker, serial)).toBeLessThan(admin * 0.6);
  });
});
