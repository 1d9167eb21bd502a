import { readFileSync } from 'node:fs';
import ajvDraft04 from 'ajv-draft-04';

// Validates a SARIF log against the official 2.1.0 schema (draft-04, hence ajv-draft-04).
const schema = JSON.parse(
  readFileSync(new URL('../fixtures/schemas/sarif-2.1.0-rtm.5.json', import.meta.url), 'utf8'),
) as object;
// The published schema has a pattern that is invalid under the u flag, and formats need ajv-formats: skip both.
// A CommonJS module: under NodeNext its default import is module.exports, whose .default is the class.
const ajv = new ajvDraft04.default({
  allErrors: true,
  strict: false,
  unicodeRegExp: false,
  validateFormats: false,
  logger: false,
});
const validate = ajv.compile(schema);

export function sarifErrors(log: unknown): string[] {
  if (validate(log)) return [];
  return (validate.errors ?? []).map(
    (e: { instancePath: string; message?: string }) => `${e.instancePath} ${e.message ?? ''}`,
  );
}
