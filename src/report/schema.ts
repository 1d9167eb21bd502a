import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';

// Validates a report against the published schema (docs/report.schema.json, draft 2020-12). The schema file
// ships in the package's docs/ folder, which sits two levels above this module in both src/ and dist/.
const SCHEMA_URL = new URL('../../docs/report.schema.json', import.meta.url);

// RFC 3339 date-time, the only format the schema uses (ajv-formats is not a dependency).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

let validator: ReturnType<Ajv2020['compile']> | undefined;

// ajv is required on the first validation, not at import: every command that renders a report imports this
// folder, few validate one, and loading ajv cost more than a cached re-scan of a skill.
const require = createRequire(import.meta.url);

function compiled(): ReturnType<Ajv2020['compile']> {
  if (!validator) {
    const schema = JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as object;
    const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const ajv = new Ajv({ allErrors: true, strict: true });
    ajv.addFormat('date-time', (s: string) => DATE_TIME.test(s) && !Number.isNaN(Date.parse(s)));
    validator = ajv.compile(schema);
  }
  return validator;
}

/** Schema violations of a parsed report, as `<json pointer> <message>` lines; empty when it is valid. */
export function validateReport(json: unknown): string[] {
  const validate = compiled();
  if (validate(json)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
