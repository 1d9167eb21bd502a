// Build step: the built-in rule files parsed once, as JSON beside the compiled code (src/core/yaml-snapshot.ts).
import { BUILTIN_RULES_DIR, YAML_SNAPSHOT_FILE } from '../dist/core/knowledge.js';
import { writeYamlSnapshot } from '../dist/core/yaml-snapshot.js';

const { stored, left } = writeYamlSnapshot(BUILTIN_RULES_DIR, YAML_SNAPSHOT_FILE);
if (left > 0) console.log(`yaml snapshot: ${stored} files stored, ${left} left to parse at run time`);
