import type { ModelMessage } from 'ai';
import type { Skill } from '../core/types.js';
import type { ModelClient } from '../model/index.js';
import { DATA_HIERARCHY } from './data-block.js';
import { DEFAULT_LEAK_POLICY, findLeaks, type LeakPolicy, leakIndex } from './leak.js';
import { safeRelativePath } from './safe-path.js';
import { type ScenarioAnswer, type SchemeAnswer, scenarioAnswer, schemeAnswer } from './schema.js';
import { skillData } from './skill-data.js';
import type { RuleCheck, Scenario, SchemeNote, UtilityScheme } from './types.js';

// Utility scenarios (seed 000 section 4.2): the model analyses the skill and writes scenarios aimed at the gap
// between what the skill adds and what a capable agent already does. Each agent-facing instruction is checked
// mechanically for leaks of the skill's procedure and regenerated, a bounded number of times, when it leaks.

export interface UtilitySchemeOptions {
  /** Scenarios to ask for (seed 000 uses 3). */
  scenarios?: number;
  /** Regenerations per leaking or unusable scenario before it is dropped. */
  maxRegenerations?: number;
  leakPolicy?: LeakPolicy;
  abortSignal?: AbortSignal;
}

const STAGE = 'schemes';
const MAX_CHECKLIST = 12;
const MAX_MATERIAL_CHARS = 200_000;

function systemPrompt(count: number): string {
  return [
    "You design evaluation scenarios for SkillAudit, which measures an agent skill's marginal value by running",
    'the same task with and without the skill.',
    DATA_HIERARCHY,
    '',
    `Write a capability analysis and exactly ${count} scenarios. Each scenario targets a capability the skill`,
    'provides that a capable general agent without it would likely miss or do worse.',
    '- instruction: what a real user would ask, stating only the business goal and naming the input files. It',
    "  must not name the skill, its scripts or its files, and must not describe or paraphrase the skill's",
    '  procedure, steps, formats or rules: those are what the scenario measures.',
    '- checklist: 3 to 8 concrete items, each checkable from the output files or final message alone.',
    '- rubric and expectedOutcome: for the evaluator only.',
    '- materials: every input file the task needs, complete (no placeholders), with relative paths.',
    '- ruleChecks: mechanical checks of the working directory after the run (file_exists, file_contains with',
    '  an exact value, command_succeeds); at least one.',
  ].join('\n');
}

function firstPrompt(skill: Skill, count: number): string {
  return [`Design ${count} scenarios for this skill.`, '', skillData(skill)].join('\n');
}

function problemsOf(
  answer: ScenarioAnswer,
  index: ReturnType<typeof leakIndex>,
  policy: LeakPolicy,
): string[] {
  const problems = findLeaks(answer.instruction, index, policy);
  if (answer.instruction.trim() === '') problems.push('the instruction is empty');
  if (answer.checklist.filter((c) => c.trim() !== '').length === 0) problems.push('the checklist is empty');
  let size = 0;
  for (const m of answer.materials) {
    if (safeRelativePath(m.path) === null)
      problems.push(`material path "${m.path}" is not a plain relative path`);
    size += m.content.length;
  }
  if (size > MAX_MATERIAL_CHARS)
    problems.push(`materials total ${size} characters (limit ${MAX_MATERIAL_CHARS})`);
  return problems;
}

function toRuleChecks(answer: ScenarioAnswer): RuleCheck[] {
  const checks: RuleCheck[] = [];
  for (const c of answer.ruleChecks) {
    if (c.kind === 'command_succeeds') {
      if (c.command.trim() !== '') checks.push({ kind: 'command_succeeds', command: c.command });
      continue;
    }
    const path = safeRelativePath(c.path);
    // A check the task cannot honour is dropped rather than failing every run.
    if (path === null) continue;
    if (c.kind === 'file_exists') checks.push({ kind: 'file_exists', path });
    else if (c.value !== '') checks.push({ kind: 'file_contains', path, value: c.value });
  }
  return checks;
}

function toScenario(id: string, answer: ScenarioAnswer): Scenario {
  return {
    id,
    title: answer.title,
    instruction: answer.instruction.trim(),
    capabilityAnalysis: answer.capabilityAnalysis,
    checklist: answer.checklist
      .map((text) => text.trim())
      .filter((text) => text !== '')
      .slice(0, MAX_CHECKLIST)
      .map((text, i) => ({ id: `c${i + 1}`, text })),
    rubric: answer.rubric,
    expectedOutcome: answer.expectedOutcome,
    materials: answer.materials.map((m) => ({
      path: safeRelativePath(m.path) as string,
      content: m.content,
    })),
    ruleChecks: toRuleChecks(answer),
  };
}

function feedback(position: number, problems: string[]): string {
  return [
    `Scenario ${position} cannot be used: ${problems.join('; ')}.`,
    `Rewrite scenario ${position} only, keeping its goal and checklist intent. State the business goal in your own`,
    "words without the skill's name, script names or wording, and return just that one scenario.",
  ].join(' ');
}

/** Generates the capability analysis and utility scenarios, regenerating leaking ones (see UtilityScheme). */
export async function generateUtilityScheme(
  client: ModelClient,
  skill: Skill,
  options: UtilitySchemeOptions = {},
): Promise<UtilityScheme> {
  const count = options.scenarios ?? 3;
  const maxRegenerations = options.maxRegenerations ?? 2;
  const policy = options.leakPolicy ?? DEFAULT_LEAK_POLICY;
  const index = leakIndex(skill, policy);
  const system = systemPrompt(count);
  const prompt = firstPrompt(skill, count);
  const first = await client.generateObject<SchemeAnswer>({
    stage: STAGE,
    system,
    prompt,
    schema: schemeAnswer,
    schemaName: 'utility_scheme',
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
  const regenerated: SchemeNote[] = [];
  const dropped: SchemeNote[] = [];
  const scenarios: Scenario[] = [];
  const answers = first.object.scenarios.slice(0, count);

  for (const [i, initial] of answers.entries()) {
    const id = `s${i + 1}`;
    let answer = initial;
    let problems = problemsOf(answer, index, policy);
    // The conversation grows with each attempt so the model sees what it wrote and what was wrong with it.
    const messages: ModelMessage[] = [
      { role: 'user', content: prompt },
      { role: 'assistant', content: JSON.stringify(first.object) },
    ];
    for (let attempt = 1; problems.length > 0 && attempt <= maxRegenerations; attempt++) {
      regenerated.push({ scenario: id, attempt, problems });
      messages.push({ role: 'user', content: feedback(i + 1, problems) });
      const next = await client.generateObject<ScenarioAnswer>({
        stage: STAGE,
        system,
        messages,
        schema: scenarioAnswer,
        schemaName: 'utility_scenario',
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      answer = next.object;
      messages.push({ role: 'assistant', content: JSON.stringify(answer) });
      problems = problemsOf(answer, index, policy);
    }
    if (problems.length > 0) dropped.push({ scenario: id, attempt: maxRegenerations, problems });
    else scenarios.push(toScenario(id, answer));
  }
  if (answers.length < count) {
    dropped.push({
      scenario: `s${answers.length + 1}…s${count}`,
      attempt: 0,
      problems: [`the model wrote ${answers.length} of ${count} scenarios`],
    });
  }
  return { capabilityAnalysis: first.object.capabilityAnalysis, scenarios, regenerated, dropped };
}
