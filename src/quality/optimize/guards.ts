import type { Finding, SafetyStatus, Skill } from '../../core/types.js';
import type { SkillScan } from '../../scan/index.js';
import { linkedBundledFiles } from '../conciseness.js';
import { outlineMarkdown } from '../outline.js';
import { charLength, skillMarkdown } from '../skill-text.js';
import { expectedName, type Rewrite } from './candidate.js';

// A rewrite may reorganise and reword a skill, never change what it does or where it reaches. Each guard
// compares the candidate with the original and returns the reasons to reject it (empty: accepted). The
// scanner runs on the candidate too, so anything a guard misses that the scanner knows is still caught.

export const DESCRIPTION_MAX = 1024;
/** A rewrite may grow a small skill to this size, a larger one to twice its size: room for sections, not a dump. */
const MIN_BODY_LIMIT = 20_000;

const URL = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>"'`)\]}]+/gi;
const INLINE_CODE = /(`+)([^`\n]+?)\1/g;
// An inline span reads as a command when it has arguments or shell syntax; a bare file name does not.
const COMMAND_LIKE = /\s|[|;&$<>]/;

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const trimUrl = (url: string) => url.replace(/[.,;:!?]+$/, '');

function urls(text: string): Set<string> {
  return new Set([...text.matchAll(URL)].map((m) => trimUrl(m[0])));
}

/** Command lines of a SKILL.md: every line of its fenced blocks and every command-like inline code span. */
function commands(text: string): string[] {
  const outline = outlineMarkdown(text);
  const lines = outline.codeBlocks.flatMap((b) => b.text.split('\n'));
  const spans = [...outline.prose.matchAll(INLINE_CODE)]
    .map((m) => m[2]!)
    .filter((s) => COMMAND_LIKE.test(s));
  return [...lines, ...spans].map(squash).filter((l) => l !== '');
}

function limited(items: string[], max = 3): string {
  const shown = items.slice(0, max).map((s) => `"${s.slice(0, 120)}"`);
  return `${shown.join(', ')}${items.length > max ? ` and ${items.length - max} more` : ''}`;
}

/** Checks on the model's answer itself, before a candidate is built from it. */
export function answerProblems(original: Skill, rewrite: Rewrite): string[] {
  const problems: string[] = [];
  const name = expectedName(original);
  if (rewrite.name.trim() !== name)
    problems.push(`the name must stay "${name}" (it must match the folder), not "${rewrite.name.trim()}"`);
  const length = charLength(rewrite.description.trim());
  if (length < 1 || length > DESCRIPTION_MAX)
    problems.push(`the description must be 1 to ${DESCRIPTION_MAX} characters (it has ${length})`);
  if (rewrite.body.trim() === '') problems.push('the body is empty');
  const limit = Math.max(MIN_BODY_LIMIT, 2 * skillMarkdown(original).length);
  if (rewrite.body.length > limit)
    problems.push(`the body is ${rewrite.body.length} characters; a rewrite may have at most ${limit}`);
  if (rewrite.body.trimStart().split('\n', 1)[0]?.trim() === '---')
    problems.push(
      'the body starts with a `---` line: frontmatter belongs in the name and description fields',
    );
  return problems;
}

/** What the candidate adds that the original does not have: URLs, commands, code; and references it drops. */
export function contentProblems(original: Skill, candidate: Skill): string[] {
  const before = skillMarkdown(original);
  const after = skillMarkdown(candidate);
  const problems: string[] = [];
  const known = urls(before);
  const newUrls = [...urls(after)].filter((u) => !known.has(u));
  if (newUrls.length > 0) problems.push(`adds URLs absent from the original: ${limited(newUrls)}`);
  // A command may move (prose to a fenced block, one block split in two) but must appear in the original.
  const flat = squash(before);
  const newCommands = [...new Set(commands(after))].filter((c) => !flat.includes(c));
  if (newCommands.length > 0)
    problems.push(`adds commands or code absent from the original: ${limited(newCommands)}`);
  const outline = (s: Skill) => outlineMarkdown(s.body);
  const kept = new Set(linkedBundledFiles(candidate, outline(candidate)));
  const dropped = linkedBundledFiles(original, outline(original)).filter((p) => !kept.has(p));
  if (dropped.length > 0)
    problems.push(`no longer mentions bundled files the agent needs: ${limited(dropped)}`);
  const spec = (s: Skill) => new Set(s.diagnostics.filter((d) => d.level === 'error').map((d) => d.code));
  const broken = [...spec(candidate)].filter((c) => !spec(original).has(c));
  if (broken.length > 0) problems.push(`SKILL.md does not parse: ${broken.join(', ')}`);
  return problems;
}

const STATUS_ORDER: Record<SafetyStatus, number> = { pass: 0, caution: 1, risky: 2 };

// Lines move in a rewrite, and the same risk can be reported by another rule of its pattern when its framing
// changes (a command rule in one section, a phrase rule quoting the whole sentence in another). So a candidate's
// finding is an old one when the original has an unused finding of the same pattern and file whose quoted text
// contains it or is contained in it.
function sameRisk(a: Finding, b: Finding): boolean {
  if (a.pattern !== b.pattern || a.file !== b.file) return false;
  const [x, y] = [squash(a.evidence), squash(b.evidence)];
  return x.includes(y) || y.includes(x);
}

/** New scanner findings (same pattern, file and overlapping quoted text, counted) or a worse safety status. */
export function scanProblems(original: SkillScan, candidate: SkillScan): string[] {
  const problems: string[] = [];
  const unused = [...original.findings];
  const added: Finding[] = [];
  for (const f of candidate.findings) {
    const at = unused.findIndex((o) => sameRisk(o, f));
    if (at >= 0) unused.splice(at, 1);
    else added.push(f);
  }
  if (added.length > 0) {
    const shown = added.map((f) => `${f.pattern} at ${f.file}:${f.line}: ${squash(f.evidence)}`);
    problems.push(`the scanner finds new risks: ${limited(shown)}`);
  }
  if (STATUS_ORDER[candidate.status] > STATUS_ORDER[original.status])
    problems.push(`the safety status would fall from ${original.status} to ${candidate.status}`);
  return problems;
}
