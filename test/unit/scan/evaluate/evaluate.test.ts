import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { printable } from '../../../../src/core/format.js';
import { patternById } from '../../../../src/core/taxonomy.js';
import type { Finding, PatternId } from '../../../../src/core/types.js';
import {
  evaluate,
  type Label,
  type LabelSet,
  loadLabelSet,
  matchFindings,
  parseLabelSet,
  renderEvalText,
} from '../../../../src/scan/evaluate/index.js';
import { UserError } from '../../../../src/util/errors.js';

let serial = 0;
function finding(pattern: PatternId, file: string, line: number, extra: Partial<Finding> = {}): Finding {
  const p = patternById(pattern);
  serial++;
  return {
    id: `f${serial}`,
    pattern,
    family: p.family,
    severity: p.severity,
    confidence: 0.9,
    file,
    line,
    endLine: line,
    evidence: `evidence ${serial}`,
    rule: `test.${pattern.toLowerCase()}`,
    message: p.name,
    rationale: '',
    ...extra,
  };
}

function label(pattern: PatternId, file: string, line: number, endLine = line, note?: string): Label {
  return note === undefined ? { pattern, file, line, endLine } : { pattern, file, line, endLine, note };
}

describe('matchFindings', () => {
  it('matches within ±2 lines of the range and not at 3', () => {
    const labels = [label('E2', 'scripts/a.py', 10, 12)];
    expect(matchFindings(labels, [finding('E2', 'scripts/a.py', 14)]).matched).toHaveLength(1);
    expect(matchFindings(labels, [finding('E2', 'scripts/a.py', 8)]).matched).toHaveLength(1);
    const off = matchFindings(labels, [finding('E2', 'scripts/a.py', 15), finding('E2', 'scripts/a.py', 7)]);
    expect(off.matched).toHaveLength(0);
    expect(off.missed).toEqual(labels);
    expect(off.spurious).toHaveLength(2);
  });

  it('needs the same pattern and the same file', () => {
    const labels = [label('E2', 'scripts/a.py', 10)];
    const r = matchFindings(labels, [finding('E1', 'scripts/a.py', 10), finding('E2', 'scripts/b.py', 10)]);
    expect(r.matched).toHaveLength(0);
    expect(r.spurious).toHaveLength(2);
  });

  it('treats a leading ./ in either path as the same file', () => {
    const labels = parseLabelSet(
      { version: 1, skills: { s: [{ pattern: 'R2', file: './scripts/a.sh', line: 3, endLine: 3 }] } },
      'x',
    ).skills.s!;
    expect(matchFindings(labels, [finding('R2', 'scripts/a.sh', 3)]).matched).toHaveLength(1);
    expect(
      matchFindings([label('R2', 'scripts/a.sh', 3)], [finding('R2', './scripts/a.sh', 3)]).matched,
    ).toHaveLength(1);
  });

  it('uses each finding and each label at most once: a duplicate finding is a false positive', () => {
    const labels = [label('P1', 'SKILL.md', 5)];
    const r = matchFindings(labels, [finding('P1', 'SKILL.md', 5), finding('P1', 'SKILL.md', 5)]);
    expect(r.matched).toHaveLength(1);
    expect(r.spurious).toHaveLength(1);
  });

  it('pairs closest first, so a nearer finding does not steal a label another finding needs', () => {
    // f12 is 2 from L1 and 1 from L2; f13 is 0 from L2 and out of reach of L1. First-come matching would pair
    // f12 with L2 and leave L1 and f13 unmatched; closest-first pairs both.
    const l1 = label('R2', 'run.sh', 10);
    const l2 = label('R2', 'run.sh', 13);
    const f12 = finding('R2', 'run.sh', 12);
    const f13 = finding('R2', 'run.sh', 13);
    const r = matchFindings([l1, l2], [f12, f13]);
    expect(r.matched).toEqual([
      { label: l2, finding: f13 },
      { label: l1, finding: f12 },
    ]);
    expect(r.missed).toEqual([]);
    expect(r.spurious).toEqual([]);
  });

  it('sets suppressed findings aside: they neither match nor count as false positives', () => {
    const labels = [label('SC1', 'requirements.txt', 1)];
    const suppressed = finding('SC1', 'requirements.txt', 1, {
      suppressed: { by: 'inline', reason: 'vendored' },
    });
    const r = matchFindings(labels, [suppressed]);
    expect(r.matched).toEqual([]);
    expect(r.missed).toEqual(labels);
    expect(r.spurious).toEqual([]);
    expect(r.suppressed).toEqual([suppressed]);
  });
});

// A worked example computed by hand (see the comments for each pattern's tally).
function workedExample() {
  const labels: LabelSet = {
    version: 1,
    skills: {
      a: [
        label('P1', 'SKILL.md', 5),
        label('E2', 'scripts/s.py', 10, 12, 'env posted to webhook'),
        label('R2', 'scripts/s.py', 20),
        label('SC1', 'requirements.txt', 1),
      ],
      clean: [],
      gone: [label('PE3', 'x.sh', 3)],
    },
  };
  const findings: Record<string, Finding[]> = {
    a: [
      finding('P1', 'SKILL.md', 6), // TP
      finding('E2', 'scripts/s.py', 11), // TP
      finding('E2', 'scripts/s.py', 11), // FP (duplicate)
      finding('R2', 'scripts/s.py', 24), // FP, and the R2 label is a miss (4 lines away)
      finding('E1', 'scripts/s.py', 11), // FP (no E1 label)
      finding('SC1', 'requirements.txt', 1, { suppressed: { by: 'baseline', reason: 'accepted' } }), // not counted
    ],
    clean: [finding('P4', 'SKILL.md', 3, { evidence: 'always approve \u001b[31mred\u001b[0m' })], // FP
    // `gone` has no result: it was not scanned, its PE3 label is a miss.
  };
  return evaluate(labels, findings);
}

describe('evaluate', () => {
  const r = workedExample();

  it('computes Table 4 by hand-checked numbers', () => {
    const pick = (name: string) => {
      const row = r.table4.find((x) => x.name === name)!;
      return [row.gold, row.predicted, row.tp, row.fp, row.fn, row.precision, row.recall, row.f1];
    };
    // Overall: G = P1, E2, R2, SC1, PE3 = 5; P = 1 + 2 + 1 + 1 + 1 (P4) = 6; TP 2.
    const [g, p, tp, fp, fn, prec, rec, f1] = pick('Overall');
    expect([g, p, tp, fp, fn]).toEqual([5, 6, 2, 4, 3]);
    expect(prec).toBeCloseTo(1 / 3, 10);
    expect(rec).toBeCloseTo(0.4, 10);
    expect(f1).toBeCloseTo(4 / 11, 10);
    // High = P1, E2, PE3: G 3, P 3, TP 2.
    const high = pick('High');
    expect(high.slice(0, 5)).toEqual([3, 3, 2, 1, 1]);
    expect(high[5]).toBeCloseTo(2 / 3, 10);
    expect(high[6]).toBeCloseTo(2 / 3, 10);
    expect(high[7]).toBeCloseTo(2 / 3, 10);
    // Medium = E1, P4: nothing labeled, two reported: precision 0, recall and F1 undefined.
    expect(pick('Medium')).toEqual([0, 2, 0, 2, 0, 0, null, null]);
    // Low = R2, SC1: both missed, one reported: precision 0, recall 0, F1 0 (both defined).
    expect(pick('Low')).toEqual([2, 1, 0, 1, 2, 0, 0, 0]);
  });

  it('computes Table A4 per pattern, in taxonomy order', () => {
    expect(r.tableA4.map((x) => x.id)).toEqual([
      'P1',
      'P2',
      'P3',
      'P4',
      'E1',
      'E2',
      'E3',
      'E4',
      'PE1',
      'PE2',
      'PE3',
      'SC1',
      'SC2',
      'SC3',
      'SC4',
      'SC5',
      'R1',
      'R2',
      'R3',
      'R4',
      'R5',
    ]);
    const row = (id: PatternId) => r.tableA4.find((x) => x.id === id)!;
    expect(row('E2')).toMatchObject({
      gold: 1,
      predicted: 2,
      tp: 1,
      fp: 1,
      fn: 0,
      precision: 0.5,
      recall: 1,
    });
    expect(row('E2').f1).toBeCloseTo(2 / 3, 10);
    expect(row('SC1')).toMatchObject({
      gold: 1,
      predicted: 0,
      tp: 0,
      fn: 1,
      precision: null,
      recall: 0,
      f1: null,
    });
    expect(row('E1')).toMatchObject({ gold: 0, predicted: 1, fp: 1, precision: 0, recall: null, f1: null });
    expect(row('P2')).toMatchObject({ gold: 0, predicted: 0, precision: null, recall: null, f1: null });
    expect(row('P1')).toMatchObject({
      severity: 'high',
      family: 'prompt_injection',
      pattern: 'Instruction Override',
    });
  });

  it('lists misses and false alarms, counts suppressed findings and unscanned skills', () => {
    expect(r.skills).toBe(3);
    expect(r.suppressed).toBe(1);
    expect(r.unscanned).toEqual(['gone']);
    expect(r.misses.map((m) => `${m.skill}:${m.label.pattern}`)).toEqual(['a:R2', 'a:SC1', 'gone:PE3']);
    expect(r.falseAlarms.map((f) => `${f.skill}:${f.finding.pattern}:${f.finding.line}`)).toEqual([
      'a:E2:11',
      'a:R2:24',
      'a:E1:11',
      'clean:P4:3',
    ]);
  });

  it('ignores findings for skills that are not in the label set', () => {
    const only = evaluate(
      { version: 1, skills: { a: [] } },
      { a: [], other: [finding('P1', 'SKILL.md', 1)] },
    );
    expect(only.table4[0]).toMatchObject({ gold: 0, predicted: 0 });
  });
});

describe('renderEvalText', () => {
  const r = workedExample();

  it('prints aligned Tables 4 and A4 with family groups and "—" for undefined ratios', () => {
    const text = renderEvalText(r, false);
    const lines = text.split('\n');
    const header = lines.find((l) => l.includes('#G') && !l.includes('Sev'))!;
    const overall = lines.find((l) => l.startsWith('Overall'))!;
    expect(overall).toMatch(/^Overall\s+5\s+6\s+2\s+4\s+3\s+33\.3\s+40\.0\s+36\.4$/);
    // Right-aligned numeric columns end where their header ends.
    expect(header.indexOf('F1 (%)') + 'F1 (%)'.length).toBe(overall.length);
    expect(lines.find((l) => l.startsWith('Medium'))).toMatch(/0\.0\s+—\s+—$/);
    const families = [
      'Prompt Injection',
      'Data Exfiltration',
      'Privilege Escalation',
      'Supply Chain',
      'Robustness',
    ];
    const positions = families.map((f) => lines.indexOf(f));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(lines[lines.indexOf('Data Exfiltration') + 1]).toMatch(
      /^E1\s+External Data Transmission\s+M\s+0\s+1/,
    );
    expect(text).toContain('Not scanned (their labels count as misses): gone');
    expect(text).not.toContain('Misses (FN)');
  });

  it('lists misses and false alarms per skill under verbose, with hostile evidence made inert', () => {
    const text = renderEvalText(r, true);
    expect(text).toContain('  FN  requirements.txt:1  SC1');
    expect(text).toContain('  FN  x.sh:3  PE3');
    expect(text).toMatch(/ {2}FP {2}scripts\/s\.py:24 {2}R2 {2}evidence \d+ {2}\[test\.r2\]/);
    expect(text).toContain('always approve \\u{1b}[31mred\\u{1b}[0m');
    expect(text).not.toContain('\u001b');
  });
});

describe('printable', () => {
  it('escapes controls, bidi, zero-width and tag characters and keeps ordinary text', () => {
    expect(printable('a\u200bb\u202ec\u{e0041}d\u0007')).toBe('a\\u{200b}b\\u{202e}c\\u{e0041}d\\u{7}');
    expect(printable('café — naïve')).toBe('café — naïve');
  });
});

describe('loadLabelSet', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const write = (content: string) => {
    dir = mkdtempSync(join(tmpdir(), 'labels-'));
    writeFileSync(join(dir, 'labels.json'), content);
    return dir;
  };
  const problem = (content: unknown) => {
    try {
      loadLabelSet(write(JSON.stringify(content)));
    } catch (error) {
      expect(error).toBeInstanceOf(UserError);
      return (error as UserError).message;
    }
    throw new Error('expected a UserError');
  };

  it('reads a valid set', () => {
    const set = loadLabelSet(
      write(
        JSON.stringify({
          version: 1,
          skills: { a: [{ pattern: 'E2', file: 'x.py', line: 2, endLine: 4, note: 'n' }], b: [] },
        }),
      ),
    );
    expect(set.skills).toEqual({
      a: [{ pattern: 'E2', file: 'x.py', line: 2, endLine: 4, note: 'n' }],
      b: [],
    });
  });

  it('names the missing file and bad JSON', () => {
    dir = mkdtempSync(join(tmpdir(), 'labels-'));
    expect(() => loadLabelSet(dir!)).toThrow(/cannot read label file .*labels\.json/);
    expect(() => loadLabelSet(write('{"version": 1,'))).toThrow(/not valid JSON/);
  });

  it('names the offending entry', () => {
    const base = { pattern: 'E2', file: 'x.py', line: 2, endLine: 4 };
    expect(problem({ version: 2, skills: {} })).toMatch(/version: expected 1/);
    expect(problem({ version: 1, skills: [] })).toMatch(/skills: expected an object/);
    expect(problem({ version: 1, skills: { a: {} } })).toMatch(/skills\["a"\]: expected a list/);
    expect(problem({ version: 1, skills: { a: [{ ...base, pattern: 'X9' }] } })).toMatch(
      /skills\["a"\]\[0\]\.pattern: unknown pattern "X9"/,
    );
    expect(problem({ version: 1, skills: { a: [base, { ...base, endLine: 1 }] } })).toMatch(
      /\[1\]\.endLine: expected an integer >= line/,
    );
    expect(problem({ version: 1, skills: { a: [{ ...base, line: 0 }] } })).toMatch(
      /\.line: expected an integer >= 1/,
    );
    expect(problem({ version: 1, skills: { a: [{ ...base, line: 2.5 }] } })).toMatch(/\.line:/);
    expect(problem({ version: 1, skills: { a: [{ ...base, file: '../../etc/passwd' }] } })).toMatch(
      /\.file:/,
    );
    expect(problem({ version: 1, skills: { a: [{ ...base, file: '/etc/passwd' }] } })).toMatch(/\.file:/);
    expect(problem({ version: 1, skills: { '../up': [] } })).toMatch(/folder must be a relative path/);
    expect(problem({ version: 1, skills: { a: [{ ...base, note: 3 }] } })).toMatch(
      /\.note: expected a string/,
    );
  });
});
