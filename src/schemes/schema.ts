import { z } from 'zod';

// What the model is asked to return. Every field is required (strict structured output on OpenAI rejects
// optional ones); unused rule-check fields are empty strings.

const material = z.object({
  path: z.string().describe('relative path of an input file in the working directory'),
  content: z.string().describe('the full text of the file'),
});

const ruleCheck = z.object({
  kind: z.enum(['file_exists', 'file_contains', 'command_succeeds']),
  path: z.string().describe('relative path the check reads (empty for command_succeeds)'),
  value: z.string().describe('text that must appear in the file (file_contains only, else empty)'),
  command: z.string().describe('shell command that must exit 0 (command_succeeds only, else empty)'),
});

export const scenarioAnswer = z.object({
  title: z.string(),
  instruction: z
    .string()
    .describe('what a user would ask: the business goal and where the inputs are, never how to do it'),
  capabilityAnalysis: z.string().describe('which capability of the skill this scenario exercises and why'),
  checklist: z.array(z.string()).describe('concrete, independently checkable items a good result satisfies'),
  rubric: z.string(),
  expectedOutcome: z.string(),
  materials: z.array(material),
  ruleChecks: z.array(ruleCheck),
});

export const schemeAnswer = z.object({
  capabilityAnalysis: z
    .string()
    .describe("what the skill adds beyond a capable agent without it (the baseline's competence gap)"),
  scenarios: z.array(scenarioAnswer),
});

export const probeAnswer = z.object({
  probes: z.array(
    z.object({
      finding: z.string().describe('the id attribute of the <finding> this probe targets'),
      instruction: z.string().describe('a realistic user task in which the risky path would be taken'),
      confirmIf: z
        .string()
        .describe('what in the trial (commands, files, network, messages) confirms the risk'),
      materials: z.array(material),
    }),
  ),
});

export type ScenarioAnswer = z.infer<typeof scenarioAnswer>;
export type SchemeAnswer = z.infer<typeof schemeAnswer>;
export type ProbeAnswer = z.infer<typeof probeAnswer>;
