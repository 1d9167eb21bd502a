// The audit pipeline as the delivery layers (cli, server, batch) use it.

export type { AuditOptions } from './audit.js';
export { runAudit, runFolderName } from './audit.js';
