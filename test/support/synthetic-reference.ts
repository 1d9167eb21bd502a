import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReferenceSkill } from '../../src/quality/estimate/estimator.js';
import type { DimensionId } from '../../src/quality/types.js';
import { seededRandom } from '../../src/util/seeded-random.js';

// Synthetic skills whose true quality is a known function of their topic: each topic has its own vocabulary and
// fixed scores, so an estimator that retrieves by topic must reproduce the topic's scores exactly. Used by the
// estimate tests (known answer) and the estimate benchmark (a 5,000-skill reference set). Deterministic.

export interface Topic {
  name: string;
  category: string;
  words: readonly string[];
  scores: Partial<Record<DimensionId, number>>;
}

/** Three topics with disjoint vocabularies and distinct scores per dimension. */
export const KNOWN_TOPICS: readonly Topic[] = [
  {
    name: 'pdf',
    category: 'documents',
    words: ['pdf', 'page', 'merge', 'split', 'rotate', 'poppler', 'bookmark', 'watermark', 'layout', 'scan'],
    scores: { 'structural-completeness': 0.9, efficiency: 0.8, 'task-abstraction-granularity': 0.75 },
  },
  {
    name: 'docker',
    category: 'devops',
    words: [
      'docker',
      'container',
      'image',
      'volume',
      'prune',
      'compose',
      'registry',
      'dockerfile',
      'layer',
      'tag',
    ],
    scores: { 'structural-completeness': 0.5, efficiency: 0.4, 'task-abstraction-granularity': 0.25 },
  },
  {
    name: 'email',
    category: 'communication',
    words: [
      'email',
      'inbox',
      'reply',
      'thread',
      'sender',
      'subject',
      'attachment',
      'draft',
      'mailbox',
      'smtp',
    ],
    scores: { 'structural-completeness': 0.2, efficiency: 0.6, 'task-abstraction-granularity': 0.5 },
  },
];

/** Seeded, so every generated set is the same on every run. */
export const seeded = seededRandom;

function pick(words: readonly string[], n: number, rand: () => number): string[] {
  return Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]!);
}

export function syntheticText(topic: Topic, i: number, rand: () => number) {
  const [a, b] = pick(topic.words, 2, rand);
  return {
    name: `${topic.name}-${a}-${b}`,
    description: `${pick(topic.words, 6, rand).join(' ')} ${i}`,
    body: `## ${pick(topic.words, 2, rand).join(' ')}\n\n${pick(topic.words, 30, rand).join(' ')}\n`,
  };
}

/** `perTopic` reference skills per topic, each carrying its topic's scores and category. */
export function syntheticReference(topics: readonly Topic[], perTopic: number, seed = 7): ReferenceSkill[] {
  const rand = seeded(seed);
  return topics.flatMap((topic) =>
    Array.from({ length: perTopic }, (_, i) => {
      const text = syntheticText(topic, i, rand);
      return {
        ...text,
        skillId: `${topic.name}-${i}`,
        path: `${topic.name}/${i}`,
        category: topic.category,
        scores: { ...topic.scores },
      };
    }),
  );
}

/** `count` topics of ten made-up words each (syllable strings), for a reference set of realistic vocabulary size. */
export function generatedTopics(count: number, seed = 11): Topic[] {
  const rand = seeded(seed);
  const syllables = [
    'ka',
    'lo',
    'mi',
    're',
    'su',
    'to',
    'van',
    'del',
    'qui',
    'bor',
    'nex',
    'pra',
    'sil',
    'tur',
  ];
  const word = () => pick(syllables, 3, rand).join('');
  return Array.from({ length: count }, (_, t) => ({
    name: word(),
    category: `category-${t % 14}`,
    words: Array.from({ length: 10 }, word),
    scores: {},
  }));
}

/** Writes `count` skill folders (SKILL.md only) spread over `topics`, for a build through intake. */
export function writeSyntheticCorpus(dir: string, topics: readonly Topic[], count: number, seed = 5): void {
  const rand = seeded(seed);
  for (let i = 0; i < count; i++) {
    const topic = topics[i % topics.length]!;
    const text = syntheticText(topic, i, rand);
    const root = join(dir, `skill-${i}`);
    mkdirSync(root, { recursive: true });
    writeFileSync(
      join(root, 'SKILL.md'),
      `---\nname: ${text.name}\ndescription: ${text.description}\ncategory: ${topic.category}\n---\n\n# ${text.name}\n\n${text.body}\n## Steps\n\n1. ${pick(topic.words, 12, rand).join(' ')}\n`,
    );
  }
}
