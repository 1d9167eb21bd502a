// Server-mode git access: the service resolved and pinned the host's addresses, so intake must not look the
// name up again (that lookup is unpinned) nor probe it with a connect of its own; git goes straight to the
// pinned address. Here the name does not resolve at all and the pinned address refuses connections.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cloneRepository } from '../../../src/intake/git.js';
import { parseSource } from '../../../src/intake/source-spec.js';

const root = mkdtempSync(join(tmpdir(), 'skillaudit-pinned-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('cloneRepository with pinned addresses', () => {
  it('does no lookup of its own and lets git use only the pinned address', async () => {
    const spec = parseSource('https://unresolvable-skillaudit-test.invalid/acme/skills', () => false);
    if (spec.kind !== 'git') throw new Error('expected a git source');
    const clone = cloneRepository(spec, join(root, 'clone'), {
      config: ['http.curloptResolve=unresolvable-skillaudit-test.invalid:443:127.0.0.1'],
      addressesPinned: true,
      shallowOnly: true,
    });
    const error = await clone.then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBeDefined();
    // An unpinned lookup would have failed first with "cannot resolve"; git reached 127.0.0.1 instead.
    expect(error!.message).not.toMatch(/cannot resolve/);
    expect(error!.message).toMatch(/127\.0\.0\.1|connect/i);
  }, 30_000);
});
