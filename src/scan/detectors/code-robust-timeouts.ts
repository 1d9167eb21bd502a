// R2 for remote-shell and transfer tools (rsync, scp, sftp, ssh, git over the network): they wait on a dead
// or silent peer as long as the TCP stack lets them, often hours, unless given their own timeout option or
// run under `timeout N`. The HTTP clients are judged from network.ts; these tools need per-tool options.
import { callHit } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import type { FileContext, Hit } from '../rule.js';

/** `host:path`, `user@host:path`, `rsync://host/…`, `ssh://…`: a remote operand (not `C:\…` or `./a:b`). */
const REMOTE_OPERAND = /^(?:[\w.-]+@)?[\w-]+(?:\.[\w-]+)*:(?!\\)|^(?:rsync|ssh|git|https?):\/\//i;
/** Options that bound how long these tools wait on the peer. */
const TOOL_TIMEOUT = /^--(?:timeout|contimeout)\b|ConnectTimeout|ServerAliveInterval|lowSpeed(?:Limit|Time)/i;
/** Set once for the whole file: an ssh config or environment the script writes or exports. */
const FILE_SSH_TIMEOUT = /ConnectTimeout|ServerAliveInterval/i;
const FILE_GIT_TIMEOUT = /GIT_HTTP_LOW_SPEED_(?:LIMIT|TIME)|http\.lowSpeed(?:Limit|Time)/i;
/** git subcommands that talk to a remote. */
const GIT_NETWORK = /^(clone|fetch|pull|push|ls-remote|submodule)$/;
/** Operands that stay on this machine. */
const LOCAL_OPERAND = /^(?:\.{1,2}\/|\/|~|file:\/\/|localhost:|127\.0\.0\.1:)/;

/** The constant a `$NAME` operand was assigned in the script (`DEST=backup@host:/srv`), when written out. */
function assignedText(ctx: FileContext, text: string): string | null {
  const name = /^["']?\$\{?(\w+)/.exec(text)?.[1];
  if (!name) return null;
  return new RegExp(`(?:^|[\\s;])${name}=(.*)$`, 'm').exec(ctx.text)?.[1] ?? null;
}

function isRemote(ctx: FileContext, operand: { text: string; str: string | null }): boolean {
  const literal = operand.str?.replace(/^["']|["']$/g, '');
  if (literal && !literal.startsWith('\u2026')) return REMOTE_OPERAND.test(literal);
  const assigned = assignedText(ctx, operand.text);
  return (
    !!assigned && /(?:^|["'{:?\s])(?:[\w.-]+@)?[\w-]+(?:\.[\w-]+)*:(?!\\)|(?:rsync|ssh):\/\//i.test(assigned)
  );
}

function operands(c: Call): Call['args'] {
  return c.args.filter((a) => !(a.str ?? '').startsWith('-'));
}

/** The git subcommand after global options (`git -C dir -c k=v fetch`), with its operands. */
function gitSubcommand(c: Call): { sub: string; rest: Call['args'] } | null {
  for (let i = 0; i < c.args.length; i++) {
    const s = c.args[i]!.str ?? '';
    if (/^-(C|c)$/.test(s)) i++;
    else if (!s.startsWith('-')) return { sub: s, rest: c.args.slice(i + 1) };
  }
  return null;
}

/** Whether this command reaches another machine; null when the tool is not one of these. */
function reachesRemote(ctx: FileContext, c: Call): boolean | null {
  switch (c.callee) {
    case 'ssh':
    case 'sftp':
      return !operands(c).some((a) => /^(?:[\w.-]+@)?(?:localhost|127\.0\.0\.1)$/.test(a.str ?? ''));
    case 'scp':
    case 'rsync':
      return operands(c).some((a) => isRemote(ctx, a)) || c.args.some((a) => /^(-e|--rsh)/.test(a.str ?? ''));
    case 'git': {
      const git = gitSubcommand(c);
      if (!git || !GIT_NETWORK.test(git.sub)) return false;
      const target = operands({ ...c, args: git.rest })[0];
      // clone of a local path copies files; fetch/pull/push with no operand talk to the configured remote.
      if (git.sub === 'clone') return !!target && !LOCAL_OPERAND.test(target.str ?? '');
      return !target || !LOCAL_OPERAND.test(target.str ?? '');
    }
    default:
      return null;
  }
}

/** Run under `timeout N …`, or by a subprocess call that passes timeout= on the same line. */
function wrappedInTimeout(c: Call, model: CodeModel): boolean {
  if (/^\s*(?:sudo\s+)?timeout\s/.test(c.text)) return true;
  return model.calls.some((o) => o.kind === 'call' && o.line === c.line && o.named.has('timeout'));
}

export function transferTimeoutHits(ctx: FileContext, model: CodeModel): Hit[] {
  const sshCovered = FILE_SSH_TIMEOUT.test(ctx.text);
  const gitCovered = FILE_GIT_TIMEOUT.test(ctx.text);
  const hits: Hit[] = [];
  for (const c of model.calls) {
    if (c.kind !== 'command' || c.origin?.startsWith('decoded') || hits.length >= 5) continue;
    const remote = reachesRemote(ctx, c);
    if (!remote) continue;
    if (c.args.some((a) => TOOL_TIMEOUT.test(a.str ?? a.text)) || wrappedInTimeout(c, model)) continue;
    if (c.callee === 'git' ? gitCovered || sshCovered : sshCovered) continue;
    hits.push(
      callHit(
        ctx,
        c,
        'code.no-timeout',
        0.5,
        `${c.callee} reaches another machine with no timeout option (a silent peer stalls it indefinitely)`,
        `${c.callee} to a remote host without a timeout.`,
      ),
    );
  }
  return hits;
}
