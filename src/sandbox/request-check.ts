// Rejects run requests that could not be passed to a process intact, before any resource is set up.
import type { RunRequest, SandboxLimits } from './types.js';

export function checkRunRequest(req: RunRequest): void {
  if (req.argv.length === 0) throw new Error('argv is empty');
  for (const arg of req.argv) if (arg.includes('\0')) throw new Error('argv contains a NUL byte');
  for (const [key, value] of Object.entries(req.env)) {
    if (key === '' || key.includes('=') || key.includes('\0'))
      throw new Error(`invalid environment variable name: ${JSON.stringify(key)}`);
    if (value.includes('\0')) throw new Error(`environment variable ${key} contains a NUL byte`);
  }
  for (const [name, value] of Object.entries(req.limits ?? {}) as [keyof SandboxLimits, number][]) {
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`limit ${name} must be a positive number, got ${value}`);
  }
}
