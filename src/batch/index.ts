// Whole-corpus runs as the CLI and the service use them: local runs, the BullMQ queue and its workers, the summary.

export type { CategoryMap } from './categories.js';
export { loadCategories } from './categories.js';
export type { BatchConfig } from './config.js';
export { parseStages } from './config.js';
export { batchText, writeBatchOutputs } from './outputs.js';
export { enqueueBatch, parseQueueUrl, waitForBatch } from './queue.js';
export type { BatchCounts } from './run-batch.js';
export { runBatch } from './run-batch.js';
export { startWorker } from './worker.js';
