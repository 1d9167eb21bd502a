import { posix } from 'node:path';
import { matchSensitivePath } from '../sandbox/sensitive-paths.js';
import type { SandboxInnerPaths } from '../sandbox/types.js';
import type { EntryPoint } from './entry-points.js';
import { inProjectRoot } from './project.js';
import { missingFile } from './signals.js';

// Second runs for code that stopped on a file it could not open. Agents run commands from the project's root,
// where the files a script names relatively live (`.env`, `SOUL.md`): such a script runs again from there. Any
// other file it asked for inside the workspace or the home (`config.json`, `~/.config/tool/settings.yaml`) the
// user would have: the script runs again with a small sample of that type at that path (samples.ts).

const CODE = /\.(py|sh|bash|zsh|js|mjs|cjs|ts|mts|rb|pl|ps1|exe|so|node)$/i;

/** Where `file`, as a run in `cwd` named it, is seeded (SeedFile.path), or null when outside workspace and home. */
export function seedPathOf(file: string, cwd: string, inner: SandboxInnerPaths): string | null {
  const absolute = file.startsWith('~/')
    ? `${inner.home}/${file.slice(2)}`
    : posix.isAbsolute(file)
      ? file
      : `${cwd}/${file}`;
  const path = posix.normalize(absolute);
  if (path.startsWith(`${inner.workspace}/`)) return path.slice(inner.workspace.length + 1);
  if (path.startsWith(`${inner.home}/`)) return `~/${path.slice(inner.home.length + 1)}`;
  return null;
}

/** The run again that a stop on a missing file calls for, or null. */
export function retryForMissingFile(
  run: { entry: EntryPoint; stopped: string | null; evidence: { stderr: string } },
  inner: SandboxInnerPaths,
): EntryPoint | null {
  const { entry } = run;
  if (!run.stopped || entry.given || !['script', 'instruction'].includes(entry.runAs)) return null;
  const file = missingFile(run.evidence.stderr);
  if (!file) return null;
  const relative = !file.startsWith('/') && !file.startsWith('~');
  if (relative && inProjectRoot(file)) {
    if (entry.cwd === inner.workspace) return null;
    return {
      ...entry,
      id: `${entry.id} (from the project root)`,
      cwd: inner.workspace,
      why: `${entry.why}; run again from the project's root, where agents run commands, after it stopped on a missing ${file}`,
    };
  }
  const seed = seedPathOf(file, entry.cwd, inner);
  // Code is not an input: a script or tool the run could not find stays missing. Nor is a credential store: a
  // sample there would stand where a canary belongs (a run that names ~/.ssh/id_rsa missing gets none).
  const innerPath = seed?.startsWith('~/') ? `${inner.home}/${seed.slice(2)}` : `${inner.workspace}/${seed}`;
  const credentialStore = matchSensitivePath(innerPath) && !innerPath.includes('/.claude/skills/');
  if (!seed || CODE.test(file) || credentialStore) return null;
  // A folder it listed gets one file in it.
  const folder = run.evidence.stderr.includes(`scandir '${file}'`);
  return {
    ...entry,
    id: `${entry.id} (given ${file})`,
    given: folder ? `${seed}/sample.txt` : seed,
    why: `${entry.why}; run again with a sample ${posix.basename(file)} where it looked, after it stopped on it missing`,
  };
}
