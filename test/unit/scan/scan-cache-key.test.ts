import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scanCacheKeyer, scannerFingerprint } from '../../../src/scan/source/scan-cache-key.js';
import { makeSkill } from './prose/make-skill.js';

// What a cached scan is keyed by: a change to anything the scan reads misses, where the skill lies does not.

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
function skill(files: Record<string, string>, root = '/srv/a') {
  const s = makeSkill(files);
  for (const f of s.files) f.sha256 = sha(f.text ?? '');
  return { ...s, id: sha(JSON.stringify(s.files.map((f) => [f.path, f.sha256]))), root };
}
const SKILL_MD = '---\nname: demo-skill\ndescription: A demo.\n---\n\nSay hello.\n';

describe('scanCacheKeyer', () => {
  const key = scanCacheKeyer({ honourInline: false });
  it('is the same for the same content wherever it lies', () => {
    expect(key(skill({ 'SKILL.md': SKILL_MD }, '/srv/a'))).toBe(
      key(skill({ 'SKILL.md': SKILL_MD }, '/tmp/b')),
    );
  });

  it('changes with any file, with what intake made of a file, and with the options', () => {
    const base = key(skill({ 'SKILL.md': SKILL_MD, 'scripts/x.py': 'print(1)\n' }));
    expect(key(skill({ 'SKILL.md': SKILL_MD, 'scripts/x.py': 'print(2)\n' }))).not.toBe(base);
    const cut = skill({ 'SKILL.md': SKILL_MD, 'scripts/x.py': 'print(1)\n' });
    cut.files[1]!.truncated = true;
    expect(key(cut)).not.toBe(base);
    expect(
      scanCacheKeyer({ honourInline: true })(skill({ 'SKILL.md': SKILL_MD, 'scripts/x.py': 'print(1)\n' })),
    ).not.toBe(base);
  });

  it('names the scanner by a digest computed once', () => {
    expect(scannerFingerprint()).toMatch(/^[0-9a-f]{64}$/);
    expect(scannerFingerprint()).toBe(scannerFingerprint());
  });
});
