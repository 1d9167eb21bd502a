export type { AuditOptions } from './audit.js';
export { runAudit, runFolderName } from './audit.js';
