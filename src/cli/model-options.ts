import type { Command } from 'commander';
import type { ModelFlags } from '../model/config.js';

// The model flags, shared by every command with a model-backed stage. Keys come only from the environment
// (ANTHROPIC_API_KEY, OPENAI_API_KEY, ...); see docs/model.md for the precedence of flags, variables and files.
export function addModelOptions(cmd: Command): Command {
  return cmd
    .option(
      '--model <provider/name>',
      'model for model-backed stages: anthropic/…, openai/…, openai-chat/…, openai-compatible/…',
    )
    .option('--base-url <url>', 'API base URL (a local Ollama, vLLM or llama.cpp server, or a proxy)')
    .option('--max-cost <cap>', 'stop model calls at this cost: dollars (2.50) or tokens (tokens:200000)')
    .option('--cache-dir <dir>', 'where model responses and scan results are cached (re-runs cost nothing)')
    .option('--no-cache', 'do not read or write the cache (model responses, scan results)');
}

export function modelFlags(flags: Record<string, unknown>): ModelFlags {
  const pick = (key: string): string | undefined =>
    typeof flags[key] === 'string' ? (flags[key] as string) : undefined;
  const out: ModelFlags = {};
  const model = pick('model');
  const judgeModel = pick('judgeModel');
  const baseUrl = pick('baseUrl');
  const maxCost = pick('maxCost');
  const cacheDir = pick('cacheDir');
  if (model) out.model = model;
  if (judgeModel) out.judgeModel = judgeModel;
  if (baseUrl) out.baseUrl = baseUrl;
  if (maxCost) out.maxCost = maxCost;
  if (cacheDir) out.cacheDir = cacheDir;
  if (flags.cache === false) out.cache = false;
  return out;
}
