// What goes into an agent's sandbox (the task's files, the skill where the harness looks for it) and what
// comes out of it (the files the run created or changed).
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Skill } from '../core/types.js';
import type { EvidenceBundle, SeedFile } from '../sandbox/index.js';

/** Output files are for the judge: enough to read, bounded so a run that writes gigabytes costs nothing. */
const MAX_OUTPUT_FILES = 50;
const MAX_OUTPUT_BYTES = 256 * 1024;

/**
 * The skill's files as seed files under `dir` (relative to the workspace). Read from the skill folder
 * byte for byte (the intake's text may be truncated); links are never followed, so they are not copied.
 */
export function skillSeedFiles(skill: Skill, dir: string): SeedFile[] {
  const seeds: SeedFile[] = [];
  for (const file of skill.files) {
    let content: Buffer;
    try {
      content = readFileSync(join(skill.root, file.path));
    } catch {
      continue;
    }
    seeds.push({ path: posix.join(dir, file.path), content, mode: file.kind === 'script' ? 0o755 : 0o644 });
  }
  return seeds;
}

/** Where a harness looks for a skill, e.g. `.claude/skills/<name>`; the name is made safe as a folder name. */
export function skillFolder(base: string, skill: Skill): string {
  const name = skill.name.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^\.+/, '') || 'skill';
  return posix.join(base, name);
}

/** Workspace files the run created or modified, read from the host side of the workspace. */
export function collectOutputFiles(
  evidence: EvidenceBundle,
  workspace: string,
  excludeDirs: string[],
): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  for (const change of evidence.fsChanges) {
    if (files.length >= MAX_OUTPUT_FILES) break;
    if (change.root !== 'workspace' || change.after?.type !== 'file') continue;
    if (change.change !== 'created' && change.change !== 'modified') continue;
    if (excludeDirs.some((dir) => change.path === dir || change.path.startsWith(`${dir}/`))) continue;
    try {
      const bytes = readFileSync(join(workspace, change.path));
      files.push({ path: change.path, content: bytes.subarray(0, MAX_OUTPUT_BYTES).toString('utf8') });
    } catch {
      // Removed or replaced by a link after the snapshot: the evidence still records the change.
    }
  }
  return files;
}
