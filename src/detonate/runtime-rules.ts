import type { RuleInfo } from '../core/rule.js';

// Findings that only runtime evidence shows: behaviour the static scan missed. Rules are data, as in scan/.
export const RUNTIME_RULES = {
  canaryExfil: {
    id: 'runtime.canary-exfiltration',
    pattern: 'E2',
    message: 'A canary secret left the sandbox during detonation',
    help: 'A fake secret planted in the environment or a credential file was seen in network traffic, a DNS name or a file outside the workspace. That is proof the code sends secrets out.',
  },
  credentialRead: {
    id: 'runtime.credential-read',
    pattern: 'PE3',
    message: 'The code opened a credential file during detonation',
    help: 'A planted credential file (SSH key, cloud credentials, .netrc, browser store) was opened. Skills should never read credentials they were not given.',
  },
  undeclaredDestination: {
    id: 'runtime.undeclared-destination',
    pattern: 'E1',
    message: 'The code sent data to a destination the skill does not declare',
    help: 'During detonation the code connected to a host that SKILL.md does not mention. Check what it sends and why.',
  },
  persistence: {
    id: 'runtime.persistence',
    pattern: 'P4',
    message: 'The code changed shell or agent configuration outside its folder',
    help: 'Writing shell start-up files, agent instructions (CLAUDE.md, AGENTS.md, .claude/) or other skills makes the change outlive the task.',
  },
  privilege: {
    id: 'runtime.privilege',
    pattern: 'PE2',
    message: 'The code tried to gain root privileges',
    help: 'During detonation the code ran sudo, su, doas or pkexec on an account, sudo or setuid target, or tried to write a system password or sudo file. A skill should not need root.',
  },
  fetchExec: {
    id: 'runtime.fetch-then-execute',
    pattern: 'SC2',
    message: 'The code downloaded something and executed it',
    help: 'A fetcher ran and a shell or interpreter ran after it (or a downloaded file was executed): remote code that nobody reviewed.',
  },
  decodedExec: {
    id: 'runtime.decoded-code-ran',
    pattern: 'SC3',
    message: 'The code decoded hidden code and ran it',
    help: 'During detonation an encoded payload was decoded and piped into a shell or interpreter, which ran commands of its own. Code hidden from review ran on the machine.',
  },
} as const satisfies Record<string, RuleInfo>;

export const RUNTIME_RULE_LIST: readonly RuleInfo[] = Object.values(RUNTIME_RULES);
