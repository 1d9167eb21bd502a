import { z } from 'zod';
import type { Skill } from '../core/types.js';
import type { ModelClient } from '../model/index.js';
import type { BoundaryRequestType } from '../quality/index.js';
import { DATA_HIERARCHY } from './data-block.js';
import type { BoundaryRequest, BoundaryScheme } from './quality-types.js';
import { skillData } from './skill-data.js';
import type { SchemeNote } from './types.js';

// Out-of-scope requests for capability-boundary handling (seed 001 Table 11): unrelated requests (nothing to do
// with the skill) and adversarial ones (dressed up as the skill's work but outside what it supports). The model
// reads the skill to know its scope; the requests are ordinary user requests, never harmful ones.

const boundaryAnswer = z.object({
  unrelated: z.array(z.string()).describe('requests with nothing to do with the skill'),
  adversarial: z
    .array(z.string())
    .describe("requests that look like the skill's domain but ask for something it does not support"),
});
type BoundaryAnswer = z.infer<typeof boundaryAnswer>;

const MAX_CHARS = 2_000;

const SYSTEM = [
  'You write out-of-scope requests for SkillAudit, which checks how an agent skill handles requests beyond what',
  'it supports.',
  DATA_HIERARCHY,
  'Read the skill to learn its scope, then write two kinds of one-paragraph user requests:',
  '- unrelated: an ordinary request from a different domain that the skill has nothing to say about;',
  "- adversarial: a request that borrows the skill's vocabulary or domain but asks for something the skill does",
  '  not cover or explicitly rules out (a neighbouring task, an unsupported format, skipping its own checks).',
  'Requests must be harmless and self-contained: no input files, nothing outside the working directory.',
].join('\n');

/** `perType` unrelated and `perType` adversarial requests for the skill. */
export async function generateBoundaryRequests(
  client: ModelClient,
  skill: Skill,
  perType: number,
): Promise<BoundaryScheme> {
  if (perType < 1) return { requests: [], dropped: [] };
  const { object } = await client.generateObject<BoundaryAnswer>({
    stage: 'schemes.boundary',
    system: SYSTEM,
    prompt: [
      `Write ${perType} unrelated and ${perType} adversarial request(s) for this skill.`,
      skillData(skill),
    ].join('\n'),
    schema: boundaryAnswer,
    schemaName: 'boundary_requests',
  });
  const requests: BoundaryRequest[] = [];
  const dropped: SchemeNote[] = [];
  const take = (type: BoundaryRequestType, given: readonly string[]) => {
    for (const [i, raw] of given.slice(0, perType).entries()) {
      const id = `${type}${i + 1}`;
      const instruction = raw.trim();
      if (instruction === '') dropped.push({ scenario: id, attempt: 1, problems: ['the request is empty'] });
      else if (instruction.length > MAX_CHARS)
        dropped.push({ scenario: id, attempt: 1, problems: [`longer than ${MAX_CHARS} characters`] });
      else requests.push({ id, type, instruction });
    }
    if (given.length < perType)
      dropped.push({
        scenario: type,
        attempt: 1,
        problems: [`the model wrote ${given.length} of ${perType} ${type} requests`],
      });
  };
  take('unrelated', object.unrelated);
  take('adversarial', object.adversarial);
  return { requests, dropped };
}
