import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'smol-toml';
import { safeRelativePath } from '../schemes/safe-path.js';
import type { Scenario, UtilityScheme } from '../schemes/types.js';
import type { Skill } from '../types.js';
import { dockerfile, testScript } from './files.js';
import {
  CONDITIONS,
  type Condition,
  DEFAULT_BASE_IMAGE,
  DEFAULT_TASK_LIMITS,
  type TaskLimits,
  slug,
  taskFolder,
} from './layout.js';

// Compiles each utility scenario into two Harbor tasks that differ only in the skill's presence: the same
// instruction, inputs, Dockerfile, limits and tests; environment/skills/<name>/ exists only in the with-skill
// task (and task.toml's metadata says which condition it is).

export interface TaskExportOptions {
  limits?: Partial<TaskLimits>;
  baseImage?: string;
}

export interface ExportedTask {
  /** `<skill>-<scenario>`: the pair's name. */
  task: string;
  scenario: string;
  condition: Condition;
  /** Absolute path of the task folder. */
  dir: string;
}

async function writeText(path: string, text: string, mode?: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  if (mode !== undefined) await chmod(path, mode);
}

/** Copies the skill's files from disk (links are recorded by intake and never followed, so none are copied). */
async function copySkill(skill: Skill, dest: string): Promise<void> {
  for (const file of skill.files) {
    const target = join(dest, file.path);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(skill.root, file.path), target);
  }
}

function taskToml(
  skill: Skill,
  scenario: Scenario,
  task: string,
  condition: Condition,
  limits: TaskLimits,
): string {
  return stringify({
    version: '1.0',
    metadata: {
      author_name: 'SkillAudit',
      category: 'skill-utility',
      tags: ['skillaudit', condition],
      skillaudit_task: task,
      skillaudit_condition: condition,
      skillaudit_scenario: scenario.id,
      skillaudit_title: scenario.title,
      skillaudit_skill: skill.name || skill.folderName,
      skillaudit_skill_id: skill.id,
    },
    verifier: { timeout_sec: limits.verifierTimeoutSec },
    agent: { timeout_sec: limits.agentTimeoutSec },
    environment: {
      build_timeout_sec: limits.buildTimeoutSec,
      cpus: limits.cpus,
      memory_mb: limits.memoryMb,
      storage_mb: limits.storageMb,
    },
  });
}

/** Evaluator-only material; Harbor copies tests/ in after the agent finishes. */
function checklistJson(scenario: Scenario): string {
  const { instruction: _agentFacing, materials: _inputs, ...evaluator } = scenario;
  return `${JSON.stringify({ version: 1, ...evaluator }, null, 2)}\n`;
}

export async function compileScenario(
  outDir: string,
  skill: Skill,
  scenario: Scenario,
  options: TaskExportOptions = {},
): Promise<ExportedTask[]> {
  const limits = { ...DEFAULT_TASK_LIMITS, ...options.limits };
  const task = `${slug(skill.name || skill.folderName)}-${slug(scenario.id, 'scenario')}`;
  const exported: ExportedTask[] = [];
  for (const condition of CONDITIONS) {
    const dir = join(outDir, taskFolder(task, condition));
    await writeText(join(dir, 'task.toml'), taskToml(skill, scenario, task, condition, limits));
    await writeText(join(dir, 'instruction.md'), `${scenario.instruction.trim()}\n`);
    await writeText(
      join(dir, 'environment', 'Dockerfile'),
      dockerfile(options.baseImage ?? DEFAULT_BASE_IMAGE),
    );
    for (const m of scenario.materials) {
      // Checked again here: a scheme may have been read back from a file someone edited.
      const path = safeRelativePath(m.path);
      if (path === null)
        throw new Error(`scenario ${scenario.id}: unsafe material path ${JSON.stringify(m.path)}`);
      await writeText(join(dir, 'environment', 'workspace', path), m.content);
    }
    if (condition === 'with_skill') {
      await copySkill(skill, join(dir, 'environment', 'skills', slug(skill.name || skill.folderName)));
    }
    await writeText(join(dir, 'tests', 'test.sh'), testScript(scenario.ruleChecks, limits), 0o755);
    await writeText(join(dir, 'tests', 'checklist.json'), checklistJson(scenario));
    exported.push({ task, scenario: scenario.id, condition, dir });
  }
  return exported;
}

/** Every scenario of a scheme as task pairs under `outDir`, with an index.json listing them. */
export async function exportTasks(
  outDir: string,
  skill: Skill,
  scheme: UtilityScheme,
  options: TaskExportOptions = {},
): Promise<ExportedTask[]> {
  const all: ExportedTask[] = [];
  for (const scenario of scheme.scenarios)
    all.push(...(await compileScenario(outDir, skill, scenario, options)));
  const index = all.map(({ dir: _abs, ...t }) => ({ ...t, folder: taskFolder(t.task, t.condition) }));
  await writeText(join(outDir, 'index.json'), `${JSON.stringify({ version: 1, tasks: index }, null, 2)}\n`);
  return all;
}
