// PE1 broad permission changes and PE2 privilege escalation (sudo, setuid, system directories, services).
import { callHit } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import { candidates } from '../code/values.js';
import { codeDetector } from '../engine/code-detector.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';

export const PRIVILEGE_RULES = rulesDetectedBy('code-privilege');

const PE1 = 'code.world-writable';
const PE2 = 'code.root-execution';
/** Others may write: octal with the w bit in the last digit, or symbolic o+w / a+w. */
function worldWritable(mode: string): boolean {
  const octal = /^0?o?([0-7]{3,4})$/i.exec(mode);
  if (octal) return (Number(octal[1]!.slice(-1)) & 2) !== 0;
  return /^[ugo]*[ao][ugo]*[+=][rwxXt]*w/.test(mode);
}
/** A umask that leaves others the write bit: octal with the 2 bit clear in the last digit (`umask 000`, `os.umask(0)`). */
function umaskLetsOthersWrite(mask: string): boolean {
  const octal = /^0?o?([0-7]{1,4})$/i.exec(mask);
  return octal !== null && (Number(octal[1]!.slice(-1)) & 2) === 0;
}

/** The mode a `mkdir` or `install` command sets outright (`-m 777`, `-m777`, `--mode=777`), umask or not. */
function creationMode(call: Call): string | null {
  const args = call.args.map((a) => a.str ?? '');
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-m' || arg === '--mode') return args[i + 1] ?? null;
    const joined = /^(?:-m|--mode=)(.+)$/.exec(arg);
    if (joined) return joined[1]!;
  }
  return null;
}

const SETUID_MODE = /^([ugoa]*[+=][rwxt]*s[rwxt]*|0?[2467][0-7]{3})$/;
const SYSTEM_DIR =
  /^(\/etc|\/usr|\/bin|\/sbin|\/lib|\/boot|\/Library|\/System|\/var\/root|[a-z]:\/Windows|\/opt\/homebrew\/bin)(\/|$)/i;
const ELEVATE = new Set(['sudo', 'su', 'doas', 'pkexec', 'runas', 'gsudo']);

function modeOf(call: Call): string | null {
  if (call.kind === 'command')
    return call.args.find((a) => !/^-/.test(a.str ?? '-') || /^-\w*[rwx]/.test(a.str ?? ''))?.str ?? null;
  const m = call.args[1] ?? call.named.get('mode');
  if (!m) return null;
  const text = m.str ?? m.text;
  if (/S_IRWXO|S_IWOTH/.test(m.text)) return '777';
  const n = /^0o?([0-7]+)$/.exec(text);
  if (n) return n[1]!;
  if (/^['"`]/.test(m.text)) return text;
  // JS numeric literals without the 0o prefix are decimal (0o777 === 511).
  return /^\d+$/.test(text) && Number(text) > 7 ? Number(text).toString(8) : text;
}

function targetsSystem(call: Call): string | null {
  if (call.kind === 'command') {
    if (call.redirectTo && SYSTEM_DIR.test(call.redirectTo)) return call.redirectTo;
    if (/^(cp|mv|install|ln|tee|rsync|dd|cat)$/.test(call.callee)) {
      const files = call.args.filter((a) => !(a.str ?? '-').startsWith('-'));
      const dest =
        call.callee === 'tee'
          ? files[0]
          : call.callee === 'dd'
            ? files.find((f) => (f.str ?? '').startsWith('of='))
            : files[files.length - 1];
      const path = dest?.str?.replace(/^of=/, '') ?? '';
      if (files.length >= (call.callee === 'tee' || call.callee === 'dd' ? 1 : 2) && SYSTEM_DIR.test(path))
        return path;
    }
    return null;
  }
  const writes =
    (/^(open|io\.open)$/.test(call.callee) &&
      /[wa]/.test(call.args[1]?.str ?? call.named.get('mode')?.str ?? '')) ||
    /^(fs\.(writeFileSync|writeFile|appendFileSync|copyFileSync|promises\.writeFile)|shutil\.(copy|copy2|copyfile|move)|.*\.write_text)$/.test(
      call.callee,
    );
  if (!writes) return null;
  const path =
    (call.callee.startsWith('shutil')
      ? call.args[1]
      : call.callee.endsWith('write_text')
        ? call.receiver
        : call.args[0]) ?? null;
  return path ? (candidates(path).find((p) => SYSTEM_DIR.test(p)) ?? null) : null;
}

/** `sudo apt install x` in a README or reference doc: a setup step for the user, not the skill escalating. */
function userInstallStep(ctx: FileContext, c: Call): boolean {
  if (!/\.(md|mdx|markdown|txt|rst)$/i.test(ctx.file.path) || ctx.file.path === 'SKILL.md') return false;
  const [tool, verb] = c.args.filter((a) => !(a.str ?? '-').startsWith('-')).map((a) => a.str ?? '');
  return (
    /^(apt|apt-get|dnf|yum|zypper|pacman|apk|brew|port|snap)$/.test(tool ?? '') &&
    /^(install|-S|add)$/.test(verb ?? '')
  );
}

export function privilegeHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    if (c.kind === 'command' && ELEVATE.has(c.callee) && !userInstallStep(ctx, c))
      hits.push(callHit(ctx, c, PE2, 0.75, `runs ${c.callee}`, `Runs a command as root via ${c.callee}.`));
    if (c.callee === 'start-process' && c.args.some((a) => /^runas$/i.test(a.str ?? '')))
      hits.push(callHit(ctx, c, PE2, 0.75, 'Start-Process -Verb RunAs elevates to administrator'));
    if (/^os\.(setuid|seteuid|setreuid|setgid)$/.test(c.callee))
      hits.push(callHit(ctx, c, PE2, 0.6, `calls ${c.callee}`));
    if (
      c.callee === 'chmod' ||
      /^(os\.chmod|os\.fchmod|fs\.chmodSync|fs\.chmod|fs\.promises\.chmod|.*\.chmod)$/.test(c.callee)
    ) {
      const mode = modeOf(c);
      if (mode && SETUID_MODE.test(mode) && !/^[0-7]{3}$/.test(mode))
        hits.push(
          callHit(ctx, c, PE2, 0.8, `sets the setuid/setgid bit (${mode})`, `Sets setuid/setgid (${mode}).`),
        );
      else if (mode && worldWritable(mode))
        hits.push(callHit(ctx, c, PE1, 0.7, `sets mode ${mode}`, `Makes files world-writable (${mode}).`));
    }
    if (c.kind === 'command' && (c.callee === 'mkdir' || c.callee === 'install')) {
      const mode = creationMode(c);
      if (mode && worldWritable(mode))
        hits.push(
          callHit(ctx, c, PE1, 0.7, `creates with mode ${mode}`, `Creates world-writable files (${mode}).`),
        );
    }
    if (c.callee === 'umask' || /^(os\.umask|process\.umask)$/.test(c.callee)) {
      const mask = c.kind === 'command' ? c.args[0]?.str : (c.args[0]?.str ?? c.args[0]?.text);
      if (mask && umaskLetsOthersWrite(mask))
        hits.push(
          callHit(
            ctx,
            c,
            PE1,
            0.6,
            `sets umask ${mask}: what it creates next is world-writable`,
            `Sets umask ${mask}, so new files are world-writable.`,
          ),
        );
    }
    if (c.callee === 'icacls' && c.args.some((a) => /everyone:\(?[^)]*F|\*S-1-1-0:\(?F/i.test(a.str ?? '')))
      hits.push(callHit(ctx, c, PE1, 0.7, 'grants Everyone full control'));
    if (c.callee === 'chown' && c.args.some((a) => /^root(:|$)/.test(a.str ?? '')))
      hits.push(callHit(ctx, c, PE2, 0.55, 'gives files to root'));
    const system = targetsSystem(c);
    if (system)
      hits.push(
        callHit(
          ctx,
          c,
          PE2,
          0.7,
          `writes into system location ${system}`,
          `Writes to system path ${system}.`,
        ),
      );
    if (
      (c.callee === 'xattr' &&
        c.args.some((a) => /com\.apple\.quarantine/.test(a.str ?? '')) &&
        c.args.some((a) => /^-[a-z]*[dc]/.test(a.str ?? ''))) ||
      (c.callee === 'spctl' && c.args.some((a) => /--master-disable|--global-disable/.test(a.str ?? '')))
    )
      hits.push(callHit(ctx, c, PE2, 0.65, 'disables macOS Gatekeeper checks for downloaded code'));
    if (
      /^(systemctl|launchctl|update-rc\.d|chkconfig|sc)$/.test(c.callee) &&
      c.args.some((a) => /^(enable|load|bootstrap|create|defaults|on)$/.test(a.str ?? ''))
    )
      hits.push(callHit(ctx, c, PE2, 0.6, `installs or enables a system service (${c.callee})`));
  }
  hits.push(...containerHits(ctx, model));
  return hits;
}

const CONTAINER_CLI = /^(docker|podman|nerdctl)$/;
/** Flags that lift a container's isolation (all capabilities, host namespaces). */
const PRIVILEGED_FLAG = /^--privileged(=true)?$|^--cap-add[= ](ALL|SYS_ADMIN)$|^--(pid|ipc|userns)[= ]host$/i;
/** A bind mount of the host's root (`-v /:/host`) or of the container daemon's socket. */
const HOST_ROOT_MOUNT = /^(\/|\/var\/run\/docker\.sock|\/run\/docker\.sock)(:|$)|(^|,)(source|src)=\/(,|$)/;

/**
 * `docker run --privileged -v /:/host … chroot /host`: a container that holds every capability and the host's
 * root file system is root on the host (PE2) and far broader access than any skill needs (PE1).
 */
function containerHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    if (c.kind !== 'command' || !CONTAINER_CLI.test(c.callee)) continue;
    const words = c.args.map((a) => a.str ?? '');
    if (!words.some((w) => /^(run|create|exec)$/.test(w))) continue;
    const joined = words.map((w, i) => (/^--cap-add$|^--pid$|^--ipc$/.test(w) ? `${w} ${words[i + 1]}` : w));
    const privileged = joined.some((w) => PRIVILEGED_FLAG.test(w));
    const mounts = words.flatMap((w, i) =>
      /^(-v|--volume|--mount)$/.test(w)
        ? [words[i + 1] ?? '']
        : /^(--volume|--mount)=/.test(w)
          ? [w.replace(/^[^=]*=/, '')]
          : [],
    );
    const hostRoot = mounts.some((m) => HOST_ROOT_MOUNT.test(m));
    if (privileged || hostRoot)
      hits.push(
        callHit(
          ctx,
          c,
          PE1,
          privileged && hostRoot ? 0.75 : 0.6,
          `starts a ${privileged ? 'privileged ' : ''}container${hostRoot ? ' with the host root or daemon socket mounted' : ''}`,
          'Container with host-level access (privileged or host root mounted).',
        ),
      );
    if (hostRoot && (privileged || /\bchroot\b|nsenter/.test(c.text)))
      hits.push(
        callHit(
          ctx,
          c,
          PE2,
          0.75,
          'a privileged container with the host root mounted is a root shell on the host',
          'Root on the host through a privileged container.',
        ),
      );
  }
  return hits;
}

export const privilegeDetector = codeDetector('code-privilege', PRIVILEGE_RULES, privilegeHits);
