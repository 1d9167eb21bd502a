import { negated, type PhraseRule } from './prose-phrase.js';
import { rx } from './prose-vocabulary.js';

// P4: switching off a security control of the machine (antivirus, firewall, mandatory access control, code
// signing checks) or the agent's own approval prompts and sandbox. Lures tell the *user* to do the first
// ("disable your antivirus, it flags the helper as a false positive"), so advice to the user keeps most of its
// weight; the commands are written in inline code, so a command is not "merely mentioned" there.

// Machine protections by name, in prose.
const PROTECTION = String.raw`(?:anti-?virus|anti-?malware|(?:windows\s+)?defender|real-?time\s+protection|edr|endpoint\s+protection|firewall|selinux|apparmor|gatekeeper|system\s+integrity\s+protection|\bsip\b|smartscreen|amsi|xprotect|security\s+software)`;
const TURN_OFF = String.raw`\b(?:disable|disabling|turn(?:ing)?\s+off|switch(?:ing)?\s+off|deactivate|stop|kill|uninstall|pause|suspend|bypass|circumvent|evade|get\s+around)\b`;

// The commands that do it, per platform: Defender preferences and service, Windows and Linux firewalls,
// SELinux and AppArmor, macOS Gatekeeper and SIP, audit logging.
const OFF_COMMAND = String.raw`\bSet-MpPreference\b[^\n]{0,80}?-Disable\w+|\bsc(?:\.exe)?\s+(?:stop|config)\s+WinDefend\b|\bnetsh\s+(?:advfirewall\s+set\s+\w+\s+state\s+off|firewall\s+set\s+opmode\s+(?:mode=)?disable)\b|\bSet-NetFirewallProfile\b[^\n]{0,80}?-Enabled\s+(?:False|\$false)|\bufw\s+disable\b|\bsystemctl\s+(?:stop|disable|mask)\s+(?:--now\s+)?(?:firewalld|ufw|iptables|nftables|apparmor|auditd|falcon-sensor|clamav\w*)\b|\bsetenforce\s+(?:0|permissive)\b|\bSELINUX\s*=\s*(?:disabled|permissive)\b|\baa-teardown\b|\bspctl\s+--master-disable\b|\bcsrutil\s+disable\b|\bauditctl\s+-e\s*0\b|\biptables\s+(?:-F|--flush)\b`;

// The agent's own approval prompts and sandbox, switched off by a flag or a setting.
const AGENT_UNGUARDED = String.raw`--dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--yolo\b|\byolo\s+mode\b|--(?:ask-for-)?approval(?:-policy)?[=\s]+["']?never\b|\bapproval_policy\s*=\s*["']?never\b|\bbypassPermissions\b|\bsandbox(?:_mode)?[=\s]+["']?danger-full-access\b`;

export const securityControlOff: PhraseRule = {
  id: 'md.security-control-off',
  pattern: 'P4',
  message:
    'Text tells the agent or user to switch off a security control (antivirus, firewall, SELinux, the agent’s approvals or sandbox).',
  help: 'Antivirus, firewalls, mandatory access control and the agent’s approval prompts protect the user. A skill has no reason to turn them off; "disable your antivirus first" is how malware lures get their payload past it. Remove the step.',
  mention: 1,
  framing: { 'user-action': 0.8, example: 0.5 },
  variants: [
    {
      all: [rx(TURN_OFF, String.raw`\s+(?:[\w'-]+\s+){0,3}?`, PROTECTION)],
      base: 0.85,
      why: 'tells the reader to switch off a protection of the machine',
    },
    {
      all: [rx(OFF_COMMAND)],
      base: 0.85,
      why: 'a command that switches off a protection of the machine',
    },
    {
      // Told to use it: "always start the agent with --yolo", "switch to yolo mode".
      all: [
        rx(
          String.raw`\b(?:launch|start|run|invoke|spawn|call|use|pass|switch\s+to|enable|turn\s+on|enter|set)\b[^.;]{0,60}?(?:`,
          AGENT_UNGUARDED,
          ')',
        ),
      ],
      base: 0.75,
      why: 'runs the agent without its approval prompts or sandbox',
    },
    {
      // Named only, as a CLI reference lists its flags ("`--yolo`: skip all confirmations"): a question for
      // the reviewer, not an instruction.
      all: [rx(AGENT_UNGUARDED)],
      base: 0.4,
      why: 'names a mode that runs the agent without approvals or sandbox',
    },
  ],
  adjust: [
    // Word ends matter: "so it never stops" is not "never stop it".
    negated(String.raw`(?:disable|turn off|switch off|stop|run|use|pass|bypass|uninstall)\b`),
    {
      // "Keep the firewall enabled", "re-enable Defender afterwards", "allow port 8080 through the firewall".
      re: rx(
        String.raw`\b(?:keep|leave|re-?enable|enable|turn\s+(?:it\s+|\w+\s+)?(?:back\s+)?on|restore|allow\s+(?:\w+\s+){0,3}?through)\b[^.;]{0,40}?`,
        PROTECTION,
      ),
      factor: 0.3,
      why: 'keeps or restores the protection',
    },
    {
      // A security tool's list of what it detects, a hardening guide's list of what attackers do.
      re: rx(
        String.raw`\b(?:detects?|detection|flags?|alerts?\s+on|attackers?|malware|adversar(?:y|ies)|ransomware|threat\s+actors?|technique|mitre|t1562|indicators?|iocs?|hunt(?:ing)?|monitor(?:s|ing)?\s+for|looks?\s+for)\b`,
      ),
      factor: 0.3,
      why: 'describes what attackers do or a tool detects',
    },
    {
      // "Ask the user whether subprocesses may run with --dangerously-skip-permissions", "inside a throwaway
      // container": the user chose it, or nothing outside a disposable sandbox is exposed.
      re: rx(
        String.raw`\bask(?:s|ed|ing)?\b[^.;]{0,40}?\b(?:the\s+user|whether|if\s+(?:they|you)|permission|approval|consent)\b|\b(?:confirm(?:ed)?\s+with|only\s+(?:if|when|after)\s+the\s+user|with\s+the\s+user'?s\s+(?:consent|approval|permission)|throwaway|disposable|ephemeral|isolated\s+(?:vm|container|sandbox)|inside\s+(?:a|the)\s+(?:docker\s+)?(?:container|vm|devcontainer)|(?:ci|github\s+actions)\s+(?:runner|job|container))\b`,
      ),
      factor: 0.5,
      why: 'the user chose it, or it runs in a disposable sandbox',
    },
    {
      // "Use with caution — pair with --yolo": a reference that warns about the mode it names.
      re: rx(
        String.raw`\b(?:with\s+caution|carefully|dangerous|most\s+risky|at\s+your\s+own\s+risk|not\s+recommended)\b`,
      ),
      factor: 0.5,
      why: 'the text warns about it',
    },
  ],
  scope: {
    re: rx(
      String.raw`\b(?:red[- ]?team\w*|pentest\w*|penetration\s+test\w*|edr|antivirus|firewall|selinux|hardening|security\s+(?:audit|assessment|baseline)|incident[- ]response|forensic\w*|threat[- ]hunt\w*|detection\s+engineering)\b`,
    ),
    factor: 0.6,
    why: 'the skill’s stated purpose is security work on such controls',
  },
};

export const controlRules: readonly PhraseRule[] = [securityControlOff];
