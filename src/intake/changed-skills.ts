import { spawn } from 'node:child_process';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserError } from '../util/errors.js';
import { SKIPPED } from './discover.js';
import { SAFE_GIT_CONFIG } from './git.js';
import { parseSource } from './source-spec.js';

// Which skills a change touches: CI passes the files of a pull request, pre-commit the staged files, and only
// the skills holding them are scanned. A file belongs to the skill whose root is its outermost ancestor folder
// holding a SKILL.md, which is the folder `discoverSkills` reports for it: a changed-only scan then lists the
// same entries a full scan of the repository lists for those skills. Nothing here follows a symbolic link.

export interface ChangedSkills {
  /** Skill roots relative to the repository ('.' for the repository itself), forward slashes, sorted. */
  roots: string[];
  /** Changed paths inside the repository that belong to no skill (deleted skills, other files). */
  unmatched: string[];
  /** Paths that were ignored, each with the reason (outside the repository, `..`, a symbolic link). */
  warnings: string[];
}

type Lookup = 'folder' | 'skill' | 'link' | 'missing';

/**
 * The skill roots of `paths` (relative to `repoDir`, or absolute) inside `repoDir`. A path outside the
 * repository, with a `..` segment, or reached through a symbolic link is ignored with a warning; a path whose
 * skill no longer exists (a deleted skill) is unmatched.
 */
export function skillRootsOf(repoDir: string, paths: readonly string[]): ChangedSkills {
  const repo = resolve(repoDir);
  const roots = new Set<string>();
  const unmatched: string[] = [];
  const warnings: string[] = [];
  // Many changed files share their folders: each folder is looked at once.
  const seen = new Map<string, Lookup>();
  const look = (rel: string): Lookup => {
    let kind = seen.get(rel);
    if (kind === undefined) {
      // The repository folder is the user's choice and may be a link; nothing below it is followed.
      kind = lookAt(join(repo, rel), rel === '');
      seen.set(rel, kind);
    }
    return kind;
  };
  for (const raw of paths) {
    if (raw === '' || raw.includes('\0')) continue;
    if (raw.split(/[/\\]/).includes('..')) {
      warnings.push(`${raw}: ignored (a path with "..")`);
      continue;
    }
    const rel = relative(repo, resolve(repo, raw));
    if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
      warnings.push(`${raw}: ignored (outside ${repoDir})`);
      continue;
    }
    const segments = rel === '' ? [] : rel.split(sep);
    const root = rootOf(segments, look);
    if (root === 'link') warnings.push(`${raw}: ignored (reached through a symbolic link)`);
    else if (root === null) unmatched.push(raw);
    else roots.add(root);
  }
  return { roots: [...roots].sort(), unmatched, warnings };
}

/** The outermost folder on the path holding a SKILL.md, walking down from the repository root. */
function rootOf(segments: readonly string[], look: (rel: string) => Lookup): string | 'link' | null {
  // The repository and every folder above the changed file; the path itself too when it names a folder.
  for (let depth = 0; depth <= segments.length; depth++) {
    const rel = segments.slice(0, depth).join('/');
    if (depth > 0 && SKIPPED.has(segments[depth - 1]!)) return null;
    const kind = look(rel);
    if (kind === 'skill') return rel === '' ? '.' : rel;
    if (kind === 'link') return depth === segments.length ? null : 'link';
    if (kind === 'missing') return null;
  }
  return null;
}

function lookAt(abs: string, follow = false): Lookup {
  try {
    const info = follow ? statSync(abs) : lstatSync(abs);
    if (info.isSymbolicLink()) return 'link';
    if (!info.isDirectory()) return 'missing';
  } catch {
    return 'missing';
  }
  // Like discovery: a SKILL.md entry that is not a folder makes a skill root (a link there is a finding).
  try {
    return lstatSync(join(abs, 'SKILL.md')).isDirectory() ? 'folder' : 'skill';
  } catch {
    return 'folder';
  }
}

export interface ChangedPaths {
  /** Changed files relative to `repoDir`, deleted ones included. */
  paths: string[];
  /** What the caller should tell the user (e.g. the comparison fell back to a two-dot diff). */
  warnings: string[];
}

const GIT_TIMEOUT_MS = 60_000;
/** Far beyond any pull request's file list; a bound on what a hostile repository can make us hold. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const NO_MERGE_BASE = /no merge base/i;

/**
 * Files changed in `repoDir` between `ref` and HEAD: `git diff <ref>...HEAD` (what a pull request changes),
 * limited to `repoDir` and relative to it; with `uncommitted`, also staged, unstaged and untracked files.
 */
export async function changedPathsSince(
  repoDir: string,
  ref: string,
  options: { uncommitted?: boolean } = {},
): Promise<ChangedPaths> {
  if (ref.trim() === '' || ref.startsWith('-') || /[\s\0]/.test(ref)) {
    throw new UserError('USAGE', `--changed-since ${JSON.stringify(ref)}: not a git revision`);
  }
  // Checked first: spawning in a missing folder fails like a missing git would.
  if (!statSync(repoDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UserError('NOT_FOUND', `${repoDir}: no such folder`, repoDir);
  }
  // Outside a repository `git diff` silently turns into `diff --no-index` and prints its usage.
  const inside = await git(repoDir, ['rev-parse', '--is-inside-work-tree']);
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') {
    throw new UserError('GIT_FAILED', `${repoDir}: not inside a git repository (a work tree)`);
  }
  const warnings: string[] = [];
  const diff = ['diff', '--name-only', '-z', '--relative', '--no-ext-diff', '--no-textconv'];
  let run = await git(repoDir, [...diff, `${ref}...HEAD`, '--']);
  if (run.code !== 0 && NO_MERGE_BASE.test(run.stderr)) {
    // A shallow checkout has no merge base. Comparing the two trees needs none, and on the merge commit a
    // pull_request workflow checks out it is exactly the pull request's change.
    warnings.push(`${ref} and HEAD have no merge base here (a shallow clone?): comparing ${ref} with HEAD`);
    run = await git(repoDir, [...diff, ref, 'HEAD', '--']);
  }
  if (run.code !== 0) throw gitFailure(repoDir, `diff ${ref}...HEAD`, run);
  const paths = splitNul(run.stdout);
  if (options.uncommitted) {
    const tracked = await git(repoDir, [...diff, 'HEAD', '--']);
    if (tracked.code !== 0) throw gitFailure(repoDir, 'diff HEAD', tracked);
    const untracked = await git(repoDir, ['ls-files', '-z', '--others', '--exclude-standard', '--', '.']);
    if (untracked.code !== 0) throw gitFailure(repoDir, 'ls-files', untracked);
    paths.push(...splitNul(tracked.stdout), ...splitNul(untracked.stdout));
  }
  return { paths: [...new Set(paths)], warnings };
}

function splitNul(text: string): string[] {
  return text.split('\0').filter((p) => p !== '');
}

interface GitRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function git(cwd: string, args: string[]): Promise<GitRun> {
  return new Promise((done, fail) => {
    const child = spawn('git', [...SAFE_GIT_CONFIG, ...args], {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: string | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) {
        failure = `printed more than ${MAX_OUTPUT_BYTES} bytes`;
        child.kill('SIGKILL');
      } else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8192);
    });
    const timer = setTimeout(() => {
      failure = `took longer than ${GIT_TIMEOUT_MS / 1000} s`;
      child.kill('SIGKILL');
    }, GIT_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(new UserError('GIT_FAILED', `git could not be started (${error.message}); is git installed?`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done(
        failure
          ? { code: null, stdout: '', stderr: `git ${failure}` }
          : { code, stdout: Buffer.concat(out).toString('utf8'), stderr },
      );
    });
  });
}

function gitFailure(repoDir: string, what: string, run: GitRun): UserError {
  const said =
    run.stderr
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1) ?? 'no message';
  return new UserError('GIT_FAILED', `${repoDir}: git ${what} failed (${said})`);
}

/**
 * A skill root as a scan source intake reads as that very folder: a folder named like a git URL
 * (`git@host:x`) or an option (`-x`) is prefixed with `./`, so a changed file can never make us clone or parse.
 */
export function rootSource(repoDir: string, root: string): string {
  const path = root === '.' ? repoDir : join(repoDir, root);
  try {
    const spec = parseSource(path, (p) => existsSync(p));
    if (spec.kind === 'path' && spec.path === path && spec.subdir === null) return path;
  } catch {
    // Not readable as a plain path: fall through to the explicit form.
  }
  return isAbsolute(path) ? path : `./${path}`;
}
