import type { Framing } from '../../core/markdown.js';
import { findEncodedBlobs } from '../decode.js';
import { applyRules, type Segment, type SkillPurpose } from '../engine/prose-apply.js';
import { atOffset } from '../engine/prose-normalise.js';
import type { PhraseRule } from '../engine/prose-phrase.js';
import type { Hit } from '../rule.js';

// An encoded command (`echo <base64> | base64 -d | bash`) is judged by what it decodes to: the decoded
// command's own rules (SC2, PE3, E1 ...) are reported at the line that runs it, and a payload that fetches
// and runs code or reads credentials makes the encoded command itself near-certain.

const ENCODED_RULE = 'md.encoded-command';
// A decoded payload that fires one of these is plainly malicious, not an obfuscated build step.
const DANGEROUS_PAYLOAD = new Set(['SC2', 'PE2', 'PE3', 'E1', 'E2', 'E4', 'P3']);
const PAYLOAD_CONFIDENCE = 0.93;
const MIN_PAYLOAD_HIT = 0.5;

/** The user cannot have chosen a command they were only shown encoded: advice to them is read as an order. */
function payloadFraming(framing: Framing): Framing {
  return framing === 'user-action' ? 'instruction' : framing;
}

/** Decoded blobs on a segment's lines, each as a segment at the blob's offset in the file. */
function decodedSegments(seg: Segment, fileText: string, from: number, to: number): Segment[] {
  const out: Segment[] = [];
  for (const blob of findEncodedBlobs(fileText.slice(from, to), 20)) {
    if (!blob.printable) continue;
    const decoded = blob.decoded.replace(/\0/g, '').trim();
    if (decoded.length < 6) continue;
    out.push({
      norm: atOffset(decoded, from + blob.index),
      framing: payloadFraming(seg.framing),
      section: seg.section,
      decoded: true,
    });
  }
  return out;
}

/**
 * For each encoded-command hit in `hits`, the rules that fire on the decoded payload (at the hit's line),
 * and the encoded-command hit raised when that payload is dangerous. Returns the hits to add.
 */
export function decodedPayloadHits(
  hits: Hit[],
  seg: Segment,
  rules: readonly PhraseRule[],
  fileText: string,
  starts: readonly number[],
  purpose: SkillPurpose,
): Hit[] {
  const extra: Hit[] = [];
  for (const hit of hits) {
    if (hit.rule !== ENCODED_RULE) continue;
    const from = starts[hit.line - 1] ?? 0;
    const to = starts[hit.endLine] ?? fileText.length;
    for (const payload of decodedSegments(seg, fileText, from, to)) {
      const inner = applyRules(rules, payload, fileText, starts, purpose).filter(
        (h) => h.rule !== ENCODED_RULE && h.confidence >= MIN_PAYLOAD_HIT,
      );
      for (const h of inner) {
        extra.push({
          ...h,
          line: hit.line,
          endLine: hit.line,
          rationale: `${h.rationale}; decoded from an encoded command`,
        });
      }
      if (inner.some((h) => DANGEROUS_PAYLOAD.has(patternOf(rules, h.rule)))) {
        hit.confidence = Math.max(hit.confidence, PAYLOAD_CONFIDENCE);
        hit.rationale += '; the decoded payload fetches and runs code or reads secrets';
      }
    }
  }
  return extra;
}

function patternOf(rules: readonly PhraseRule[], id: string): string {
  return rules.find((r) => r.id === id)?.pattern ?? '';
}
