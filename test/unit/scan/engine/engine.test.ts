import { describe, expect, it } from 'vitest';
import { scanSkill } from '../../../../src/scan/engine/scan.js';
import type { Detector } from '../../../../src/scan/rule.js';
import { makeSkill } from '../prose/make-skill.js';
import { testRule } from './test-rule.js';

// A minimal detector, written here, so the engine's own behaviour (mapping, framing, dedupe, suppression,
// scoring) is tested apart from the real rules, which have their own fixtures.
const marker: Detector = {
  name: 'marker',
  rules: [
    testRule('test.upload', 'E1', 'uploads data'),
    testRule('test.upload-twin', 'E1', 'uploads data again'),
    testRule('test.harvest', 'E2', 'harvests env'),
  ],
  appliesTo: (f) => f.language === 'python',
  detect: (ctx) =>
    ctx.text.split('\n').flatMap((line, i) => {
      const hits = [];
      if (line.includes('UPLOAD')) {
        hits.push({
          rule: 'test.upload',
          line: i + 1,
          endLine: i + 1,
          evidence: line.trim(),
          confidence: 0.8,
          rationale: 'r',
        });
        hits.push({
          rule: 'test.upload-twin',
          line: i + 1,
          endLine: i + 1,
          evidence: line.trim(),
          confidence: 0.6,
          rationale: 'r2',
        });
      }
      if (line.includes('HARVEST')) {
        hits.push({
          rule: 'test.harvest',
          line: i + 1,
          endLine: i + 1,
          evidence: line.trim(),
          confidence: 1,
          rationale: 'r',
        });
      }
      return hits;
    }),
};

describe('scan engine', () => {
  it('turns hits into findings with the pattern severity and family, one per pattern and place', async () => {
    const skill = makeSkill({ 'SKILL.md': '# x\n', 'scripts/a.py': 'import os\nUPLOAD(data)\n' });
    const { findings, safetyScore, status } = await scanSkill(skill, { detectors: [marker] });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      pattern: 'E1',
      family: 'data_exfiltration',
      severity: 'medium',
      file: 'scripts/a.py',
      line: 2,
      confidence: 0.8,
      rule: 'test.upload',
      evidence: 'UPLOAD(data)',
    });
    // 100 - 10 * 0.8 * 0.6
    expect(safetyScore).toBe(95.2);
    // One sure transmission alone sits near the learned risky threshold, which each refit moves: this test is
    // about the finding, so it asks only that the status warns.
    expect(['caution', 'risky']).toContain(status);
  });

  it('scans fenced blocks of SKILL.md at the right lines, scaled by how the prose frames them', async () => {
    const md = [
      '---',
      'name: demo-skill',
      '---',
      '# Demo',
      '',
      '```python',
      'x = 1',
      'HARVEST()',
      '```',
      '',
    ].join('\n');
    const skill = makeSkill({ 'SKILL.md': md });
    const { findings } = await scanSkill(skill, { detectors: [marker] });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ pattern: 'E2', file: 'SKILL.md', line: 8, endLine: 8 });
  });

  it('honours inline ignores only when asked, and keeps suppressed findings listed', async () => {
    const code = 'import os\n# skillaudit-ignore: E2 reads only our own key, reviewed\nHARVEST()\n';
    const skill = makeSkill({ 'SKILL.md': '# x\n', 'scripts/a.py': code });
    const strict = await scanSkill(skill, { detectors: [marker] });
    expect(strict.findings[0]?.suppressed).toBeUndefined();
    expect(strict.safetyScore).toBe(91);
    const owned = await scanSkill(skill, { detectors: [marker], honourInline: true });
    expect(owned.findings).toHaveLength(1);
    expect(owned.findings[0]?.suppressed).toEqual({
      by: 'inline',
      reason: 'reads only our own key, reviewed',
    });
    expect(owned.safetyScore).toBe(100);
  });

  it('does not honour an ignore comment without a reason', async () => {
    const skill = makeSkill({ 'SKILL.md': '# x\n', 'scripts/a.py': 'HARVEST() # skillaudit-ignore: E2\n' });
    const { findings } = await scanSkill(skill, { detectors: [marker], honourInline: true });
    expect(findings[0]?.suppressed).toBeUndefined();
  });

  it('applies a baseline by evidence so that line shifts keep the suppression', async () => {
    const skill = makeSkill({ 'SKILL.md': '# x\n', 'scripts/a.py': '\n\n\nHARVEST()\n' });
    const baseline = {
      version: 1 as const,
      accepted: [
        { file: 'scripts/a.py', id: 'E2', evidence: 'HARVEST()', line: 1, reason: 'accepted: test env only' },
      ],
    };
    const { findings, status } = await scanSkill(skill, { detectors: [marker], baseline });
    expect(findings[0]?.suppressed).toEqual({ by: 'baseline', reason: 'accepted: test env only' });
    expect(status).toBe('pass');
  });

  it('reports a failing detector as a note instead of failing the scan', async () => {
    const broken: Detector = {
      name: 'broken',
      rules: [],
      appliesTo: () => true,
      detect: () => {
        throw new Error('boom');
      },
    };
    const skill = makeSkill({ 'SKILL.md': '# x\n' });
    const result = await scanSkill(skill, { detectors: [broken] });
    expect(result.notes.some((n) => n.includes('broken failed on SKILL.md: boom'))).toBe(true);
    expect(result.status).toBe('pass');
  });
});
