import { parseMarkdown } from '../../core/markdown.js';
import type { Rule } from '../../core/rule.js';
import { builtinRule } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { linesOf, quote } from '../text.js';

// PE1 in the frontmatter: `allowed-tools` that grant more than the skill's body needs (every tool, shell
// with any command, shell together with network tools).

export const ALLOWED_TOOLS_RULE: Rule = builtinRule('fm.allowed-tools-broad');

// Tool grants, as data: how each kind of grant reads and how broad it is on its own.
const ALL_TOOLS = /^(?:\*|all|any)$/i;
const UNRESTRICTED_SHELL =
  /^(?:bash|shell|powershell|terminal|exec|run_command)(?:\(\s*(?:\*|\*:\*|:\*|\*\*)?\s*\))?$/i;
const NETWORK_TOOL =
  /^(?:webfetch|websearch|fetch|browser|bash\((?:curl|wget|nc|ssh|scp)\b.*\)|mcp__.*(?:fetch|http|browser|request).*)$/i;

/** Splits `Bash(git add:*), Read Write` or a YAML list into tool grants, keeping parentheses whole. */
export function toolGrants(value: unknown): string[] {
  const items = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
  const grants: string[] = [];
  for (const item of items) {
    let depth = 0;
    let current = '';
    for (const ch of item) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
        if (current.trim()) grants.push(current.trim());
        current = '';
      } else current += ch;
    }
    if (current.trim()) grants.push(current.trim());
  }
  return grants;
}

/** The frontmatter key's line and any continuation lines (a YAML list under it). */
function keyLines(text: string, line: number): [number, number] {
  const lines = text.split('\n');
  let end = line;
  while (end < lines.length && /^\s+(?:-\s|\S)/.test(lines[end] ?? '') && !/^---\s*$/.test(lines[end] ?? ''))
    end++;
  return [line, end];
}

function bodyUsesShell(ctx: FileContext): boolean {
  if (ctx.skill.files.some((f) => f.kind === 'script')) return true;
  return parseMarkdown(ctx.text).codeBlocks.some((b) => b.lang === 'bash' || b.lang === 'powershell');
}

function detectAllowedTools(ctx: FileContext): Hit[] {
  const fm = ctx.skill.frontmatter;
  const key = ['allowed-tools', 'allowed_tools', 'allowedTools'].find((k) => k in fm);
  if (!key) return [];
  const grants = toolGrants(fm[key]);
  const line = ctx.skill.frontmatterLines[key];
  if (line === undefined || grants.length === 0) return [];
  const shell = grants.filter((g) => UNRESTRICTED_SHELL.test(g));
  const network = grants.filter((g) => NETWORK_TOOL.test(g));
  const wildcardShell = shell.filter((g) => g.includes('*'));
  let confidence = 0;
  let why = '';
  if (grants.some((g) => ALL_TOOLS.test(g))) {
    confidence = 0.75;
    why = 'grants every tool';
  } else if (shell.length > 0 && network.length > 0) {
    confidence = 0.6;
    why = `unrestricted shell (${shell.join(', ')}) together with network tools (${network.join(', ')})`;
  } else if (wildcardShell.length > 0) {
    confidence = 0.55;
    why = `shell with any command (${wildcardShell.join(', ')})`;
  } else if (shell.length > 0 && !bodyUsesShell(ctx)) {
    confidence = 0.4;
    why = `unrestricted shell (${shell.join(', ')}) though the skill has no scripts or shell blocks`;
  }
  if (confidence === 0) return [];
  const [from, to] = keyLines(ctx.text, line);
  return [
    {
      rule: ALLOWED_TOOLS_RULE.id,
      line: from,
      endLine: to,
      evidence: quote(linesOf(ctx.text, from, to)),
      confidence,
      rationale: why,
    },
  ];
}

export const frontmatterPermissionsDetector: Detector = {
  name: 'frontmatter-permissions',
  rules: [ALLOWED_TOOLS_RULE],
  appliesTo: (file) => file.path === 'SKILL.md' && file.kind === 'doc',
  detect: detectAllowedTools,
};
