// Network channels that are not an HTTP request: mail sent through an SMTP client, files put into cloud storage
// (SDK calls and the cloud CLIs), and FTP uploads. Each becomes a NetworkUse like a POST, so the same
// source-to-sink flows (a credential file, the environment, a secret) are judged wherever the data leaves.
import { trailingRunStart } from '../text.js';
import { hostOf } from './hosts.js';
import type { Call, Value } from './model.js';
import { Taint, UNKNOWN } from './model.js';
import {
  CLIENT_SEND_RE,
  MAIL_COMMANDS,
  MAIL_OPENER_RE,
  SOCKET_OPENER_RE,
  STORAGE_CALL_RE,
  STORAGE_COMMANDS,
  STORAGE_URL_RE,
} from './names.js';
import type { NetworkUse } from './network.js';
import { readTaint, unionTaint } from './values.js';
import { writeTargets } from './writes.js';

/** A use that sends `payload` to `target` (a URL, `s3://bucket/key`, a bucket name). */
function sendUse(call: Call, kind: NetworkUse['kind'], target: Value | null, payload: Taint): NetworkUse {
  const text = target?.str ?? null;
  const { host, dynamic } = hostOf(text && !/^[a-z][\w+.-]*:\/\//i.test(text) ? `x://${text}` : text);
  return {
    call,
    kind,
    host,
    dynamicHost: dynamic,
    url: text,
    sends: true,
    payload,
    auth: Taint.NONE,
    urlTaint: target?.taint ?? Taint.NONE,
    // SDKs and CLIs bring their own retry and timeout policy; a missing timeout is not theirs to report.
    timeout: true,
    downloadTo: null,
  };
}

/** What uploading a file yields: the path's own taint and, for a credential path, the credentials. */
function fileTaint(path: Value | undefined, line: number): Taint {
  return path ? path.taint.union(readTaint(path, line)) : Taint.NONE;
}

/**
 * SDK uploads: boto3 `put_object(Bucket=, Body=)`, `upload_file(path, bucket, key)`, `upload_fileobj(f, bucket,
 * key)`; Google Cloud `blob.upload_from_*`; Azure `upload_blob`; JS `PutObjectCommand({Bucket, Body})`, aws-sdk v2
 * `upload`/`putObject`, `bucket.upload(path)`, `file.save(data)`.
 */
export function storageCallUse(call: Call): NetworkUse | null {
  const m = STORAGE_CALL_RE.exec(call.callee);
  if (!m) return null;
  // The last member of the callee (`s3.upload_file` → upload_file).
  const method = call.callee.slice(trailingRunStart(call.callee, /[\w$]/));
  const named = (k: string) => call.named.get(k) ?? call.named.get(k.toLowerCase());
  const bucket = named('Bucket') ?? null;
  if (method === 'upload_file' || method === 'upload_fileobj') {
    const target = call.args[1] ?? bucket;
    const file = call.args[0] ?? named('Filename') ?? named('Fileobj');
    return sendUse(call, 'storage', target ? s3(target) : null, fileTaint(file, call.line));
  }
  if (/^upload_from_filename$|^uploadFile$|^upload$/.test(method) && call.args[0] && !bucket) {
    // `bucket.upload(path)`, `blob.upload_from_filename(path)`: the argument is a file to read.
    return sendUse(call, 'storage', call.receiver, fileTaint(call.args[0], call.line));
  }
  const body = named('Body') ?? named('Data') ?? call.args[0];
  const payload = body?.taint ?? unionTaint(call.args);
  return sendUse(call, 'storage', bucket ? s3(bucket) : call.receiver, payload);
}

/** A bucket name as a storage URL, so its host is the bucket. */
function s3(bucket: Value): Value {
  const s = bucket.str;
  if (s === null || /^[a-z][\w+.-]*:\/\//i.test(s)) return bucket;
  return { ...bucket, str: `s3://${s}` };
}

/**
 * Cloud CLIs that copy local data out: `aws s3 cp|sync|mv SRC s3://…`, `gsutil cp SRC gs://…`, `gcloud storage cp
 * SRC gs://…`, `az storage blob upload --file F`, `rclone copy SRC remote:…`, `azcopy copy SRC https://…`.
 * Downloads (the bucket first, a local path last) send nothing.
 */
export function storageCommandUse(call: Call): NetworkUse | null {
  if (!STORAGE_COMMANDS.has(call.callee)) return null;
  const words = call.args.map((a) => a.str ?? '');
  if (call.callee === 'az') {
    if (!(words.includes('storage') && words.includes('blob') && /^upload/.test(words[2] ?? ''))) return null;
    const flag = (re: RegExp) => {
      const i = words.findIndex((w) => re.test(w));
      return i >= 0 ? call.args[i + 1] : undefined;
    };
    const file = flag(/^(--file|-f)$/);
    const account = flag(/^--account-name$/);
    const target =
      account?.str != null ? { ...account, str: `https://${account.str}.blob.core.windows.net` } : null;
    return sendUse(call, 'storage', target, fileTaint(file, call.line).union(call.stdin));
  }
  const verb = words.findIndex((w) => /^(cp|mv|sync|rsync|copy|move|copyto|moveto)$/.test(w));
  if (verb < 0) return null;
  // `-` is standard input (`… | aws s3 cp - s3://bucket/key`), not a flag.
  const operands = call.args.slice(verb + 1).filter((a) => a.str === '-' || !(a.str ?? '').startsWith('-'));
  if (operands.length < 2) return null;
  const dest = operands[operands.length - 1]!;
  const sources = operands.slice(0, -1);
  const remote = (v: Value) =>
    STORAGE_URL_RE.test(v.str ?? '') || (call.callee === 'rclone' && /^[\w-]+:/.test(v.str ?? ''));
  if (!remote(dest) || sources.every(remote)) return null;
  const payload = sources.reduce(
    (t, s) => t.union(s.str === '-' ? call.stdin : fileTaint(s, call.line)),
    Taint.NONE,
  );
  const target =
    call.callee === 'rclone' && !STORAGE_URL_RE.test(dest.str ?? '')
      ? { ...dest, str: `rclone://${(dest.str ?? UNKNOWN).split(':')[0]}` }
      : dest;
  return sendUse(call, 'storage', target, payload);
}

/** Where each publishing CLI puts the files it is given: a gist, a release, a snippet, a paste. */
const PUBLISHERS: Readonly<Record<string, { verbs: RegExp; host: string }>> = {
  gh: {
    verbs:
      /^(?:gist (?:create|edit)|release (?:create|upload)|issue (?:create|comment)|pr (?:create|comment))$/,
    host: 'https://github.com',
  },
  glab: {
    verbs: /^(?:snippet create|release (?:create|upload)|issue (?:create|note))$/,
    host: 'https://gitlab.com',
  },
  pastebinit: { verbs: /^$/, host: 'https://paste.ubuntu.com' },
  wgetpaste: { verbs: /^$/, host: 'https://dpaste.com' },
};

/**
 * CLIs that publish local files: `gh gist create FILE…`, `gh release upload TAG FILE…`, `gh issue create
 * --body-file F`, `glab snippet create FILE`, `pastebinit FILE`. Every operand (and standard input) is sent.
 */
export function publishCommandUse(call: Call): NetworkUse | null {
  const publisher = PUBLISHERS[call.callee];
  if (!publisher) return null;
  const words = call.args.map((a) => a.str ?? '');
  const verbWords = publisher.verbs.test('') ? 0 : 2;
  if (!publisher.verbs.test(words.slice(0, verbWords).join(' '))) return null;
  // Every word that is not a flag may be a file: a title or tag read as a path carries nothing, and a credential
  // path after a flag (`--secret ~/.aws/credentials`, `--body-file ~/.netrc`) is read all the same.
  const files = call.args.slice(verbWords).filter((a) => !(a.str ?? '').startsWith('-'));
  const payload = files.reduce((t, f) => t.union(fileTaint(f, call.line)), call.stdin);
  const target = { text: publisher.host, str: publisher.host, alts: [], taint: Taint.NONE };
  return sendUse(call, 'storage', target, payload);
}

/** `git@host:owner/repo.git`, git's scp-like address, as the URL it stands for. */
const SCP_LIKE = /^([\w.-]+@)?([\w.-]+\.[a-z]{2,}):(?!\/\/)(.+)$/i;

/** A git command's subcommand and its words after it, past git's own options (`-C dir`, `-c key=value`). */
function gitWords(call: Call): { tree: string | null; sub: Value[] } | null {
  if (call.kind !== 'command' || call.callee !== 'git') return null;
  let tree: string | null = null;
  let i = 0;
  for (; i < call.args.length; i++) {
    const w = call.args[i]!.str ?? '';
    if (w === '-C' || w === '-c') {
      if (w === '-C') tree = call.args[i + 1]?.str ?? null;
      i++;
    } else if (!w.startsWith('-')) break;
  }
  return { tree, sub: call.args.slice(i) };
}

const homeForm = (p: string) => p.replace(/^(?:\$HOME|\$\{HOME\})(?=\/|$)/, '~').replace(/\/+$/, '');

/**
 * The working tree a push sends and its remote: `git -C dir push`, or the folder the script last changed into
 * before it; the remote's address from the push itself, or from the `git clone <url> [dir]` or `git remote add
 * <name> <url>` that set it up earlier in the script.
 */
function pushTarget(
  push: Call,
  words: Value[],
  tree: string | null,
  calls: readonly Call[],
): {
  remote: Value | null;
  tree: string | null;
  since: number;
  /** The address is written in the push itself, not set up by a clone or `git remote add`. */
  written: boolean;
} {
  const before = calls.filter((c) => c.line <= push.line && c !== push);
  const cd = tree === null ? before.findLast((c) => c.kind === 'command' && c.callee === 'cd') : undefined;
  const dir = tree ?? cd?.args[0]?.str ?? null;
  const named = words.find((w, i) => i > 0 && !(w.str ?? '').startsWith('-'));
  if (named && /^(?:https?|ssh|git):\/\/|^[\w.-]+@[\w.-]+:/i.test(named.str ?? ''))
    return { remote: named, tree: dir, since: cd?.line ?? 0, written: true };
  const name = named?.str ?? 'origin';
  let remote: Value | null = null;
  for (const c of before) {
    const sub = gitWords(c)?.sub.filter((w) => !(w.str ?? '').startsWith('-')) ?? [];
    if (sub[0]?.str === 'clone' && name === 'origin') {
      const into = sub[2]?.str ?? null;
      if (dir === null || into === null || homeForm(into) === homeForm(dir) || into.endsWith(`/${dir}`))
        remote = sub[1] ?? null;
    } else if (sub[0]?.str === 'remote' && /^(add|set-url)$/.test(sub[1]?.str ?? '') && sub[2]?.str === name)
      remote = sub[3] ?? null;
  }
  return { remote, tree: dir, since: cd?.line ?? 0, written: false };
}

/** What the script wrote into `tree` before the push: the taint of each write whose target lies inside it. */
function stagedTaint(push: Call, tree: string | null, since: number, calls: readonly Call[]): Taint {
  if (tree === null) return Taint.NONE;
  const root = homeForm(tree);
  let staged = Taint.NONE;
  for (const c of calls) {
    if (c.line > push.line || c === push) continue;
    const inside = writeTargets(c).some((t) => {
      const target = homeForm(t);
      if (target.startsWith(`${root}/`)) return true;
      // A relative path written after the script changed into the tree.
      return !/^[~/$]/.test(target) && c.line >= since && since > 0;
    });
    if (inside) staged = staged.union(c.kind === 'command' ? c.output.union(c.stdin) : unionTaint(c.args));
  }
  return staged;
}

/**
 * `git push …`: the commits of a working tree go to a remote, named by its address in the push or by the clone
 * or `git remote add` that set it up in the same script (a remote the user set up elsewhere is not this). What
 * it sends is whatever the script wrote into the tree before it, and whatever the push was given on its input.
 */
export function gitPushUse(call: Call, calls: readonly Call[] = [call]): NetworkUse | null {
  const git = gitWords(call);
  const words = git?.sub;
  if (!git || words?.[0]?.str !== 'push') return null;
  const { remote, tree, since, written } = pushTarget(call, words, git.tree, calls);
  const address = remote?.str ?? '';
  const scp = SCP_LIKE.exec(address);
  const url = scp ? `ssh://${scp[1] ?? ''}${scp[2]}/${scp[3]}` : address;
  if (!remote || !/^(?:https?|ssh|git):\/\//i.test(url)) return null;
  const payload = call.stdin.union(stagedTaint(call, tree, since, calls));
  // A push to the repository the script cloned is how a skill publishes its own work: a use only when the
  // script put data of its own reading into the tree first.
  if (!written && payload.bits === 0) return null;
  return { ...sendUse(call, 'copy', { ...remote, str: url }, payload), runtimeBody: true };
}

/**
 * A message handed to a client opened earlier: `smtp.send_message(msg)`, `transport.sendMail({...})`,
 * `ftp.storbinary(cmd, f)`, `conn.request("POST", path, body)` on an `http.client.HTTPSConnection(host)`,
 * `ws.send(data)` on a `new WebSocket(url)`. The destination is the host the client was opened with; a UDP
 * socket names it on each send (`sock.send(msg, port, host)`).
 */
export function clientSendUse(call: Call, calls: readonly Call[]): NetworkUse | null {
  const m = CLIENT_SEND_RE.exec(call.callee);
  if (!m) return null;
  const [, opener, method] = m as unknown as [string, string, string];
  if (opener.startsWith('dgram')) {
    if (method !== 'send') return null;
    const host = call.args[2] ?? call.named.get('address') ?? null;
    return sendUse(call, 'socket', host?.str ? host : null, call.args[0]?.taint ?? Taint.NONE);
  }
  const open = calls.findLast((c) => c.callee === opener && c.line <= call.line);
  const hostArg = open ? (open.named.get('host') ?? open.args[0] ?? null) : null;
  const target = hostArg?.str ? hostArg : null;
  if (SOCKET_OPENER_RE.test(opener)) {
    // `request(method, path, body)`: a GET with no body sends nothing of the script's.
    const body = method === 'request' ? (call.args[2] ?? call.named.get('body')) : call.args[0];
    const sends = method === 'send' || !!body || /^(post|put|patch)$/i.test(call.args[0]?.str ?? '');
    return {
      ...sendUse(call, opener === 'WebSocket' ? 'socket' : 'http', target, body?.taint ?? Taint.NONE),
      sends,
    };
  }
  // Only the message is data: who it is from and to is addressing.
  const message = [...call.named].filter(([k]) => !/^(from|to|cc|bcc|sender|recipients?)$/i.test(k));
  const options = call.named.size > 0 && call.args[0]?.text.trim().startsWith('{');
  const data = options ? message.map(([, v]) => v) : [...call.args, ...message.map(([, v]) => v)];
  const kind = MAIL_OPENER_RE.test(opener) ? 'mail' : 'copy';
  return sendUse(call, kind, target, unionTaint(data));
}

/**
 * Mail sent from the shell: `mail -s subj to@host < file`, `mutt -a attachment -- to@host`, `sendmail to@host`.
 * The message is stdin and any attachment; the destination is the recipient's mail domain.
 */
export function mailCommandUse(call: Call): NetworkUse | null {
  if (!MAIL_COMMANDS.has(call.callee)) return null;
  const args = call.args;
  const to = args.find(
    (a, i) =>
      /^[^@\s-][^@\s]*@[\w.-]+\.[a-z]{2,}$/i.test(a.str ?? '') && !/^-[sfcbr]$/.test(args[i - 1]?.str ?? ''),
  );
  const attached = args.filter((_, i) => /^-(a|A|-attach)$/.test(args[i - 1]?.str ?? ''));
  const payload = attached.reduce((t, a) => t.union(fileTaint(a, call.line)), call.stdin);
  const domain = to?.str ? { ...to, str: to.str.replace(/^.*@/, '') } : null;
  return sendUse(call, 'mail', domain, payload);
}
