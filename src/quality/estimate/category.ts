import type { Skill } from '../../core/types.js';
import { ANALYSIS_CHAR_LIMIT } from '../skill-text.js';
import { contentTerms, stem } from '../terms.js';

// A skill's category, for category-aware retrieval and the category-mean baseline. The author's word wins
// (frontmatter `category` or `metadata.category`, then a tag naming one of the categories below); otherwise a
// keyword classifier over the tags, name and description (the body only when those name no keyword).

export type CategorySource = 'frontmatter' | 'tags' | 'keywords' | 'default';

export interface SkillCategory {
  name: string;
  source: CategorySource;
}

/** Used when nothing names a category and no keyword matches. */
export const DEFAULT_CATEGORY = 'general';

// Categories as data, in priority order (a tie goes to the earlier one). Keywords are compared after the
// same stemming as every other term, so "deploys" and "deployment" need no separate entries.
export const CATEGORY_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  security: [
    'security',
    'vulnerability',
    'secret',
    'credential',
    'password',
    'encrypt',
    'cve',
    'malware',
    'auth',
  ],
  devops: [
    'docker',
    'kubernetes',
    'deploy',
    'aws',
    'cloud',
    'terraform',
    'container',
    'cluster',
    'server',
    'ci',
    'infrastructure',
  ],
  development: [
    'code',
    'test',
    'refactor',
    'review',
    'git',
    'commit',
    'api',
    'lint',
    'debug',
    'compile',
    'function',
    'changelog',
    'repository',
    'typescript',
  ],
  data: [
    'csv',
    'data',
    'excel',
    'sql',
    'database',
    'statistic',
    'dataset',
    'spreadsheet',
    'chart',
    'column',
    'table',
  ],
  documents: ['pdf', 'docx', 'document', 'word', 'slide', 'presentation', 'form', 'ocr', 'page'],
  finance: [
    'finance',
    'invoice',
    'budget',
    'cost',
    'price',
    'payment',
    'stock',
    'tax',
    'accounting',
    'expense',
    'spend',
  ],
  communication: ['email', 'slack', 'message', 'chat', 'notification', 'meeting', 'calendar', 'newsletter'],
  creative: ['image', 'video', 'audio', 'music', 'design', 'art', 'photo', 'brand', 'logo', 'font', 'color'],
  knowledge: [
    'research',
    'wiki',
    'paper',
    'citation',
    'knowledge',
    'learn',
    'documentation',
    'weather',
    'news',
  ],
  productivity: ['todo', 'schedule', 'plan', 'project', 'workflow', 'reminder', 'organize', 'timer', 'note'],
};

const KEYWORD_STEMS: ReadonlyMap<string, readonly string[]> = (() => {
  const byStem = new Map<string, string[]>();
  for (const [category, keywords] of Object.entries(CATEGORY_KEYWORDS)) {
    for (const keyword of keywords) {
      const s = stem(keyword);
      byStem.set(s, [...(byStem.get(s) ?? []), category]);
    }
  }
  return byStem;
})();

/** Lowercase, hyphen-separated, at most 64 characters: "Data Analysis" and "data_analysis" are one category. */
export function normaliseCategory(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_/]+/g, '-')
    .replace(/[^\p{L}\p{N}-]/gu, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 64);
}

/** The category whose keywords occur most often in `text`, or null when none occurs. */
export function classifyByKeywords(text: string): string | null {
  const counts = new Map<string, number>();
  for (const term of contentTerms(text)) {
    for (const category of KEYWORD_STEMS.get(term) ?? [])
      counts.set(category, (counts.get(category) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const category of Object.keys(CATEGORY_KEYWORDS)) {
    const n = counts.get(category) ?? 0;
    if (n > bestCount) {
      best = category;
      bestCount = n;
    }
  }
  return best;
}

function stringAt(value: unknown): string | null {
  return typeof value === 'string' && normaliseCategory(value) !== '' ? normaliseCategory(value) : null;
}

function tagsOf(frontmatter: Record<string, unknown>): string[] {
  const tags = frontmatter.tags;
  if (typeof tags === 'string') return tags.split(',');
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

export function skillCategory(
  skill: Pick<Skill, 'frontmatter' | 'name' | 'description' | 'body'>,
): SkillCategory {
  const fm = skill.frontmatter;
  const metadata =
    fm.metadata !== null && typeof fm.metadata === 'object' ? (fm.metadata as Record<string, unknown>) : {};
  const declared = stringAt(fm.category) ?? stringAt(metadata.category);
  if (declared) return { name: declared, source: 'frontmatter' };
  const tags = tagsOf(fm);
  const named = tags.map(normaliseCategory).find((t) => t in CATEGORY_KEYWORDS);
  if (named) return { name: named, source: 'tags' };
  const byKeywords =
    classifyByKeywords(`${tags.join(' ')} ${skill.name} ${skill.description}`) ??
    classifyByKeywords(skill.body.slice(0, ANALYSIS_CHAR_LIMIT));
  return byKeywords
    ? { name: byKeywords, source: 'keywords' }
    : { name: DEFAULT_CATEGORY, source: 'default' };
}
