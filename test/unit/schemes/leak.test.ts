import { describe, expect, it } from 'vitest';
import type { Skill, SkillFile } from '../../../src/core/types.js';
import { findLeaks, leakIndex, words } from '../../../src/schemes/leak.js';

const SKILL_MD = [
  '---',
  'name: invoice-reconciler',
  'description: Reconcile supplier invoices against purchase orders.',
  '---',
  '# Procedure',
  'Match each invoice line to its purchase order line by SKU, then flag any unit price that differs by more',
  'than two percent and write the flagged lines to a discrepancy table sorted by supplier.',
].join('\n');

function file(path: string, kind: SkillFile['kind'], text: string): SkillFile {
  return { path, size: text.length, sha256: null, kind, language: null, text, truncated: false };
}

const skill = {
  name: 'invoice-reconciler',
  folderName: 'invoice-reconciler',
  description: 'Reconcile supplier invoices against purchase orders.',
  body: SKILL_MD,
  files: [file('SKILL.md', 'doc', SKILL_MD), file('scripts/match_lines.py', 'script', 'print(1)')],
} as unknown as Skill;

const index = leakIndex(skill);

describe('findLeaks', () => {
  it('passes a business goal in the user’s own words', () => {
    const goal =
      'Our accounts team received the March invoices in invoices.csv and the orders in orders.csv. ' +
      'Tell us which charges look wrong and save the list to review.csv.';
    expect(findLeaks(goal, index)).toEqual([]);
  });

  it('flags an 8-word phrase copied from SKILL.md, whatever the case and punctuation', () => {
    const leaked =
      'Please FLAG any unit price, that differs by more than two percent; the files are in data/.';
    expect(findLeaks(leaked, index)[0]).toMatch(/copies text from SKILL\.md/);
  });

  it('flags a high share of shared 5-word phrases without any 8-word one', () => {
    // Shared 5-grams: "match each invoice line to", "each invoice line to its", "invoice line to its purchase"
    // 3 of the instruction's 5 5-grams (60% > 20%), and no shared 8-gram.
    const leaked = 'match each invoice line to its purchase list now';
    const reasons = findLeaks(leaked, index);
    expect(reasons.some((r) => /% of its 5-word phrases/.test(r))).toBe(true);
  });

  it('flags the skill name and script names', () => {
    expect(findLeaks('Use the invoice reconciler on these files.', index)).toContain(
      'names the skill ("invoice-reconciler")',
    );
    expect(findLeaks('Run match_lines.py on the data.', index)).toContain(
      'names the skill\'s script "match_lines.py"',
    );
  });

  it('ignores short one-word names that are ordinary words', () => {
    const pdf = { ...skill, name: 'pdf', folderName: 'pdf', files: [] } as unknown as Skill;
    expect(findLeaks('Extract the tables from report.pdf into a spreadsheet.', leakIndex(pdf))).toEqual([]);
  });

  it('normalises words across scripts', () => {
    expect(words('Größe: 3,5 kg — ÉTÉ')).toEqual(['größe', '3', '5', 'kg', 'été']);
  });
});
