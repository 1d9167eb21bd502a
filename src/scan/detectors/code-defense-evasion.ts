import { callHit } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import { codeDetector } from '../engine/code-detector.js';
import { builtinRule } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';

// What malware does besides stealing, by the commands it runs (shell, or a command a Python or JavaScript
// script hands to a shell): switching off the machine's defences (a security tool stopped, SELinux, the
// firewall or Defender turned off), erasing its traces (system logs, shell history, event logs), and mining on
// the user's hardware. MITRE ATT&CK T1562.001 (impair defenses), T1070 (indicator removal), T1496 (resource
// hijacking). An honest skill has no reason for any of them; a security tool that names them does so in
// strings it matches, not in commands it runs.

export const IMPAIR_DEFENSES_RULE = builtinRule('code.impair-defenses');
export const CRYPTOMINER_RULE = builtinRule('code.cryptominer');

/** Security and monitoring software by process or service name. */
const SECURITY_TOOL =
  /\b(?:auditd|falcon(?:d|-sensor)?|crowdstrike|osqueryd?|sysmon\w*|clamd|clamav\w*|freshclam|santad?|lulu|little\s?snitch|MsMpEng|WinDefend|defender|wazuh|ossec|snort|suricata|sentinel(?:one|agent|d)|carbonblack|cbagent|xagt|fail2ban|apparmor|firewalld|edr)\b|guard|scanner|anti-?virus/i;
const KILLS = /^(?:kill|pkill|killall|taskkill|stop-process)$/;
const SERVICE_MANAGER = /^(?:systemctl|service|launchctl|sc|sc\.exe|net|set-service)$/;
const STOPS = /^(?:stop|disable|mask|kill|unload|bootout|remove|stopped|disabled)$/i;
/** A defence turned off by its own switch. */
const TOGGLES: Readonly<Record<string, RegExp>> = {
  setenforce: /^(?:0|permissive)$/i,
  ufw: /^disable$/i,
  spctl: /^--(?:master|global)-disable$/,
  csrutil: /^disable$/i,
  'set-mppreference': /^-Disable\w+$/i,
  'add-mppreference': /^-Exclusion(?:Path|Process)$/i,
};

/** System logs, audit trails and shell histories. */
const TRACE_FILE =
  /\/var\/log\/(?:syslog|auth\.log|messages|secure|wtmp|btmp|lastlog|kern\.log|audit\b|journal\b)|(?:^|\/)\.(?:bash|zsh|sh|python|node_repl|mysql|psql)_history\b|ConsoleHost_history\.txt/i;
const REMOVES =
  /^(?:rm|shred|srm|truncate|unlink|wipe|remove-item|clear-content|os\.remove|os\.unlink|shutil\.rmtree|fs\.(?:unlink|rm|truncate)(?:Sync)?|fs\.promises\.(?:unlink|rm|truncate))$|\.unlink$/;

/** A command whose output, redirected over a file, leaves it empty. */
const EMPTIES = /^(?:cat \/dev\/null|true|:|echo(?: -n)?(?: '')?(?: "")?|printf '')$/;

/** Mining software by program name, and a mining pool's address. */
const MINER =
  /^(?:xmrig|xmr-stak\S*|cpuminer\S*|minerd|ccminer|t-rex|nbminer|lolminer|phoenixminer|ethminer|gminer|nanominer|srbminer\S*)$/i;
const POOL = /\bstratum\d?\+(?:tcp|ssl|tls):\/\/|--donate-level\b/i;
/** Commands that only print or search text: a pool address there is a signature, not a connection. */
const TEXT_ONLY =
  /^(?:grep|egrep|fgrep|rg|ag|ack|echo|printf|cat|sed|awk|jq|select-string|write-output|write-host)$/;

const words = (call: Call) => call.args.map((a) => a.str ?? a.text);
const programName = (callee: string) => callee.replace(/^.*[\\/]/, '').replace(/^\.+/, '');

interface Impairment {
  why: string;
  confidence: number;
}

/** How a call switches a defence off or erases a trace, or null. */
function impairs(call: Call, args: readonly string[], skillPurpose: string): Impairment | null {
  const plain = (why: string) => ({ why, confidence: 0.85 });
  if (call.kind === 'command') {
    if (KILLS.test(call.callee) && args.some((a) => SECURITY_TOOL.test(a)))
      return plain('stops a security or monitoring tool');
    const service =
      call.callee === 'stop-service' ||
      (SERVICE_MANAGER.test(call.callee) && args.some((a) => STOPS.test(a)));
    const tool = service ? args.map((a) => SECURITY_TOOL.exec(a)?.[0]).find(Boolean) : undefined;
    // Administrators stop services to upgrade or remove them: weaker than a kill, and weaker still for the
    // tool the skill itself deploys (an osquery skill's uninstall steps), though never nothing.
    if (tool) {
      const own = skillPurpose.includes(tool.toLowerCase().replace(/d$/, ''));
      return {
        why: `stops or disables a security service${own ? ' the skill names as its subject' : ''}`,
        confidence: own ? 0.3 : 0.6,
      };
    }
    const toggle = TOGGLES[call.callee];
    if (toggle && args.some((a) => toggle.test(a))) return plain(`turns a defence off (${call.callee})`);
    if (call.callee === 'netsh' && args.some((a) => /firewall/i.test(a)) && args.includes('off'))
      return plain('turns the firewall off (netsh)');
    if (call.callee === 'history' && args.includes('-c')) return plain('clears the shell history');
    if (/^wevtutil(?:\.exe)?$/.test(call.callee) && args.some((a) => /^(?:cl|clear-log)$/i.test(a)))
      return plain('clears a Windows event log');
    if (call.callee === 'clear-eventlog') return plain('clears a Windows event log');
  }
  if (REMOVES.test(call.callee) && args.some((a) => TRACE_FILE.test(a)))
    return plain('erases a system log or a shell history');
  // `cat /dev/null > /var/log/auth.log`, `: > ~/.bash_history`: emptied in place.
  if (call.redirectTo && TRACE_FILE.test(call.redirectTo) && EMPTIES.test([call.callee, ...args].join(' ')))
    return plain('empties a system log or a shell history');
  return null;
}

function mines(call: Call, args: readonly string[]): string | null {
  if (call.kind !== 'command') return null;
  const program = programName(call.callee);
  if (MINER.test(program)) return `runs a cryptocurrency miner (${program})`;
  if (!TEXT_ONLY.test(call.callee) && args.some((a) => POOL.test(a))) return 'connects to a mining pool';
  return null;
}

function defenseEvasionHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  const purpose = `${ctx.skill.name}\n${ctx.skill.description}`.toLowerCase();
  for (const call of model.calls) {
    const args = words(call);
    const impair = impairs(call, args, purpose);
    if (impair) hits.push(callHit(ctx, call, IMPAIR_DEFENSES_RULE.id, impair.confidence, impair.why));
    const mine = mines(call, args);
    if (mine) hits.push(callHit(ctx, call, CRYPTOMINER_RULE.id, 0.9, mine));
  }
  return hits;
}

export const defenseEvasionDetector = codeDetector(
  'code-defense-evasion',
  [IMPAIR_DEFENSES_RULE, CRYPTOMINER_RULE],
  defenseEvasionHits,
);
