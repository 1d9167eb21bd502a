import type { Diagnostic, DiagnosticLevel } from '../core/types.js';

// The Agent Skills format rules (agentskills.io specification), as data: each rule looks at the parsed
// SKILL.md and returns the message of a problem, or null. These are advice for authors, never errors.

export interface SpecInput {
  frontmatter: Record<string, unknown>;
  frontmatterLines: Record<string, number>;
  /** Whether a frontmatter block was parsed (missing or broken frontmatter is reported elsewhere). */
  hasFrontmatter: boolean;
  body: string;
  folderName: string;
  lineCount: number;
}

interface SpecRule {
  code: string;
  level: DiagnosticLevel;
  /** Frontmatter key whose line the diagnostic points at. */
  key?: string;
  check(input: SpecInput): string | null;
}

export const KNOWN_KEYS = ['name', 'description', 'license', 'allowed-tools', 'metadata', 'compatibility'];
/** Keys common in the wild but outside the spec: worth a note, not a warning. */
const COMMON_KEYS = ['version'];

const NAME_MAX = 64;
const NAME_FORMAT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DESCRIPTION_MAX = 1024;
const COMPATIBILITY_MAX = 500;
const SKILL_MD_ADVISED_LINES = 500;

const nameOf = (input: SpecInput) => input.frontmatter.name;
const descriptionOf = (input: SpecInput) => input.frontmatter.description;

export const SPEC_RULES: SpecRule[] = [
  {
    code: 'name-missing',
    level: 'warning',
    check: (input) =>
      input.hasFrontmatter && (nameOf(input) === undefined || nameOf(input) === null || nameOf(input) === '')
        ? 'frontmatter has no `name`'
        : null,
  },
  {
    code: 'name-format',
    level: 'warning',
    key: 'name',
    check: (input) => {
      const name = nameOf(input);
      if (name === undefined || name === null || name === '') return null;
      if (typeof name !== 'string') return '`name` must be a string';
      if (name.length > NAME_MAX) return `\`name\` is ${name.length} characters; the limit is ${NAME_MAX}`;
      return NAME_FORMAT.test(name)
        ? null
        : '`name` must use lowercase letters, digits and single hyphens, not starting or ending with a hyphen';
    },
  },
  {
    code: 'name-folder-mismatch',
    level: 'warning',
    key: 'name',
    check: (input) => {
      const name = nameOf(input);
      return typeof name === 'string' && name !== '' && name !== input.folderName
        ? `\`name\` "${name}" does not match its folder "${input.folderName}"`
        : null;
    },
  },
  {
    code: 'description-missing',
    level: 'warning',
    check: (input) => {
      const description = descriptionOf(input);
      if (!input.hasFrontmatter) return null;
      if (description === undefined || description === null) return 'frontmatter has no `description`';
      if (typeof description !== 'string') return '`description` must be a string';
      return description.trim() === '' ? '`description` is empty' : null;
    },
  },
  {
    code: 'description-length',
    level: 'warning',
    key: 'description',
    check: (input) => {
      const description = descriptionOf(input);
      return typeof description === 'string' && description.length > DESCRIPTION_MAX
        ? `\`description\` is ${description.length} characters; the limit is ${DESCRIPTION_MAX}`
        : null;
    },
  },
  {
    code: 'compatibility-length',
    level: 'warning',
    key: 'compatibility',
    check: (input) => {
      const value = input.frontmatter.compatibility;
      if (value === undefined) return null;
      if (typeof value !== 'string') return '`compatibility` must be a string';
      return value.length > COMPATIBILITY_MAX
        ? `\`compatibility\` is ${value.length} characters; the limit is ${COMPATIBILITY_MAX}`
        : null;
    },
  },
  {
    code: 'metadata-format',
    level: 'warning',
    key: 'metadata',
    check: (input) => {
      const value = input.frontmatter.metadata;
      if (value === undefined) return null;
      const isMap = typeof value === 'object' && value !== null && !Array.isArray(value);
      return isMap ? null : '`metadata` must be a map of string keys to string values';
    },
  },
  {
    code: 'body-empty',
    level: 'warning',
    check: (input) =>
      input.body.trim() === '' ? 'SKILL.md has no instructions after the frontmatter' : null,
  },
  {
    code: 'skill-md-long',
    level: 'info',
    check: (input) =>
      input.lineCount > SKILL_MD_ADVISED_LINES
        ? `SKILL.md has ${input.lineCount} lines; the spec advises under ${SKILL_MD_ADVISED_LINES} (move detail to references/)`
        : null,
  },
];

/** Diagnostics for frontmatter keys outside the spec (one per key, at its line). */
function keyDiagnostics(input: SpecInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const key of Object.keys(input.frontmatter)) {
    if (KNOWN_KEYS.includes(key)) continue;
    const common = COMMON_KEYS.includes(key);
    out.push({
      code: 'unknown-key',
      level: common ? 'info' : 'warning',
      message: common
        ? `\`${key}\` is common but not in the Agent Skills spec (put it under \`metadata\`)`
        : `unknown frontmatter key \`${key}\` (the spec allows ${KNOWN_KEYS.join(', ')})`,
      file: 'SKILL.md',
      line: input.frontmatterLines[key] ?? 1,
    });
  }
  return out;
}

export function specDiagnostics(input: SpecInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of SPEC_RULES) {
    const message = rule.check(input);
    if (message === null) continue;
    const line = (rule.key ? input.frontmatterLines[rule.key] : undefined) ?? 1;
    out.push({ code: rule.code, level: rule.level, message, file: 'SKILL.md', line });
  }
  return [...out, ...keyDiagnostics(input)];
}
