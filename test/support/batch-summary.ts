// A batch folder's own files for tests: batch-config.json as the batch writes it when it starts, and the check of
// summary.json against its published schema (docs/schemas/batch-summary.schema.json).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
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

let validate: ReturnType<Ajv2020['compile']> | undefined;

/** Schema violations of a parsed summary.json, as `<json pointer> <message>` lines; empty when it is valid. */
export function summarySchemaErrors(json: unknown): string[] {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    // The only format the schema uses; ajv-formats is not a dependency.
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/);
    const schema = new URL('../../docs/schemas/batch-summary.schema.json', import.meta.url);
    validate = ajv.compile(JSON.parse(readFileSync(schema, 'utf8')) as object);
  }
  if (validate(json)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
