// Turning calls into hits: quoted evidence and a confidence adjusted for where the code sits.
import type { FileContext, Hit } from '../rule.js';
import { linesOf, quote } from '../text.js';
import type { Call } from './model.js';

const TEST_PATH =
  /(^|\/)(tests?|__tests__|spec|fixtures?|examples?)\/|(^|\/)test_[^/]*$|[._-](test|spec)\.[a-z]+$/i;

/** Tests, fixtures and examples: code that ships with the skill but is not what it runs. */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/** What code in tests, fixtures and examples weighs against code the skill runs, and the note saying so. */
export const TEST_WEIGHT = 0.5;
export const TEST_NOTE = 'in a test or example file';

export function clamp(x: number): number {
  return Math.max(0.05, Math.min(0.99, Math.round(x * 100) / 100));
}

/** Confidence for code at `call` given how likely it is to run as part of the skill. */
export function contextConfidence(
  ctx: FileContext,
  base: number,
  call?: Pick<Call, 'topLevel'>,
): { confidence: number; notes: string[] } {
  let c = base;
  const notes: string[] = [];
  if (TEST_PATH.test(ctx.file.path)) {
    c *= TEST_WEIGHT;
    notes.push(TEST_NOTE);
  }
  if (ctx.reachable) {
    c += 0.1;
    notes.push('the skill runs this script');
  }
  if (call && !call.topLevel) c *= 0.95;
  return { confidence: clamp(c), notes };
}

export function callHit(
  ctx: FileContext,
  call: Call,
  rule: string,
  base: number,
  why: string,
  message?: string,
  span?: { line: number; endLine: number },
): Hit {
  const { confidence, notes } = contextConfidence(ctx, base, call);
  const line = span?.line ?? call.line;
  const endLine = span?.endLine ?? call.endLine;
  const reasons = [why, ...notes];
  if (call.origin) reasons.push(call.origin);
  const evidence = call.origin
    ? `${quote(call.text, 300)}`
    : quote(evidenceText(ctx.text, line, endLine, call));
  const hit: Hit = { rule, line, endLine, evidence, confidence, rationale: reasons.join('; ') };
  if (message) hit.message = message;
  return hit;
}

/** The source lines of a span when short; the call text plus its first line otherwise. */
function evidenceText(text: string, line: number, endLine: number, call: Call): string {
  if (line === call.line && endLine === call.endLine) {
    // A pipeline stage (`sh` at the end of `curl … | sh`) means what feeds it: quote its whole line.
    if (call.line === call.endLine && call.stdin.bits !== 0) return linesOf(text, line) || call.text;
    return call.text;
  }
  const lines = text.split('\n');
  if (endLine - line <= 5) return lines.slice(line - 1, endLine).join('\n');
  return `${lines[line - 1] ?? ''}\n…\n${call.text}`;
}

/** Keeps the most confident hit per (rule, line range). */
export function dedupe(hits: Hit[]): Hit[] {
  const best = new Map<string, Hit>();
  for (const h of hits) {
    const key = `${h.rule}:${h.line}:${h.endLine}`;
    const prev = best.get(key);
    if (!prev || prev.confidence < h.confidence) best.set(key, h);
  }
  return [...best.values()].sort((a, b) => a.line - b.line);
}
