// The check of summary.json against its published schema (docs/batch-summary.schema.json).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

let validate: ReturnType<Ajv2020['compile']> | undefined;

/** Schema violations of a parsed summary.json, as `<json pointer> <message>` lines; empty when it is valid. */
export function summarySchemaErrors(json: unknown): string[] {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    // The only format the schema uses; ajv-formats is not a dependency.
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/);
    const schema = new URL('../../../docs/batch-summary.schema.json', import.meta.url);
    validate = ajv.compile(JSON.parse(readFileSync(schema, 'utf8')) as object);
  }
  if (validate(json)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
