import { inAgentHome } from '../core/agents.js';

// Paths written by a model (materials, rule checks) end up as files on disk: only plain relative paths
// inside the task's working directory are accepted.

const MAX_PATH = 200;

/** The normalised relative path, or null when it is absolute, escapes, names a hidden agent folder or is odd. */
export function safeRelativePath(path: string): string | null {
  const trimmed = path.trim().replace(/^\.\/+/, '');
  if (trimmed === '' || trimmed.length > MAX_PATH) return null;
  // Control characters, backslashes and drive letters have no place in a task file name.
  if (/[\p{Cc}\\:]/u.test(trimmed) || trimmed.startsWith('/')) return null;
  const parts = trimmed.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.some((p) => p === '..')) return null;
  // Agents' folders (skills, settings): a material there would plant a skill in the no-skill condition.
  const relative = parts.join('/');
  return inAgentHome(relative) ? null : relative;
}
