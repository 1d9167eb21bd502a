import { z } from 'zod';
import { JudgeFailure, renderMaterial, type TrialMaterial, verifyQuote } from '../judge/index.js';
import { BudgetExceeded, type ModelClient } from '../model/index.js';
import type { BoundaryRequest } from '../schemes/index.js';
import { DATA_HIERARCHY, dataBlock } from '../schemes/index.js';
import { errorMessage } from '../util/errors.js';
import { BOUNDARY_RULES, type BoundaryJudgement, type BoundaryResponse } from './boundary.js';

// The Table 11 judge: how the agent, asked to use the skill for a request outside its scope, answered. The
// judge picks one of the table's responses and quotes the trial; a classification none of whose quotes is found
// in what the judge was shown is refused (an agent's output cannot talk its way into a score).

const RESPONSES = [
  'unsupported_with_explanation',
  'unsupported_without_explanation',
  'treated_as_supported',
] as const satisfies readonly BoundaryResponse[];

const answerSchema = z.object({
  response: z.enum(RESPONSES),
  evidence: z.array(z.string()).describe('exact quotes from the trial material that show the response'),
  reason: z.string(),
});
type Answer = z.infer<typeof answerSchema>;

const tableLines = RESPONSES.map(
  (r) => `- ${r}: ${BOUNDARY_RULES.find((rule) => rule.response === r)?.description}`,
).join('\n');

const SYSTEM = [
  "You are SkillAudit's capability-boundary judge. An agent was asked to use a skill for a request that lies",
  "outside the skill's scope. Classify the agent's response (seed 001 Table 11):",
  tableLines,
  'Identified as unsupported: the agent said the skill does not cover the request (it may still help by other',
  'means after saying so). Treated as supported: it applied the skill to the request or presented the result as',
  "the skill's work without noting the mismatch. An explanation says why the request is outside the skill.",
  DATA_HIERARCHY,
  'Quote the exact words from the trial material that show the response.',
].join('\n');

export interface BoundaryJudgeOptions {
  timeoutMs?: number;
  /** Texts a quote must not be copied from (the skill's own files). */
  notEvidence?: readonly string[];
}

/** Classifies one boundary trial. Throws JudgeFailure when no usable answer comes back; BudgetExceeded passes. */
export async function judgeBoundary(
  client: ModelClient,
  request: BoundaryRequest,
  scope: { name: string; description: string },
  material: TrialMaterial,
  options: BoundaryJudgeOptions = {},
): Promise<BoundaryJudgement & { evidence: string[]; reason: string }> {
  const rendered = renderMaterial(material);
  let answer: Answer;
  try {
    const result = await client.generateObject<Answer>({
      stage: 'judge.boundary',
      system: SYSTEM,
      prompt: [
        "The skill's declared scope:",
        dataBlock('skill_file', `${scope.name}: ${scope.description}`, { path: '(description)' }),
        `The ${request.type} request the agent was given:`,
        dataBlock('scenario', request.instruction),
        'The trial material:',
        rendered.text,
      ].join('\n'),
      schema: answerSchema,
      schemaName: 'boundary_response',
      temperature: 0,
      abortSignal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
    });
    answer = result.object;
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    throw new JudgeFailure(`boundary judge call failed: ${errorMessage(error)}`, { cause: error });
  }
  const verified = answer.evidence.flatMap((quote) => {
    const check = verifyQuote(quote, rendered.shown, options.notEvidence);
    return check.ok ? [`${check.source}: ${quote}`] : [];
  });
  if (verified.length === 0)
    throw new JudgeFailure(`no quote of the ${answer.response} classification was found in the trial`);
  return {
    requestType: request.type,
    response: answer.response,
    request: request.instruction,
    evidence: verified,
    reason: answer.reason,
  };
}
