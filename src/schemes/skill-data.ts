import type { Skill } from '../core/types.js';
import { dataBlock } from './data-block.js';

// The skill as prompt data: SKILL.md first, then the other readable files, within a character budget so a
// huge skill cannot crowd out the instructions or run up the bill.

export interface SkillDataBudget {
  totalChars: number;
  perFileChars: number;
}

export const DEFAULT_SKILL_BUDGET: SkillDataBudget = { totalChars: 60_000, perFileChars: 20_000 };

export function skillData(skill: Skill, budget: SkillDataBudget = DEFAULT_SKILL_BUDGET): string {
  const files = [...skill.files].sort((a, b) =>
    a.path === 'SKILL.md' ? -1 : b.path === 'SKILL.md' ? 1 : a.path.localeCompare(b.path),
  );
  const blocks: string[] = [];
  const left: string[] = [];
  let room = budget.totalChars;
  for (const f of files) {
    if (f.text === null || room <= 0) {
      left.push(f.text === null ? `${f.path} (${f.kind}, not text)` : `${f.path} (over budget)`);
      continue;
    }
    const take = Math.min(f.text.length, budget.perFileChars, room);
    const cut = take < f.text.length || f.truncated;
    blocks.push(
      dataBlock('skill_file', f.text.slice(0, take), { path: f.path, ...(cut ? { cut: 'yes' } : {}) }),
    );
    room -= take;
  }
  // File names are skill data too, so even the list of omitted files stays inside a block.
  if (left.length > 0) blocks.push(dataBlock('skill_file', left.join('\n'), { path: '(files not shown)' }));
  return blocks.join('\n');
}
