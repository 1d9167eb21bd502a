import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { runAll } from './make-context.js';

// A keychain read is judged by the item it names: a tool's own token (what Python's keyring stores) is weak
// evidence, another application's item (a browser's Safe Storage key) is what stealers read, and a read that
// names no item searches them all.

async function keychainRead(path: string, text: string): Promise<number> {
  const hits = await runAll(codeDetectors, path, text);
  return Math.max(0, ...hits.filter((h) => h.pattern === 'PE3').map((h) => h.confidence));
}

describe('keychain reads', () => {
  it("weighs a tool's own named item low, in shell and in a Python subprocess list", async () => {
    expect(
      await keychainRead('s.sh', 'token=$(security find-generic-password -s ts-cli -a "$USER" -w)\n'),
    ).toBeLessThan(0.45);
    const py =
      'import subprocess\nr = subprocess.run(["security", "find-generic-password", "-s", "{service}", "-a", "{user}", "-w"], capture_output=True, text=True)\n';
    expect(await keychainRead('s.py', py)).toBeLessThan(0.45);
  });

  it("weighs another application's item, or every item, as a credential theft", async () => {
    expect(
      await keychainRead('s.sh', 'k=$(security find-generic-password -s "Chrome Safe Storage" -w)\n'),
    ).toBeGreaterThanOrEqual(0.8);
    expect(await keychainRead('s.sh', 'k=$(security find-generic-password -w)\n')).toBeGreaterThanOrEqual(
      0.65,
    );
    expect(await keychainRead('s.sh', 'security dump-keychain -d login.keychain\n')).toBeGreaterThanOrEqual(
      0.65,
    );
  });
});
