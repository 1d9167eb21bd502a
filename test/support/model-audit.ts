// runAudit options for a model-backed audit against the fake model server, and the harness install a test
// needs first: the same settings resolution every pipeline test would otherwise spell out.
import { type AgentName, installAgent } from '../../src/agents/index.js';
import { resolveModelSettings } from '../../src/model/index.js';
import type { AuditOptions } from '../../src/pipeline/audit.js';
import type { ModelAuditOptions } from '../../src/pipeline/model-stages.js';

export interface FakeAuditModel {
  /** The fake server's URL (or its `/v1` base URL) that the provider SDK calls. */
  baseUrl: string;
  /** The settings' cwd and home: a temp folder of the test's own. */
  dir: string;
  /** `provider/name`; Anthropic by default. */
  model?: string;
  /** The provider's key variable; the fake server checks no key, the settings need one present. */
  env?: Record<string, string>;
  maxCost?: string;
}

/** A model-backed audit without detonation or response cache, so every request reaches the fake server. */
export function modelAuditOptions(
  out: string,
  fake: FakeAuditModel,
  model: Omit<ModelAuditOptions, 'settings'>,
): AuditOptions {
  const settings = resolveModelSettings(
    {
      model: fake.model ?? 'anthropic/claude-sonnet-4-5',
      baseUrl: fake.baseUrl,
      cache: false,
      ...(fake.maxCost ? { maxCost: fake.maxCost } : {}),
    },
    { env: fake.env ?? { ANTHROPIC_API_KEY: 'test-key' }, cwd: fake.dir, home: fake.dir },
  );
  if (!settings) throw new Error('no model settings');
  return { out, detonate: false, model: { settings, ...model } };
}

/** Installs an agent harness (a cache hit on a prepared machine); a failure names the harness. */
export async function requireHarness(agent: AgentName): Promise<void> {
  try {
    await installAgent(agent);
  } catch (error) {
    throw new Error(`cannot install the ${agent} harness for this test: ${(error as Error).message}`);
  }
}
