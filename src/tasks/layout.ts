// Harbor's task layout and SkillAudit's settings for it, as data. Harbor reads task.toml (schema_version "1.1":
// [metadata] is free-form, [verifier]/[agent] timeouts, [environment] build timeout and resources), gives the
// agent instruction.md inside the image built from environment/, and copies tests/ in only after the agent
// has finished, then runs tests/test.sh, which writes /logs/verifier/reward.txt.

export type Condition = 'with_skill' | 'no_skill';

export const CONDITIONS: readonly Condition[] = ['with_skill', 'no_skill'];

export interface TaskLimits {
  agentTimeoutSec: number;
  verifierTimeoutSec: number;
  buildTimeoutSec: number;
  cpus: number;
  memoryMb: number;
  storageMb: number;
  /** Seconds each command check may run in the verifier. */
  commandTimeoutSec: number;
}

export const DEFAULT_TASK_LIMITS: TaskLimits = {
  agentTimeoutSec: 900,
  verifierTimeoutSec: 180,
  buildTimeoutSec: 600,
  cpus: 1,
  memoryMb: 2048,
  storageMb: 10240,
  commandTimeoutSec: 60,
};

/** A small image with Python, which most skills' scripts need. */
export const DEFAULT_BASE_IMAGE = 'python:3.12-slim';

/** The agent's working directory inside the image. */
export const WORKDIR = '/app';

/**
 * Where the with-skill image holds the skill. task.toml's `[environment] skills_dir` names it, and Harbor
 * copies its contents into the skills folder of whichever agent it runs (Claude Code, Codex, OpenCode, …).
 */
export const SKILLS_DIR = '/skills';

/** Task folder names: `<task>__with_skill`, `<task>__no_skill`. */
export const taskFolder = (task: string, condition: Condition) => `${task}__${condition}`;

/** A folder-safe, lower-case slug (skill names are untrusted). */
export function slug(text: string, fallback = 'skill'): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  return s === '' ? fallback : s;
}
