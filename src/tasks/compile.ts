import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'smol-toml';
import type { Skill } from '../core/types.js';
import type { Material, ProbeSpec, RuleCheck, Scenario, UtilityScheme } from '../schemes/index.js';
import { safeRelativePath } from '../schemes/index.js';
import { dockerfile, testScript } from './files.js';
import {
  CONDITIONS,
  type Condition,
  DEFAULT_BASE_IMAGE,
  DEFAULT_TASK_LIMITS,
  SKILLS_DIR,
  slug,
  type TaskLimits,
  taskFolder,
} from './layout.js';

// Compiles each utility scenario into two Harbor tasks that differ only in the skill's presence: the same
// instruction, inputs, Dockerfile, limits and tests; environment/skills/<name>/ and task.toml's
// `skills_dir` exist only in the with-skill task (and task.toml's metadata says which condition it is).

export interface TaskExportOptions {
  limits?: Partial<TaskLimits>;
  baseImage?: string;
}

export interface ExportedTask {
  /** `<skill>-<sN>` (a pair's name) or `<skill>-<pN>` (a probe). */
  task: string;
  /** The scenario or probe id. */
  scenario: string;
  condition: Condition;
  /** The task folder (under the given output folder). */
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

interface TaskMetadata {
  category: 'skill-utility' | 'skill-security-probe';
  task: string;
  condition: Condition;
  /** skillaudit_* fields naming what the task comes from (scenario or finding). */
  fields: Record<string, string | number>;
}

function taskToml(skill: Skill, meta: TaskMetadata, limits: TaskLimits): string {
  const fields = Object.fromEntries(Object.entries(meta.fields).map(([k, v]) => [`skillaudit_${k}`, v]));
  return stringify({
    schema_version: '1.1',
    metadata: {
      author_name: 'SkillAudit',
      category: meta.category,
      tags: ['skillaudit', meta.condition],
      skillaudit_task: meta.task,
      skillaudit_condition: meta.condition,
      ...fields,
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
      ...(meta.condition === 'with_skill' ? { skills_dir: SKILLS_DIR } : {}),
    },
  });
}

interface TaskContent {
  meta: TaskMetadata;
  instruction: string;
  materials: readonly Material[];
  /** Evaluator-only files under tests/ besides test.sh. */
  evaluator: Record<string, unknown>;
  ruleChecks: readonly RuleCheck[];
}

async function writeTask(
  outDir: string,
  skill: Skill,
  content: TaskContent,
  options: TaskExportOptions,
): Promise<ExportedTask> {
  const limits = { ...DEFAULT_TASK_LIMITS, ...options.limits };
  const { task, condition } = content.meta;
  const dir = join(outDir, taskFolder(task, condition));
  await writeText(join(dir, 'task.toml'), taskToml(skill, content.meta, limits));
  await writeText(join(dir, 'instruction.md'), `${content.instruction.trim()}\n`);
  await writeText(
    join(dir, 'environment', 'Dockerfile'),
    dockerfile(options.baseImage ?? DEFAULT_BASE_IMAGE),
  );
  for (const m of content.materials) {
    // Checked again here: a scheme may have been read back from a file someone edited.
    const path = safeRelativePath(m.path);
    if (path === null) throw new Error(`${task}: unsafe material path ${JSON.stringify(m.path)}`);
    await writeText(join(dir, 'environment', 'workspace', path), m.content);
  }
  if (condition === 'with_skill') {
    await copySkill(skill, join(dir, 'environment', 'skills', slug(skill.name || skill.folderName)));
  }
  await writeText(join(dir, 'tests', 'test.sh'), testScript(content.ruleChecks, limits), 0o755);
  for (const [name, value] of Object.entries(content.evaluator)) {
    await writeText(
      join(dir, 'tests', name),
      `${JSON.stringify({ version: 1, ...(value as object) }, null, 2)}\n`,
    );
  }
  return {
    task,
    scenario: String(content.meta.fields.scenario ?? content.meta.fields.probe),
    condition,
    dir,
  };
}

export async function compileScenario(
  outDir: string,
  skill: Skill,
  scenario: Scenario,
  options: TaskExportOptions = {},
): Promise<ExportedTask[]> {
  const task = `${slug(skill.name || skill.folderName)}-${slug(scenario.id, 'scenario')}`;
  // Evaluator-only material; Harbor copies tests/ in after the agent finishes.
  const { instruction, materials, ...evaluator } = scenario;
  const exported: ExportedTask[] = [];
  for (const condition of CONDITIONS) {
    const meta: TaskMetadata = {
      category: 'skill-utility',
      task,
      condition,
      fields: { scenario: scenario.id, title: scenario.title },
    };
    const content = {
      meta,
      instruction,
      materials,
      evaluator: { 'checklist.json': evaluator },
      ruleChecks: scenario.ruleChecks,
    };
    exported.push(await writeTask(outDir, skill, content, options));
  }
  return exported;
}

/**
 * A security probe as one with-skill task: there is nothing to compare against, and the verdict comes from
 * the probe judge over the trial's evidence, so test.sh has no checks and tests/probe.json says what to look for.
 */
export async function compileProbe(
  outDir: string,
  skill: Skill,
  probe: ProbeSpec,
  options: TaskExportOptions = {},
): Promise<ExportedTask> {
  const task = `${slug(skill.name || skill.folderName)}-${slug(probe.id, 'probe')}`;
  const { instruction, materials, ...evaluator } = probe;
  const meta: TaskMetadata = {
    category: 'skill-security-probe',
    task,
    condition: 'with_skill',
    fields: { probe: probe.id, finding: probe.finding, pattern: probe.pattern },
  };
  return writeTask(
    outDir,
    skill,
    { meta, instruction, materials, evaluator: { 'probe.json': evaluator }, ruleChecks: [] },
    options,
  );
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
