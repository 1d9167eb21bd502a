import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { scanSkill } from '../../../../src/scan/engine/scan.js';
import { isSafetyFinding, OWN_STORED_SECRET } from '../../../../src/score/index.js';
import { makeSkill, skillMd } from '../prose/make-skill.js';
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

describe('a keychain item the skill stores itself', () => {
  const READ = 'token=$(security find-generic-password -s "{service}" -a "$USER" -w)\n';
  const STORE = 'security add-generic-password \\\n  -s "{service}" -a "$USER" -w "$TOKEN"\n';
  async function keychainFinding(files: Record<string, string>) {
    const { findings } = await scanSkill(
      makeSkill({ 'SKILL.md': skillMd('Run `bash scripts/token.sh`.'), ...files }),
    );
    return findings.find((f) => f.rule === 'code.credential-access' && f.file === 'scripts/token.sh');
  }

  it('is its own secret: reported, but no evidence for the status', async () => {
    const stored = await keychainFinding({ 'scripts/token.sh': READ, 'scripts/login.sh': STORE });
    const notStored = await keychainFinding({ 'scripts/token.sh': READ });
    expect(stored?.rationale).toContain(OWN_STORED_SECRET);
    expect(isSafetyFinding(stored!)).toBe(false);
    expect(notStored?.rationale).not.toContain(OWN_STORED_SECRET);
    expect(isSafetyFinding(notStored!)).toBe(true);
    // A store without a service of its own does not lend the next command's service.
    const other = await keychainFinding({
      'scripts/token.sh': READ,
      'scripts/login.sh':
        'security add-generic-password -a "$USER" -w "$TOKEN"\nsecurity find-generic-password -s "{service}" -w\n',
    });
    expect(other?.rationale).not.toContain(OWN_STORED_SECRET);
  });

  it("is never another application's item, whatever the skill stores", async () => {
    const chrome = 'k=$(security find-generic-password -s "Chrome Safe Storage" -w)\n';
    const planted = 'security add-generic-password -s "Chrome Safe Storage" -w x\n';
    const found = await keychainFinding({ 'scripts/token.sh': chrome, 'scripts/login.sh': planted });
    expect(found!.confidence).toBeGreaterThanOrEqual(0.8);
    expect(isSafetyFinding(found!)).toBe(true);
  });
});
