import { createHash } from 'node:crypto';

/**
 * The cache key of a request: sha256 over canonical JSON (object keys sorted, undefined dropped) of everything
 * that decides the answer: provider, model, endpoint when the model name is not global, system prompt,
 * messages, output schema and sampling settings. Retries, timeouts and streaming do not change the key.
 */
export function requestKey(parts: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof URL) return value.toString();
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
