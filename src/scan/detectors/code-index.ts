// Every code and manifest detector, for the engine to run over scripts, fenced code blocks and manifests.
import { codeMatchDetector } from '../engine/code-match.js';
import { builtinRules } from '../engine/rule-pack.js';
import type { Detector } from '../rule.js';
import { analysisProbeDetector } from './code-analysis-probe.js';
import { commentsDetector } from './code-comments.js';
import { defenseEvasionDetector } from './code-defense-evasion.js';
import { embeddedDetector } from './code-embedded.js';
import { exfiltrationDetector } from './code-exfiltration.js';
import { filesystemDetector } from './code-filesystem.js';
import { injectionDetector } from './code-injection.js';
import { obfuscationDetector } from './code-obfuscation.js';
import { persistenceDetector } from './code-persistence.js';
import { privilegeDetector } from './code-privilege.js';
import { remoteShellDetector } from './code-remote-shell.js';
import { robustnessDetector } from './code-robustness.js';
import { scheduledPersistenceDetector } from './code-scheduled-persistence.js';
import { secretsDetector } from './code-secrets.js';
import { supplyChainDetector } from './code-supply-chain.js';
import { unparsedScriptDetector } from './code-unparsed-script.js';
import { mcpDetector } from './config-mcp.js';
import { manifestDetector } from './manifest-dependencies.js';

export const codeDetectors: Detector[] = [
  exfiltrationDetector,
  filesystemDetector,
  privilegeDetector,
  // Before supply-chain: persistent remote code is the same line's remote-code finding and more, and at equal
  // confidence the engine keeps the finding found first.
  scheduledPersistenceDetector,
  supplyChainDetector,
  obfuscationDetector,
  persistenceDetector,
  robustnessDetector,
  manifestDetector,
  remoteShellDetector,
  embeddedDetector,
  injectionDetector,
  secretsDetector,
  mcpDetector,
  analysisProbeDetector,
  defenseEvasionDetector,
  commentsDetector,
  unparsedScriptDetector,
  // Built-in rules written as data (`match.code`), applied as a rule pack of one's own is.
  codeMatchDetector('code-match', builtinRules().code),
];
