import { describe, expect, it } from 'vitest';
import {
  BEHAVIOR_CHAIN_RUBRIC,
  rubricDimension,
  rubricLevel,
  TASK_GRANULARITY_RUBRIC,
} from '../../../src/quality/rubrics.js';

describe('rubrics (seed 001 Tables 13 and 14)', () => {
  it('have five levels from 1.00 to 0.00 with the published wording', () => {
    for (const rubric of [BEHAVIOR_CHAIN_RUBRIC, TASK_GRANULARITY_RUBRIC]) {
      expect(rubric.map((l) => l.score)).toEqual([1, 0.75, 0.5, 0.25, 0]);
    }
    expect(BEHAVIOR_CHAIN_RUBRIC[1]!.criterion).toBe(
      'Most actions support the objective, with only one or two peripheral actions.',
    );
    expect(TASK_GRANULARITY_RUBRIC[2]!.criterion).toBe(
      'The responsibility is noticeably too narrow or too broad.',
    );
  });

  it('averages the judged levels: (1 + 0.75 + 0.5) / 3 = 0.75', () => {
    const d = rubricDimension('behavior-chain-semantic-consistency', [
      { score: 1, subject: 'trials/a/trajectory.jsonl' },
      { score: 0.75, subject: 'trials/b/trajectory.jsonl' },
      { score: 0.5, subject: 'trials/c/trajectory.jsonl', rationale: 'lists files it never uses' },
    ]);
    expect(d).toMatchObject({ status: 'scored', score: 0.75, group: 'rubric' });
    expect((d.evidence.judgements as { criterion: string }[])[2]!.criterion).toBe(
      BEHAVIOR_CHAIN_RUBRIC[2]!.criterion,
    );
  });

  it('refuses a score that is not a rubric level instead of rounding it', () => {
    expect(() => rubricLevel('task-abstraction-granularity', 0.8)).toThrow(/not a level/);
    expect(() => rubricDimension('task-abstraction-granularity', [{ score: 0.6, subject: 'skill' }])).toThrow(
      RangeError,
    );
  });

  it('is not run without judgements', () => {
    expect(rubricDimension('task-abstraction-granularity', [])).toMatchObject({
      status: 'not_run',
      score: null,
    });
  });
});
