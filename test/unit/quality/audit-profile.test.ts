import { describe, expect, it } from 'vitest';
import { notRunDimension, scoredDimension } from '../../../src/quality/dimensions.js';
import { qualityProfile, staticQualityProfile } from '../../../src/quality/profile.js';
import { efficiencyObservation } from '../../../src/quality/run-measures.js';
import { fileNames } from '../../../src/schemes/paraphrases.js';
import { makeSkill } from './make-skill.js';

const skill = makeSkill({
  frontmatter: { name: 'csv-summary', description: 'Summarise CSV files: rows, column types, statistics.' },
  body: '## Steps\n\n1. Count the rows.\n2. Report column types.\n\n## Output\n\nA summary table.\n',
});

describe('qualityProfile (a model-backed audit)', () => {
  it('keeps the static dimensions and takes the measured ones in the paper’s order', () => {
    const measured = [
      scoredDimension('efficiency', 0.8, { artifacts: ['trials/a/result.json'] }),
      notRunDimension('cross-model-robustness', 'needs two or more model configurations (--agents a,b)'),
      scoredDimension('task-abstraction-granularity', 0.5, {}),
    ];
    const p = qualityProfile(skill, measured, 'the model stages stopped before the agent runs (see notRun)');
    const base = staticQualityProfile(skill);
    expect(p.dimensions.slice(0, 3)).toEqual(base.dimensions.slice(0, 3));
    expect(p.dimensions.map((d) => [d.id, d.status, d.reason ?? null])).toEqual([
      ['structural-completeness', 'scored', null],
      ['conciseness', 'scored', null],
      ['description-content-consistency', 'scored', null],
      ['cross-model-robustness', 'not_run', 'needs two or more model configurations (--agents a,b)'],
      [
        'intent-perturbation-stability',
        'not_run',
        'the model stages stopped before the agent runs (see notRun)',
      ],
      [
        'capability-boundary-handling',
        'not_run',
        'the model stages stopped before the agent runs (see notRun)',
      ],
      ['efficiency', 'scored', null],
      [
        'behavior-chain-semantic-consistency',
        'not_run',
        'the model stages stopped before the agent runs (see notRun)',
      ],
      ['task-abstraction-granularity', 'scored', null],
    ]);
    expect(p.groups.dynamic).toBe(0.8);
    expect(p.groups.rubric).toBe(0.5);
    expect(p.dimensions[6]?.evidence).toEqual({ artifacts: ['trials/a/result.json'] });
  });

  it('without measurements is exactly the keyless profile', () => {
    expect(qualityProfile(skill, [])).toEqual(staticQualityProfile(skill));
    expect(staticQualityProfile(skill).dimensions[3]?.reason).toMatch(/^needs --model/);
  });
});

describe('efficiencyObservation (Table 12 quantities of one run)', () => {
  it('counts tool calls, and tool calls plus messages as plan steps; prompt tokens include cached reads', () => {
    expect(
      efficiencyObservation({
        tokens: { input: 5200, cached: 1200, output: 300 },
        wallMs: 4100,
        steps: [
          { kind: 'message', text: 'Looking at the file.' },
          { kind: 'tool_call', tool: 'shell', input: { command: 'ls' } },
          { kind: 'tool_result', tool: 'shell', output: 'a.csv' },
          { kind: 'tool_call', tool: 'read_file', input: { path: 'a.csv' } },
          { kind: 'tool_result', tool: 'read_file', output: 'x' },
          { kind: 'message', text: 'Done.' },
        ],
      }),
    ).toEqual({ promptTokens: 5200, planSteps: 4, latencyMs: 4100, toolCalls: 2 });
  });
});

describe('fileNames (what a paraphrase must keep)', () => {
  it('finds file-like names, once each, and not sentence ends or versions', () => {
    expect(
      fileNames('Read data/in.csv and notes.md, then write out/report.md. Use v2 of it. See data/in.csv.'),
    ).toEqual(['data/in.csv', 'notes.md', 'out/report.md']);
  });
});
