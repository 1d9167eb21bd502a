import type { Family, PatternId, Severity } from './types.js';

// The 21 risk patterns: ids, families and severities are seed 000 Table A4 (DESIGN section 4).
export interface Pattern {
  id: PatternId;
  name: string;
  family: Family;
  severity: Severity;
  summary: string;
}

export const PATTERNS: readonly Pattern[] = [
  {
    id: 'P1',
    name: 'Instruction Override',
    family: 'prompt_injection',
    severity: 'high',
    summary:
      'Text that tells the agent to ignore or override system, user or earlier instructions, or claims higher authority.',
  },
  {
    id: 'P2',
    name: 'Hidden Instructions',
    family: 'prompt_injection',
    severity: 'high',
    summary:
      'Instructions a human reader would not see: HTML comments, zero-width, Unicode tag or bidi characters, encoded prose, alt text, link titles.',
  },
  {
    id: 'P3',
    name: 'Exfiltration Commands',
    family: 'prompt_injection',
    severity: 'high',
    summary: 'Natural-language instructions to send files, conversation or secrets somewhere external.',
  },
  {
    id: 'P4',
    name: 'Behavior Manipulation',
    family: 'prompt_injection',
    severity: 'medium',
    summary:
      'Steering the agent beyond the skill scope: hiding actions, auto-approval, disabling safety checks, persistence in other configs.',
  },
  {
    id: 'E1',
    name: 'External Data Transmission',
    family: 'data_exfiltration',
    severity: 'medium',
    summary: 'Code sending data to external endpoints beyond what the skill declares.',
  },
  {
    id: 'E2',
    name: 'Env Var Harvesting',
    family: 'data_exfiltration',
    severity: 'high',
    summary: 'Code reading all or secret-named environment variables and sending or storing them.',
  },
  {
    id: 'E3',
    name: 'FS Enumeration',
    family: 'data_exfiltration',
    severity: 'medium',
    summary: 'Code walking home or root directories beyond the workspace.',
  },
  {
    id: 'E4',
    name: 'Context Leakage',
    family: 'data_exfiltration',
    severity: 'high',
    summary: 'Capturing conversation, system prompt, memory or other skills and emitting it.',
  },
  {
    id: 'PE1',
    name: 'Excessive Permissions',
    family: 'privilege_escalation',
    severity: 'low',
    summary: 'allowed-tools broader than needed, chmod 777, broad permission requests.',
  },
  {
    id: 'PE2',
    name: 'Sudo / Root Execution',
    family: 'privilege_escalation',
    severity: 'medium',
    summary: 'sudo, su, setuid, writing system directories.',
  },
  {
    id: 'PE3',
    name: 'Credential Access',
    family: 'privilege_escalation',
    severity: 'high',
    summary:
      'Reading SSH keys, cloud credentials, .env, .netrc, git credential stores, kube config, browser cookies or keychains.',
  },
  {
    id: 'SC1',
    name: 'Unpinned Dependencies',
    family: 'supply_chain',
    severity: 'low',
    summary: 'Package installs without versions, unpinned requirement files, latest tags.',
  },
  {
    id: 'SC2',
    name: 'External Script Fetching',
    family: 'supply_chain',
    severity: 'high',
    summary:
      'Remote code piped to a shell, download then execute, eval of fetched content, prerequisite lures.',
  },
  {
    id: 'SC3',
    name: 'Obfuscated Code',
    family: 'supply_chain',
    severity: 'high',
    summary: 'Encoded payloads decoded and executed, string building to hide commands, packed code.',
  },
  {
    id: 'SC4',
    name: 'Namespace Mismatch',
    family: 'supply_chain',
    severity: 'low',
    summary: 'Name differs from folder or package, typosquats, false official claims.',
  },
  {
    id: 'SC5',
    name: 'Unverifiable Install Source',
    family: 'supply_chain',
    severity: 'medium',
    summary:
      'Installs from raw URLs, IP addresses, unpinned git URLs, custom indexes, password-protected archives.',
  },
  {
    id: 'R1',
    name: 'Malformed Input Handling',
    family: 'robustness',
    severity: 'low',
    summary: 'Scripts using arguments, files or JSON without validation.',
  },
  {
    id: 'R2',
    name: 'Network Timeout Missing',
    family: 'robustness',
    severity: 'low',
    summary: 'Network calls without timeouts.',
  },
  {
    id: 'R3',
    name: 'Retry / Loop Bounds',
    family: 'robustness',
    severity: 'low',
    summary: 'Unbounded retries or loops.',
  },
  {
    id: 'R4',
    name: 'Error Handling',
    family: 'robustness',
    severity: 'medium',
    summary:
      'Swallowed exceptions, ignored errors around destructive operations, rm -rf on a possibly empty variable.',
  },
  {
    id: 'R5',
    name: 'Resource Cleanup',
    family: 'robustness',
    severity: 'low',
    summary: 'Temp files, processes, handles or locks never cleaned up.',
  },
];

const BY_ID = new Map(PATTERNS.map((p) => [p.id, p]));

export function patternById(id: PatternId): Pattern {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown pattern ${id}`);
  return found;
}

export const SEVERITY_RANK: Record<Severity, number> = { high: 3, medium: 2, low: 1 };
