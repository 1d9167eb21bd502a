// batch-config.json as the batch writes it when it starts, for tests that build or audit a batch folder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BatchConfig, configKey } from '../../src/batch/config.js';
import type { BatchConfigFile } from '../../src/batch/summarize.js';

/** Writes `<dir>/batch-config.json` and returns its configuration key (computed unless given). */
export function writeBatchConfig(
  dir: string,
  config: BatchConfig,
  corpus: string[],
  key = configKey(config),
): string {
  const file: BatchConfigFile = {
    version: 1,
    configKey: key,
    config,
    corpus,
    startedAt: new Date().toISOString(),
  };
  writeFileSync(join(dir, 'batch-config.json'), JSON.stringify(file));
  return key;
}
