// Tasks stage: scenarios compiled into Harbor-layout task pairs (with and without the skill).
export {
  compileProbe,
  compileScenario,
  type ExportedTask,
  exportTasks,
  type TaskExportOptions,
} from './compile.js';
export { dockerfile, shellQuote, testScript } from './files.js';
export {
  CONDITIONS,
  type Condition,
  DEFAULT_BASE_IMAGE,
  DEFAULT_TASK_LIMITS,
  SKILLS_DIR,
  slug,
  type TaskLimits,
  taskFolder,
  WORKDIR,
} from './layout.js';
