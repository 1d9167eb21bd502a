import { isDeclared } from '../../core/hosts.js';
import { callHit } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import { networkUses } from '../code/network.js';
import { candidates } from '../code/values.js';
import { writeTargets } from '../code/writes.js';
import { codeDetector } from '../engine/code-detector.js';
import { builtinRule } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';
import { PUBLIC_KEY_LITERAL } from './prose-vocabulary.js';

// What malware does besides stealing, by the commands it runs (shell, or a command a Python or JavaScript
// script hands to a shell) and the calls it makes: switching off the machine's defences (a security tool
// stopped, SELinux, the firewall or Defender turned off), erasing its traces (system logs, shell history, event
// logs), mining on the user's hardware, planting a way back in (a key in authorized_keys, a second root
// account), destroying the user's data (the home folder, a disk), and capturing what the user types or swapping
// the wallet address they copy. MITRE ATT&CK T1562.001, T1070, T1496, T1098.004, T1136, T1485, T1561, T1056.001,
// T1115. An honest skill has no reason for any of them; a security tool that names them does so in strings it
// matches, not in commands it runs.

export const IMPAIR_DEFENSES_RULE = builtinRule('code.impair-defenses');
export const CRYPTOMINER_RULE = builtinRule('code.cryptominer');
export const ACCESS_BACKDOOR_RULE = builtinRule('code.access-backdoor');
export const DATA_DESTRUCTION_RULE = builtinRule('code.data-destruction');
export const INPUT_CAPTURE_RULE = builtinRule('code.input-capture');

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

const AUTHORIZED_KEYS = /(?:^|[/\\])\.ssh[/\\]authorized_keys2?["']?$/;
const LITERAL_KEY = new RegExp(PUBLIC_KEY_LITERAL);
/** The user's own public key (`~/.ssh/id_ed25519.pub`), copied in to log in to their own machine. */
const OWN_PUBLIC_KEY = /\bid_\w+\.pub\b/;
const FETCHERS = /^(?:curl|wget|invoke-webrequest|iwr|invoke-restmethod|irm)$/;

/** A key added to authorized_keys, or a second account with user id 0. */
function backdoor(ctx: FileContext, call: Call, args: readonly string[]): Impairment | null {
  if (call.kind === 'command' && /^(?:useradd|adduser|usermod)$/.test(call.callee)) {
    const uid = args.findIndex((a) => /^(?:-u|--uid)$/.test(a));
    if (uid >= 0 && args[uid + 1] === '0')
      return { why: `creates an account with user id 0, a second root (${call.callee})`, confidence: 0.9 };
    return null;
  }
  const target = writeTargets(call).find((t) => AUTHORIZED_KEYS.test(t.trim()));
  if (!target) return null;
  const fetched = call.kind === 'command' && FETCHERS.test(call.callee);
  if (fetched || LITERAL_KEY.test(call.text) || LITERAL_KEY.test(ctx.text))
    return {
      why: `adds ${fetched ? 'a downloaded' : 'a fixed'} public key to ${target}: its owner can log in`,
      confidence: 0.9,
    };
  // A key the user supplies (server set-up) or their own: still a standing login, rarely a skill's business.
  const own = OWN_PUBLIC_KEY.test(call.text);
  return { why: `adds a key to ${target}${own ? " (the user's own)" : ''}`, confidence: own ? 0.3 : 0.45 };
}

const HOME = String.raw`(?:~|\$\{?HOME\}?|/home/[\w.$-]+|/Users/[\w.$-]+|/root)`;
/** The home folder, the user's data folders in it, or the system's root: what a wiper aims at. */
const PRECIOUS = new RegExp(
  String.raw`^(?:${HOME}/?(?:\*|\.\*)?|${HOME}/(?:Documents|Desktop|Pictures|Photos|Music|Videos|Movies|Library|projects?|src|code|work|\.ssh|\.gnupg)/?\*?|/\*?|/(?:etc|usr|var|bin|sbin|boot|lib|lib64|opt|srv|home|Users)/?\*?)$`,
);
/** Code that names the home folder itself (`os.homedir()`, `Path.home()`, `expanduser("~")`). */
const HOME_CALL =
  /^(?:os\.homedir\(\)|Path\.home\(\)|(?:os\.path\.)?expanduser\(\s*["']~\/?["']\s*\)|process\.env\.HOME|os\.environ\[["']HOME["']\])$/;
const DISK = /^\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|xvd[a-z]|vd[a-z]|disk\d|mmcblk\d)/;
const RECURSIVE_DELETE = /^(?:rm|remove-item|shutil\.rmtree|fs\.rmSync|fs\.rm|fs\.promises\.rm|rimraf)$/;

/** A skill about disks (flashing an SD card, partitioning a drive) formats and writes them by design. */
const DISK_PURPOSE =
  /\b(?:disks?|disk images?|(?:hard|thumb|usb) drives?|partition\w*|sd[ -]?cards?|usb|flash(?:es|ed|ing)?|raspberry|bootable)\b/;

/**
 * `rm -rf ~`, `shutil.rmtree(Path.home())`, `find ~ -delete`, `dd if=/dev/zero of=/dev/sda`, `mkfs /dev/sdb1`
 * (the last in a skill that is not about disks: writing an image to an SD card is what a flashing skill does).
 */
function destroys(call: Call, args: readonly string[], purpose: string, joins: JoinsByLine): string | null {
  const texts = [
    ...call.args.flatMap((a) => [...candidates(a), a.text.trim()]),
    ...joinedOnLine(call, joins),
  ];
  const aimed = texts.find((t) => PRECIOUS.test(t.replace(/^["']|["']$/g, '')) || HOME_CALL.test(t));
  if (call.kind === 'command') {
    const toDisk = args.some((a) => /^of=/.test(a) && DISK.test(a.slice(3)));
    if (call.callee === 'dd' && toDisk && args.some((a) => /^if=\/dev\/u?random$|^if=\/dev\/zero$/.test(a)))
      return 'overwrites a whole disk with zeros or noise (dd)';
    const notAboutDisks = !DISK_PURPOSE.test(purpose);
    if (notAboutDisks && call.callee === 'dd' && toDisk) return 'writes over a whole disk (dd)';
    if (notAboutDisks && /^(?:mkfs(?:\.\w+)?|wipefs)$/.test(call.callee) && args.some((a) => DISK.test(a)))
      return `formats or wipes a disk (${call.callee})`;
    const recursive = args.some((a) => /^-\w*[rR]|^--recursive$|^-Recurse$/i.test(a));
    if (aimed && ((call.callee === 'rm' && recursive) || (call.callee === 'remove-item' && recursive)))
      return `deletes ${aimed} recursively`;
    if (aimed && /^(?:shred|srm|wipe)$/.test(call.callee)) return `shreds ${aimed}`;
    if (
      call.callee === 'find' &&
      aimed &&
      args.indexOf(aimed) <= 1 &&
      args.some((a) => a === '-delete' || a === 'shred' || a === 'rm')
    )
      return `deletes every file under ${aimed}`;
    return null;
  }
  if (aimed && RECURSIVE_DELETE.test(call.callee)) return `deletes ${aimed} recursively`;
  return null;
}

type JoinsByLine = ReadonlyMap<number, readonly Call[]>;

/** Path joins by line, so each call finds those on its own line without walking the whole file. */
function joinsByLine(model: CodeModel): JoinsByLine {
  const out = new Map<number, Call[]>();
  for (const c of model.calls)
    if (/(?:^|\.)(?:join|joinpath)$/.test(c.callee)) out.set(c.line, [...(out.get(c.line) ?? []), c]);
  return out;
}

/**
 * The paths a join on the call's line can make (`os.path.join(expanduser("~"), d)` with `d` from a loop over
 * folder names): every head with every tail, a few at most.
 */
function joinedOnLine(call: Call, joins: JoinsByLine): string[] {
  const out: string[] = [];
  for (const j of joins.get(call.line) ?? []) {
    if (j === call) continue;
    const parts = j.callee.endsWith('joinpath') && j.receiver ? [j.receiver, ...j.args] : j.args;
    const [head, ...rest] = parts.map((p) => candidates(p).slice(0, 8));
    if (!head || rest.length !== 1) continue;
    for (const h of head) for (const t of rest[0]!) out.push(`${h.replace(/\/$/, '')}/${t}`);
  }
  return out;
}

/** Hooks that receive every key the user presses, in any program. */
const KEY_HOOK =
  /^(?:(?:pynput\.)?keyboard\.(?:Listener|on_press|on_release|hook|record)|pyHook\.HookManager|pyWinhook\.HookManager|(?:win32api\.|ctypes\.windll\.user32\.|user32\.)?(?:GetAsyncKeyState|SetWindowsHookEx[AW]?)|Quartz\.CGEventTapCreate|CGEventTapCreate|(?:iohook|uIOhook)\.(?:on|start))$/;
const KEY_COMMAND = /^(?:logkeys|showkey)$/;
const CLIPBOARD_READ =
  /(?:^|\.)(?:paste|readText|read_text|GetClipboardData|get_clipboard)$|^(?:pbpaste|xclip|xsel|get-clipboard|wl-paste)$/;
const CLIPBOARD_WRITE =
  /(?:^|\.)(?:copy|writeText|write_text|SetClipboardData|set_clipboard)$|^(?:pbcopy|set-clipboard|wl-copy)$/;
/** A cryptocurrency address written into code: what a clipper pastes in place of the user's. */
const WALLET =
  /["'`](?:bc1[02-9ac-hj-np-z]{25,60}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33}|4[0-9AB][1-9A-HJ-NP-Za-km-z]{93})["'`]/;

/** Grabs of the whole screen (not a browser page's own screenshot, which shows only what the skill loaded). */
const SCREEN_GRAB =
  /^(?:(?:PIL\.)?ImageGrab\.grab|pyautogui\.screenshot|pyscreenshot\.grab|(?:mss\.)?(?:mss\(\)|sct)\.(?:grab|shot)|screenshot-desktop|screenshotDesktop|\w*\.CopyFromScreen)$/;
const SCREEN_COMMAND = /^(?:screencapture|scrot|gnome-screenshot|grim|spectacle|xwd)$/;

/** Whether the call grabs the screen. */
function grabsScreen(call: Call): boolean {
  if (call.kind === 'command')
    return (
      SCREEN_COMMAND.test(call.callee) ||
      (call.callee === 'import' && call.args.some((a) => a.str === '-window'))
    );
  return SCREEN_GRAB.test(call.callee);
}

/**
 * A host written into the script that it sends data to and the skill does not declare, if any. A host the
 * script computes (the user's own Jira or Slack from a setting) is not one.
 */
function undeclaredReceiver(ctx: FileContext, model: CodeModel): string | null {
  for (const use of networkUses(model.calls))
    if (use.sends && use.host !== null && !use.dynamicHost && !isDeclared(use.host, ctx.declaredHosts))
      return use.host;
  return null;
}

/**
 * A keyboard hook; a script that reads and rewrites the clipboard with a wallet address of its own; a grab of
 * the whole screen in a script that sends data to a host the skill does not declare.
 */
function captures(ctx: FileContext, call: Call, model: CodeModel): string | null {
  if (KEY_HOOK.test(call.callee) || (call.kind === 'command' && KEY_COMMAND.test(call.callee)))
    return `records every key the user presses (${call.callee})`;
  if (call.kind === 'command' && call.callee === 'xinput' && call.args[0]?.str === 'test')
    return 'records every key the user presses (xinput test)';
  if (
    CLIPBOARD_WRITE.test(call.callee) &&
    /clip|pyperclip|navigator|pb|wl-/i.test(call.callee + call.text) &&
    model.calls.some((c) => c !== call && CLIPBOARD_READ.test(c.callee)) &&
    WALLET.test(ctx.text)
  )
    return 'reads the clipboard and replaces it with a wallet address written into the code';
  if (grabsScreen(call)) {
    const to = undeclaredReceiver(ctx, model);
    if (to) return `captures the whole screen (${call.callee}) in a script that sends data to ${to}`;
  }
  return null;
}

function defenseEvasionHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  const purpose = `${ctx.skill.name}\n${ctx.skill.description}`.toLowerCase();
  const joins = joinsByLine(model);
  for (const call of model.calls) {
    const args = words(call);
    const impair = impairs(call, args, purpose);
    if (impair) hits.push(callHit(ctx, call, IMPAIR_DEFENSES_RULE.id, impair.confidence, impair.why));
    const mine = mines(call, args);
    if (mine) hits.push(callHit(ctx, call, CRYPTOMINER_RULE.id, 0.9, mine));
    const door = backdoor(ctx, call, args);
    if (door) hits.push(callHit(ctx, call, ACCESS_BACKDOOR_RULE.id, door.confidence, door.why));
    const wipe = destroys(call, args, purpose, joins);
    if (wipe) hits.push(callHit(ctx, call, DATA_DESTRUCTION_RULE.id, 0.85, wipe));
    const capture = captures(ctx, call, model);
    if (capture) hits.push(callHit(ctx, call, INPUT_CAPTURE_RULE.id, 0.85, capture));
  }
  return hits;
}

export const defenseEvasionDetector = codeDetector(
  'code-defense-evasion',
  [IMPAIR_DEFENSES_RULE, CRYPTOMINER_RULE, ACCESS_BACKDOOR_RULE, DATA_DESTRUCTION_RULE, INPUT_CAPTURE_RULE],
  defenseEvasionHits,
);
