// `skillaudit serve` as the CLI uses it: the web service, its host guard and its queue workers.

export { startServeWorker } from './audit-queue.js';
export { DEFAULT_ALLOWED_HOSTS } from './host-guard.js';
export { isLoopbackListen } from './request-guard.js';
export { startService } from './service.js';
export { parseTenants } from './tenancy.js';
