import { z } from 'zod';
import type { Skill } from '../core/types.js';
import type { ModelClient } from '../model/index.js';
import { DATA_HIERARCHY, dataBlock } from './data-block.js';
import { DEFAULT_LEAK_POLICY, findLeaks, leakIndex, words } from './leak.js';
import type { Paraphrase, ParaphraseScheme } from './quality-types.js';
import type { Scenario, SchemeNote } from './types.js';

// Paraphrases for intent-perturbation stability: the same request in other words, run with the skill and judged
// against the scenario's own checklist. Only the instructions reach the model (never the skill, so it cannot
// copy the procedure into them), and each paraphrase passes the scenario leak check before it is used.

const paraphraseAnswer = z.object({
  paraphrases: z.array(
    z.object({
      scenario: z.string().describe('the id attribute of the <scenario> this paraphrase rewrites'),
      instructions: z.array(z.string()).describe('the request in other words, one string per paraphrase'),
    }),
  ),
});
type ParaphraseAnswer = z.infer<typeof paraphraseAnswer>;

const MAX_CHARS = 4_000;

const SYSTEM = [
  'You write paraphrases of user requests for SkillAudit, which checks that an agent does the same work however',
  'a request is worded.',
  DATA_HIERARCHY,
  'For each <scenario>, write the requested number of paraphrases. A paraphrase asks for exactly the same result',
  'from the same input files, names every file the request names, and adds no hint about how to do the work.',
  'Change the wording and sentence order the way different users would phrase it (terse, chatty, indirect).',
].join('\n');

/** File-like names (`invoices.csv`, `out/report.md`; dotted values such as 42.50 too) a request mentions: a paraphrase must keep every one. */
export function fileNames(text: string): string[] {
  return [...new Set(text.match(/[\w./-]*\w\.[A-Za-z0-9]{1,8}\b/g) ?? [])];
}

function problemsOf(
  original: Scenario,
  instruction: string,
  index: ReturnType<typeof leakIndex>,
  seen: Set<string>,
): string[] {
  const problems = findLeaks(instruction, index, DEFAULT_LEAK_POLICY);
  if (instruction.trim() === '') problems.push('the paraphrase is empty');
  if (instruction.length > MAX_CHARS) problems.push(`longer than ${MAX_CHARS} characters`);
  const missing = fileNames(original.instruction).filter((f) => !instruction.includes(f));
  if (missing.length > 0) problems.push(`drops the file name(s) ${missing.join(', ')}`);
  const key = words(instruction).join(' ');
  if (key === words(original.instruction).join(' ')) problems.push('repeats the original wording');
  else if (seen.has(key)) problems.push('repeats another paraphrase');
  seen.add(key);
  return problems;
}

/** `perScenario` paraphrases of each scenario's instruction; unusable ones are dropped with the reason. */
export async function generateParaphrases(
  client: ModelClient,
  skill: Skill,
  scenarios: readonly Scenario[],
  perScenario: number,
): Promise<ParaphraseScheme> {
  if (scenarios.length === 0 || perScenario < 1) return { paraphrases: [], dropped: [] };
  const { object } = await client.generateObject<ParaphraseAnswer>({
    stage: 'schemes.paraphrases',
    system: SYSTEM,
    prompt: [
      `Write ${perScenario} paraphrase(s) of each of these ${scenarios.length} request(s).`,
      ...scenarios.map((s) => dataBlock('scenario', s.instruction, { id: s.id })),
    ].join('\n'),
    schema: paraphraseAnswer,
    schemaName: 'paraphrases',
  });
  const index = leakIndex(skill, DEFAULT_LEAK_POLICY);
  const paraphrases: Paraphrase[] = [];
  const dropped: SchemeNote[] = [];
  for (const scenario of scenarios) {
    const answer = object.paraphrases.find((p) => p.scenario.trim() === scenario.id);
    const given = (answer?.instructions ?? []).slice(0, perScenario);
    const seen = new Set<string>();
    for (const [i, raw] of given.entries()) {
      const instruction = raw.trim();
      const id = `${scenario.id}-para${i + 1}`;
      const problems = problemsOf(scenario, instruction, index, seen);
      if (problems.length > 0) dropped.push({ scenario: id, attempt: 1, problems });
      else paraphrases.push({ id, scenario: scenario.id, instruction });
    }
    if (given.length < perScenario)
      dropped.push({
        scenario: scenario.id,
        attempt: 1,
        problems: [`the model wrote ${given.length} of ${perScenario} paraphrases`],
      });
  }
  return { paraphrases, dropped };
}
