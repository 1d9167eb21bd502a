import { count, signedPercent, timeSaving, tokenSaving } from '../../../core/format.js';

// The per-agent utility rows of a multi-agent audit (`configuration.utilityByAgent`, docs/audit.md), read
// defensively: `configuration` is free-form, so a row is kept only when it is an object with an agent name
// and every score a finite number or null. Shared by every renderer (terminal, Markdown, HTML app). Names
// stay untrusted text: each renderer escapes them as it does skill text.

export interface AgentRow {
  agent: string;
  /** The harness package pinned for the agent, e.g. `@anthropic-ai/claude-code@2.1.332`; null for builtin. */
  harness: string | null;
  model: string | null;
  prg: number | null;
  eg: number | null;
  cg: number | null;
  ecg: number | null;
  /** ms saved by the skill (negative: slower). */
  deltaT: number | null;
  /** Effective input tokens saved by the skill (negative: more). */
  deltaQ: number | null;
  ceiling: boolean;
  validPairs: number | null;
  invalidPairs: number | null;
}

const SCORES = ['prg', 'eg', 'cg', 'ecg', 'deltaT', 'deltaQ'] as const;

function scoreOf(value: unknown): number | null | undefined {
  if (value === null) return null;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function pairsOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

function rowOf(value: unknown): AgentRow | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const r = value as Record<string, unknown>;
  if (typeof r.agent !== 'string') return null;
  const scores: Partial<Record<(typeof SCORES)[number], number | null>> = {};
  for (const key of SCORES) {
    const score = scoreOf(r[key]);
    if (score === undefined) return null;
    scores[key] = score;
  }
  return {
    agent: r.agent,
    harness: typeof r.harness === 'string' ? r.harness : null,
    model: typeof r.model === 'string' ? r.model : null,
    prg: scores.prg ?? null,
    eg: scores.eg ?? null,
    cg: scores.cg ?? null,
    ecg: scores.ecg ?? null,
    deltaT: scores.deltaT ?? null,
    deltaQ: scores.deltaQ ?? null,
    ceiling: r.ceiling === true,
    validPairs: pairsOf(r.validPairs),
    invalidPairs: pairsOf(r.invalidPairs),
  };
}

/**
 * The well-formed rows of `configuration.utilityByAgent`, or none when fewer than two remain: a single agent's
 * row repeats `utility`, which every renderer already shows.
 */
export function agentRows(configuration: unknown): AgentRow[] {
  if (configuration === null || typeof configuration !== 'object') return [];
  const raw = (configuration as Record<string, unknown>).utilityByAgent;
  if (!Array.isArray(raw)) return [];
  const rows = raw.map(rowOf).filter((r): r is AgentRow => r !== null);
  return rows.length >= 2 ? rows : [];
}

/** Column headings of the per-agent table, in order. */
export const AGENT_COLUMNS = [
  'agent',
  'model',
  'pass-rate gain',
  'efficiency gain',
  'cost gain',
  'combined',
  'time saved',
  'tokens saved',
  'already passing',
  'valid/invalid pairs',
] as const;

/** The row's agent with its harness, e.g. `claude-code (@anthropic-ai/claude-code@2.1.332)`; raw text. */
export function agentLabel(row: AgentRow): string {
  return row.harness ? `${row.agent} (${row.harness})` : row.agent;
}

/** The row's numeric cells (PRG through valid/invalid pairs), formatted; no untrusted text in them. */
export function agentScoreCells(row: AgentRow): string[] {
  const pairs = (n: number | null) => (n === null ? '?' : count(n));
  return [
    signedPercent(row.prg),
    signedPercent(row.eg),
    signedPercent(row.cg),
    signedPercent(row.ecg),
    timeSaving(row.deltaT),
    tokenSaving(row.deltaQ),
    row.ceiling ? 'yes' : 'no',
    `${pairs(row.validPairs)}/${pairs(row.invalidPairs)}`,
  ];
}
