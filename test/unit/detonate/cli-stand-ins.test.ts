import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI_STAND_INS, cliStandInScript } from '../../../src/detonate/cli-stand-ins.js';
import { channelKey, placeInstruments, takeReport } from '../../../src/detonate/instrument-report.js';

// The stand-ins for cluster and cloud CLIs answer as the tool would, and say on the instruments' channel that
// they stood in. They run here with sh on our own arguments (no skill code).

const key = channelKey();
function call(tool: string, ...args: string[]) {
  const [file] = placeInstruments(
    [{ path: tool, content: cliStandInScript(tool, CLI_STAND_INS[tool]!) }],
    key,
    '/w',
  );
  const out = execFileSync('sh', ['-c', file!.content as string, tool, ...args], {
    encoding: 'utf8',
    stdio: 'pipe',
  });
  return out.trim();
}

describe('CLI stand-ins', () => {
  it('answer the common read commands with plausible output, JSON when asked, nothing otherwise', () => {
    expect(call('kubectl', 'get', 'pods', '-n', 'prod')).toMatch(/^NAME\s+READY\s+STATUS[\s\S]*Running/);
    expect(JSON.parse(call('kubectl', 'get', 'pods', '-A', '-o', 'json'))).toEqual({ items: [] });
    expect(call('kubectl', 'config', 'current-context')).toBe('prod-eu-west-1');
    expect(JSON.parse(call('aws', 'sts', 'get-caller-identity'))).toMatchObject({ Account: '123456789012' });
    expect(call('aws', 'ec2', 'describe-instances')).toBe('{}');
    expect(call('terraform', 'apply', '-auto-approve')).toBe('');
    expect(call('redis-cli', 'ping')).toBe('PONG');
  });

  it('report themselves once per tool on the channel, so a run that used one never lowers a finding', () => {
    const [file] = placeInstruments(
      [{ path: 'gh', content: cliStandInScript('gh', CLI_STAND_INS.gh!) }],
      key,
      '/w',
    );
    const stderr = execFileSync(
      'sh',
      ['-c', `(${file!.content as string}) 2>&1 >/dev/null`, 'gh', 'auth', 'status'],
      {
        encoding: 'utf8',
      },
    );
    expect(takeReport(stderr, key, '/w', () => null).standIns).toEqual(['gh (command)']);
  });
});
