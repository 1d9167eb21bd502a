/**
 * The model layer: one small API over the ai SDK providers, shared by every stage that needs a model.
 *
 *   const settings = resolveModelSettings({ model: 'anthropic/claude-sonnet-4-6', maxCost: '2' });
 *   if (settings) {
 *     const client = createModelClient(settings);
 *     const { object } = await client.generateObject({ stage: 'judge', system, prompt, schema });
 *     client.ledger.byStage(); // tokens and dollars per stage
 *     client.close();
 *   }
 *
 * - Providers: `anthropic/…` (Messages), `openai/…` (Responses), `openai-chat/…` (Chat Completions),
 *   `openai-compatible/…` (Chat Completions at your base URL: Ollama, vLLM, llama.cpp).
 * - Settings precedence: flags > environment > ./skillaudit.config.json > ~/.config/skillaudit/config.json.
 * - Retries with backoff and jitter on 429/5xx/timeouts (retry-after honoured), a per-attempt timeout.
 * - `maxCost` in dollars (price table, overridable) or tokens; a call the cap cannot afford throws
 *   BudgetExceeded before anything is sent: catch it, stop, and report what was not run.
 * - Responses are cached in SQLite by a hash of the request, so a re-run costs nothing (`--no-cache` bypasses).
 */
export {
  createModelClient,
  type ModelClient,
  type ModelClientOptions,
  type ModelRequest,
  type ObjectRequest,
  type ObjectResult,
  type TextResult,
} from './client.js';
export {
  apiKeyVariable,
  describeSettings,
  type ModelFlags,
  type ModelSettings,
  normaliseBaseUrl,
  resolveCache,
  resolveJudgeSettings,
  resolveModelSettings,
  type SettingsContext,
} from './config.js';
export { ModelCallError, type ModelFailure } from './errors.js';
export { costOf, type Price, priceOf } from './prices.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export { formatModelSpec, type ModelSpec, type ProviderId, parseModelSpec } from './spec.js';
export {
  addUsage,
  BudgetExceeded,
  type CostCap,
  emptyUsage,
  parseCostCap,
  type Usage,
  UsageLedger,
} from './usage.js';
