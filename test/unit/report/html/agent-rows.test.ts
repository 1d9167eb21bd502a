import { describe, expect, it } from 'vitest';
import { agentLabel, agentRows, agentScoreCells } from '../../../../src/report/html/app/agent-rows.js';
import { twoAgentReport } from '../../../support/report-fixtures.js';

describe('agentRows', () => {
  it('reads the rows of a multi-agent audit', () => {
    const rows = agentRows(twoAgentReport().configuration);
    expect(rows.map((r) => [agentLabel(r), r.model, r.validPairs, r.invalidPairs])).toEqual([
      ['builtin', 'anthropic/claude-sonnet-4-5', 3, 0],
      ['claude-code (@anthropic-ai/claude-code@2.1.332)', 'anthropic/claude-sonnet-4-5', 2, 1],
    ]);
    expect(agentScoreCells(rows[1]!)).toEqual([
      '+25%',
      'n/a',
      '−12%',
      'n/a',
      '4.2 s slower',
      '1,800 more tokens',
      'no',
      '2/1',
    ]);
  });

  it('keeps only objects with an agent name and numeric or null scores', () => {
    const good = { agent: 'a', prg: 0.5, eg: null, cg: 0, ecg: null, deltaT: 10, deltaQ: -3 };
    const rows = agentRows({
      utilityByAgent: [
        good,
        {
          ...good,
          agent: 'b',
          harness: 3,
          model: { name: 'x' },
          ceiling: 'yes',
          validPairs: -1,
          invalidPairs: 1.5,
        },
        'c',
        null,
        [good],
        { ...good, agent: null },
        { ...good, prg: '50%' },
        { ...good, eg: Number.POSITIVE_INFINITY },
        { ...good, deltaQ: undefined },
      ],
    });
    expect(rows.map((r) => r.agent)).toEqual(['a', 'b']);
    expect(rows[1]).toMatchObject({
      harness: null,
      model: null,
      ceiling: false,
      validPairs: null,
      invalidPairs: null,
    });
    expect(agentScoreCells(rows[1]!).at(-1)).toBe('?/?');
  });

  it('returns nothing for fewer than two rows or a configuration without them', () => {
    const one = { agent: 'a', prg: 1, eg: 1, cg: 1, ecg: 1, deltaT: 1, deltaQ: 1 };
    for (const configuration of [
      null,
      'x',
      {},
      { utilityByAgent: {} },
      { utilityByAgent: [one] },
      { utilityByAgent: [one, 'b'] },
    ])
      expect(agentRows(configuration)).toEqual([]);
  });
});
