import { type Command, Option } from 'commander';
import pc from 'picocolors';
import type { Skill, SkillFile } from '../core/types.js';
import type { SkillResult } from '../intake/index.js';
import { addLimitOptions, type LimitFlags, limitsFromOptions } from './limit-options.js';

// `skillaudit inspect <source>`: what intake sees, as text or JSON. Exit 0 when every skill loaded,
// 2 when any failed (after printing all of them).

interface InspectFlags extends LimitFlags {
  format: 'text' | 'json';
}

const KIND_ORDER: SkillFile['kind'][] = ['doc', 'script', 'data', 'binary'];
const MAX_VALUE_CHARS = 300;

const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being escaped
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028-\u2029\u2060-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

/**
 * Skill text is hostile: escape control, bidi and invisible characters so that a name or path cannot
 * move the cursor, recolour the terminal or reorder what the reader sees.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
}

function oneLine(text: string, max = MAX_VALUE_CHARS): string {
  const flat = printable(text.replace(/\r?\n/g, ' ⏎ ').replace(/\t/g, ' '));
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

function renderSkill(skill: Skill): string {
  const lines: string[] = [];
  const { provenance: p } = skill;
  lines.push(`${pc.bold(oneLine(skill.name))}  ${pc.dim(`(${oneLine(p.subdir)})`)}`);
  if (skill.description) lines.push(`  ${oneLine(skill.description, 1100)}`);
  lines.push(`  id          ${skill.id}`);
  const origin = [p.source, oneLine(p.uri)];
  if (p.ref) origin.push(`ref ${oneLine(p.ref)}`);
  if (p.commit) origin.push(`commit ${p.commit}`);
  lines.push(`  source      ${origin.join('  ')}`);
  const keys = Object.keys(skill.frontmatter);
  lines.push(`  frontmatter${keys.length === 0 ? ' (none)' : ''}`);
  for (const key of keys) {
    const value = skill.frontmatter[key];
    const shown = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
    lines.push(
      `    ${oneLine(key, 60)}: ${oneLine(shown)}  ${pc.dim(`line ${skill.frontmatterLines[key] ?? '?'}`)}`,
    );
  }
  lines.push(`  files (${skill.files.length})`);
  for (const kind of KIND_ORDER) {
    const files = skill.files.filter((f) => f.kind === kind);
    if (files.length === 0) continue;
    lines.push(`    ${kind} (${files.length})`);
    for (const file of files) {
      const notes = [file.language ?? '-', formatSize(file.size)];
      if (file.truncated) notes.push('truncated');
      if (file.sha256 === null) notes.push('not hashed');
      lines.push(`      ${oneLine(file.path, 200)}  ${pc.dim(notes.join('  '))}`);
    }
  }
  if (skill.links.length > 0) {
    lines.push(`  links (${skill.links.length}, never followed)`);
    for (const link of skill.links) {
      const where = link.inside ? 'inside' : pc.yellow('outside the skill');
      lines.push(`    ${oneLine(link.path, 200)} -> ${oneLine(link.target, 200)}  ${where}`);
    }
  }
  lines.push(`  diagnostics (${skill.diagnostics.length})`);
  for (const d of skill.diagnostics) {
    const level =
      d.level === 'error' ? pc.red(d.level) : d.level === 'warning' ? pc.yellow(d.level) : pc.dim(d.level);
    const at = d.file ? `${oneLine(d.file, 200)}${d.line ? `:${d.line}` : ''}  ` : '';
    lines.push(`    ${level}  ${d.code}  ${at}${oneLine(d.message, 400)}`);
  }
  return lines.join('\n');
}

function renderText(results: SkillResult[]): string {
  return results
    .map((r) =>
      r.ok
        ? renderSkill(r.skill)
        : `${pc.bold(oneLine(r.path))}  ${pc.red(`error ${r.error.code}`)}\n  ${oneLine(r.error.message, 600)}`,
    )
    .join('\n\n');
}

/** The JSON shape of `inspect --format json`: the skill without file text and root folder. */
export function inspectJson(results: SkillResult[]): unknown {
  return {
    version: 1,
    skills: results.map((r) => {
      if (!r.ok) return { path: r.path, error: r.error };
      const { root: _root, files, ...rest } = r.skill;
      return {
        path: r.skill.provenance.subdir,
        ...rest,
        files: files.map(({ text: _text, ...file }) => file),
      };
    }),
  };
}

export function registerInspect(program: Command): void {
  const command = program
    .command('inspect <source>')
    .description('Load a skill (folder, SKILL.md, archive or git repository) and print what SkillAudit sees')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'));
  addLimitOptions(command).action(async (source: string, flags: InspectFlags) => {
    // Loaded on use, so that `--help` and other commands start fast.
    const { withSource } = await import('../intake/index.js');
    await withSource(source, { limits: limitsFromOptions(flags) }, async (handle) => {
      const out =
        flags.format === 'json'
          ? JSON.stringify(inspectJson(handle.skills), null, 2)
          : renderText(handle.skills);
      process.stdout.write(`${out}\n`);
      const failed = handle.skills.filter((r) => !r.ok).length;
      if (failed > 0) {
        process.stderr.write(`skillaudit: ${failed} of ${handle.skills.length} skills could not be loaded\n`);
      }
      process.exitCode = failed > 0 ? 2 : 0;
    });
  });
}
