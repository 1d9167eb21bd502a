// Supply chain in code: SC2 remote code run (curl | sh, eval of fetched text, download-then-execute, import
// from a URL), SC5 installs from unverifiable sources, SC1 package installs without versions.
import { DOWNLOADED_RUN_FLOW, UNNAMED_HOST_FLOW } from '../../score/index.js';
import { callHit } from '../code/hits.js';
import type { Call, CodeModel, Value } from '../code/model.js';
import { T } from '../code/model.js';
import { INTERPRETERS, WRITE_CALL_RE } from '../code/names.js';
import { hostOf, isIpHost, type NetworkUse, networkUses } from '../code/network.js';
import { isExecCallee, isShellCallee } from '../code/script.js';
import { codeDetector } from '../engine/code-detector.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';
import { squash, unnamedHost } from './skill-hosts.js';

export const SUPPLY_CHAIN_RULES = rulesDetectedBy('code-supply-chain');

const SC2 = 'code.remote-code';
const SC5 = 'code.unverifiable-source';
const SC1 = 'code.unpinned-install';

/** For python/node/perl/…: stdin is code only when no script, -c, -e or -m is given. */
export function stdinIsCode(call: Call): boolean {
  if (call.kind !== 'command' || !INTERPRETERS.has(call.callee)) return false;
  if (/^(eval|source|\.|exec|iex|invoke-expression)$/.test(call.callee))
    return call.args.length === 0 || call.callee === 'invoke-expression';
  const positional = call.args.filter((a) => !(a.str ?? '').startsWith('-'));
  if (call.args.some((a) => /^-(s|-)$/.test(a.str ?? ''))) return true;
  return positional.length === 0 && !call.args.some((a) => /^-[a-zA-Z]*[cem]$|^-Command$/i.test(a.str ?? ''));
}

/** Arguments that an executor runs as code. */
export function codeArgs(call: Call): Value[] {
  if (call.kind === 'command') {
    if (!INTERPRETERS.has(call.callee)) return [];
    if (/^(eval|source|\.|iex|invoke-expression)$/.test(call.callee)) return call.args;
    const flag = call.args.findIndex((a) => /^-[a-zA-Z]*[ce]$|^-Command$/i.test(a.str ?? ''));
    return flag >= 0
      ? call.args.slice(flag + 1, flag + 2)
      : call.args.filter((a) => !(a.str ?? '').startsWith('-')).slice(0, 1);
  }
  if (
    isExecCallee(call.callee) ||
    isShellCallee(call.callee) ||
    /^pickle\.loads?$|^marshal\.loads$/.test(call.callee)
  )
    return call.args;
  return [];
}

const VERIFY = /\b(sha(256|512|1)?sum|shasum|gpg|cosign|minisign|Get-FileHash|hashlib\.sha256|checksum)\b/;
/** A digest written into the file, or a signature tool: what a check needs to hold the download to anything. */
const PINNED = /\b[0-9a-f]{64}\b|\b[0-9a-f]{128}\b|\b(?:gpg|cosign|minisign)\b/i;

/**
 * Whether the file checks `file` between its download (line `after`) and the line that runs it (`before`): a line
 * of code (not a comment) that names the file and a checksum or signature tool, in a file that pins a digest or
 * verifies a signature. The word "checksum" somewhere in the file is not a check, nor is a URL naming cosign.
 */
function verifiedBetween(text: string, file: string, after: number, before: number): boolean {
  if (!PINNED.test(text)) return false;
  const lines = text.split('\n');
  for (let i = after; i < Math.min(before - 1, lines.length); i++) {
    const line = lines[i]!;
    if (line.includes(file) && VERIFY.test(line) && !/^\s*(?:#|\/\/)/.test(line)) return true;
  }
  return false;
}

/**
 * `; <UNNAMED_HOST_FLOW>` when the code run comes from a host written literally into a script that neither the
 * skill's documents name nor a well-known vendor installs from: a stage two nobody reading the skill was told
 * about (the decisive indicator `unnamed-host-code-run`). Documents quote commands; only scripts get it.
 */
function unnamedSource(ctx: FileContext, use: NetworkUse | undefined): string {
  if (ctx.file.kind !== 'script' || !use?.url || !use.host || use.dynamicHost) return '';
  return unnamedHost(use.url, use.host, ctx.skill, ctx.declaredHosts)
    ? `; ${use.host} is ${UNNAMED_HOST_FLOW}`
    : '';
}

function remoteCodeHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  const uses = networkUses(model.calls);
  for (const c of model.calls) {
    const code = codeArgs(c);
    const fromStdin = stdinIsCode(c) && c.stdin.has(T.FETCHED);
    const fetched = code.find((a) => a.taint.has(T.FETCHED));
    if (fromStdin || fetched) {
      const t = fromStdin ? c.stdin : fetched!.taint;
      const from = t.lineOf(T.FETCHED) ?? c.line;
      hits.push(
        callHit(
          ctx,
          c,
          SC2,
          0.95,
          `content fetched from the network (line ${from}) is run by ${c.callee}${unnamedSource(
            ctx,
            uses.find((u) => u.call.line === from && u.url),
          )}`,
          undefined,
          // A fetch far above (a download helper) is not where the risk is: report the line that runs it.
          c.line - from > 5
            ? { line: c.line, endLine: c.endLine }
            : { line: Math.min(from, c.line), endLine: Math.max(c.endLine, from) },
        ),
      );
    }
    if (c.callee === 'import' && /^https?:\/\//i.test(c.args[0]?.str ?? ''))
      hits.push(callHit(ctx, c, SC2, 0.85, `imports code from ${c.args[0]!.str}`));
  }
  hits.push(...cloneThenRunHits(ctx, model));
  // Download to a file, then run that file.
  for (const use of uses) {
    if (!use.downloadTo) continue;
    const file = use.downloadTo.split('/').pop()!;
    if (!file || file.includes('\u2026')) continue;
    const runner = model.calls.find(
      (c) =>
        c.line >= use.call.line &&
        c !== use.call &&
        ((c.kind === 'command' && c.callee === file.toLowerCase() && !INTERPRETERS.has(file)) ||
          (c.kind === 'command' &&
            (INTERPRETERS.has(c.callee) || c.callee === 'start-process') &&
            c.args.some((a) => (a.str ?? '').split('/').pop() === file)) ||
          (c.kind === 'command' &&
            c.callee === 'chmod' &&
            c.args.some((a) => /\+x|^[0-7]?7[0-7]{2}$/.test(a.str ?? '')) &&
            c.args.some((a) => (a.str ?? '').split('/').pop() === file))),
    );
    if (!runner) {
      const built = buildOfArchive(model, use.call.line, file);
      if (built && !verifiedBetween(ctx.text, file, use.call.line, built.line))
        hits.push(
          callHit(
            ctx,
            built,
            SC2,
            0.75,
            `${file} is downloaded at line ${use.call.line}, unpacked, and its code is built or run (${built.callee})`,
            `Downloads ${file}, unpacks it and runs its code.`,
            { line: use.call.line, endLine: built.endLine },
          ),
        );
      continue;
    }
    // Pinned by a digest and checked before it runs: what the rule's help asks for.
    if (verifiedBetween(ctx.text, file, use.call.line, runner.line)) continue;
    hits.push(
      callHit(
        ctx,
        runner,
        SC2,
        0.85,
        `${file} is downloaded at line ${use.call.line} ${DOWNLOADED_RUN_FLOW}${unnamedSource(ctx, use)}`,
        `Downloads ${file} and runs it.`,
        { line: use.call.line, endLine: runner.endLine },
      ),
    );
  }
  return hits;
}

const ARCHIVE = /\.(tar\.gz|tgz|tar\.xz|txz|tar\.bz2|tbz2?|tar|zip)$/i;
/** Build tools that run what an unpacked source tree's build files say. */
const BUILD_TOOL = /^(make|gmake|cmake|ninja|meson)$/;

/**
 * A downloaded archive that is unpacked and whose contents are then built or run (`./configure && make
 * install`, `sh install.sh`, `python setup.py install`): download-then-execute through a source tree.
 */
function buildOfArchive(model: CodeModel, from: number, file: string): Call | null {
  if (!ARCHIVE.test(file)) return null;
  const names = (c: Call) => c.args.map((a) => (a.str ?? '').split('/').pop());
  const extract = model.calls.find(
    (c) =>
      c.kind === 'command' &&
      c.line >= from &&
      (c.callee === 'unzip' || (c.callee === 'tar' && c.args.some((a) => /^-?[a-z]*x/.test(a.str ?? '')))) &&
      names(c).includes(file),
  );
  if (!extract) return null;
  const after = model.calls.filter((c) => c.kind === 'command' && c.line >= extract.line && c !== extract);
  // `make` builds whatever tree the script is in: count it once the script has entered another directory.
  const entered = (c: Call) => after.some((d) => d.callee === 'cd' && d.line <= c.line && d !== c);
  return (
    after.find(
      (c) =>
        /^\.\//.test(c.callee) ||
        (BUILD_TOOL.test(c.callee) && entered(c)) ||
        (INTERPRETERS.has(c.callee) &&
          c.args.some((a) =>
            /^(setup\.py|install\.(sh|py)|configure|build\.sh)$/.test((a.str ?? '').split('/').pop() ?? ''),
          )),
    ) ?? null
  );
}

const GIT_URL = /^(?:https?:\/\/|git@|ssh:\/\/|git:\/\/)\S+$/i;
const PINNED_CHECKOUT = /^[0-9a-f]{7,40}$/i;
const PACKAGE_BUILD = /^(?:npm|pnpm|yarn|bun|pip[0-9.]*|uv|poetry|cargo|go)$/;

/**
 * `git clone <repo>` and then code from the clone run (`cd repo && ./install.sh`, `bash repo/setup.sh`,
 * `make`, `npm install`, which runs the package's lifecycle scripts): the same remote code as `curl | sh`
 * from that repository, told in two commands. Checking out a commit hash afterwards pins what runs.
 */
function cloneThenRunHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  const shipped = new Set(ctx.skill.files.map((f) => f.path));
  const commands = model.calls.filter((c) => c.kind === 'command');
  for (const clone of commands) {
    const args = clone.args.map((a) => a.str ?? '');
    if (clone.callee !== 'git' || args[0] !== 'clone') continue;
    const positional = args
      .slice(1)
      .filter(
        (a, i, all) => !a.startsWith('-') && !/^--?(?:b|branch|depth|origin|filter)$/.test(all[i - 1] ?? ''),
      );
    const url = positional.find((a) => GIT_URL.test(a));
    // A mirror or bare clone has no working tree to run; the skill's own repository installs the skill.
    if (!url || args.some((a) => a === '--mirror' || a === '--bare') || ownRepository(ctx, url)) continue;
    const dir = positional[positional.indexOf(url) + 1] ?? repoName(url);
    const after = commands.filter((c) => c.line >= clone.line && c !== clone);
    const inside = (c: Call) =>
      after.some(
        (d) =>
          d.callee === 'cd' &&
          d.line <= c.line &&
          d !== c &&
          (d.args[0]?.str ?? '').replace(/\/+$/, '').endsWith(dir),
      );
    const inClone = (a: string) => a.startsWith(`${dir}/`) || a.startsWith(`./${dir}/`);
    const runner = after.find((c) => {
      const a = c.args.map((v) => v.str ?? '');
      const word = c.text.trim().split(/\s+/)[0] ?? '';
      // A script the skill ships is its own code, wherever the shell stands.
      if (a.concat(word).some((x) => shipped.has(x.replace(/^\.\//, '')))) return false;
      if (inClone(word) || (INTERPRETERS.has(c.callee) && a.some(inClone))) return true;
      if (!inside(c)) return false;
      return (
        /^\.\//.test(word) ||
        BUILD_TOOL.test(c.callee) ||
        (INTERPRETERS.has(c.callee) && a.some((x) => /\.(?:sh|py|js|rb|pl|ps1)$/.test(x))) ||
        (PACKAGE_BUILD.test(c.callee) &&
          /^(?:install|i|ci|build|run|make)$/.test(a[0] ?? '') &&
          !a.slice(1).some((x) => !x.startsWith('-') && x !== '.'))
      );
    });
    // A commit checked out between the clone and the run pins what runs.
    const pinned = (c: Call) =>
      c.callee === 'git' &&
      c.line <= (runner?.line ?? 0) &&
      c.args.some((a) => PINNED_CHECKOUT.test(a.str ?? ''));
    if (!runner || after.some(pinned)) continue;
    hits.push(
      callHit(
        ctx,
        runner,
        SC2,
        0.7,
        `${url} is cloned at line ${clone.line} and code from the clone is run (${runner.callee}), unpinned`,
        `Clones ${url} and runs its code.`,
        { line: clone.line, endLine: runner.endLine },
      ),
    );
  }
  return hits;
}

/** The folder `git clone <url>` creates: the URL's last segment without `.git`. */
function repoName(url: string): string {
  return url
    .replace(/\/+$/, '')
    .split(/[/:]/)
    .pop()!
    .replace(/\.git$/, '');
}

/** The clone is the skill's own repository (its name is the skill's): installing the skill, not fetching code. */
function ownRepository(ctx: FileContext, url: string): boolean {
  const repo = squash(repoName(url));
  return repo.length >= 4 && squash(`${ctx.skill.name} ${ctx.skill.folderName}`).includes(repo);
}

const PUBLIC_INDEX =
  /^(pypi\.org|files\.pythonhosted\.org|pypi\.python\.org|registry\.npmjs\.org|registry\.yarnpkg\.com|download\.pytorch\.org)$/;
const PINNED_VCS = /(@|#)([0-9a-f]{7,40})(\b|$)|#(sha256|sha384|sha512|md5)=|#commit=|#[0-9a-f]{40}/i;
const TOOLING = /^(pip|setuptools|wheel|uv|pipx|npm|yarn|pnpm|corepack)$/i;

interface InstallCommand {
  ecosystem: 'pip' | 'npm' | 'npx' | 'go' | 'gem' | 'cargo';
  args: Value[];
}

function installCommand(c: Call): InstallCommand | null {
  if (c.kind !== 'command') return null;
  const a = c.args.map((v) => v.str ?? '');
  if (/^pip[0-9.]*$/.test(c.callee) && a[0] === 'install') return { ecosystem: 'pip', args: c.args.slice(1) };
  if (
    /^python[0-9.]*$|^py$/.test(c.callee) &&
    a[0] === '-m' &&
    /^pip[0-9.]*$/.test(a[1] ?? '') &&
    a[2] === 'install'
  )
    return { ecosystem: 'pip', args: c.args.slice(3) };
  if (c.callee === 'uv' && a[0] === 'pip' && a[1] === 'install')
    return { ecosystem: 'pip', args: c.args.slice(2) };
  if (c.callee === 'pipx' && a[0] === 'install') return { ecosystem: 'pip', args: c.args.slice(1) };
  if (/^(npm|pnpm|cnpm|bun)$/.test(c.callee) && /^(install|i|add|in)$/.test(a[0] ?? ''))
    return { ecosystem: 'npm', args: c.args.slice(1) };
  if (c.callee === 'yarn' && (a[0] === 'add' || (a[0] === 'global' && a[1] === 'add')))
    return { ecosystem: 'npm', args: c.args.slice(a[0] === 'global' ? 2 : 1) };
  if (/^(npx|bunx|pnpx)$/.test(c.callee) || (c.callee === 'pnpm' && a[0] === 'dlx'))
    return { ecosystem: 'npx', args: c.callee === 'pnpm' ? c.args.slice(1) : c.args };
  if (c.callee === 'go' && a[0] === 'install') return { ecosystem: 'go', args: c.args.slice(1) };
  if (c.callee === 'gem' && a[0] === 'install') return { ecosystem: 'gem', args: c.args.slice(1) };
  if (c.callee === 'cargo' && a[0] === 'install') return { ecosystem: 'cargo', args: c.args.slice(1) };
  return null;
}

const PIP_VALUE_FLAGS =
  /^(-r|-c|-e|-i|-f|-t|--requirement|--constraint|--editable|--index-url|--extra-index-url|--find-links|--trusted-host|--target|--prefix|--root|--python|--platform|--python-version|--src|--cache-dir|--no-binary|--only-binary)$/;
const NPM_VALUE_FLAGS = /^(--registry|--prefix|-C|--cache|--tag|--workspace|-w|-p|--package|-v|--version)$/;

function sourceProblem(spec: string): { why: string; confidence: number } | null {
  const { host } = hostOf(spec);
  if (
    /^(git\+|git:|github:|gitlab:|bitbucket:)|\.git($|[@#])/.test(spec) ||
    (/^https?:/.test(spec) && /github\.com\/[^/]+\/[^/]+\/?$/.test(spec))
  ) {
    return PINNED_VCS.test(spec)
      ? null
      : { why: `installs from git without pinning a commit (${spec})`, confidence: 0.65 };
  }
  if (/^(https?|ftp):\/\//i.test(spec)) {
    if (isIpHost(host)) return { why: `installs from a raw IP address (${spec})`, confidence: 0.8 };
    if (PINNED_VCS.test(spec)) return null;
    return { why: `installs from a raw URL (${spec})`, confidence: 0.65 };
  }
  return null;
}

/** npx runs the version pinned by a package.json on its resolution path (the file's folder or a parent). */
function declaredBySkill(ctx: FileContext, pkg: string): boolean {
  const key = `"${pkg.replace(/@[^/@]*$/, '')}"`;
  const parts = ctx.file.path.split('/').slice(0, -1);
  const onPath = new Set(
    parts.map((_, i) => `${parts.slice(0, i + 1).join('/')}/package.json`).concat('package.json'),
  );
  return ctx.skill.files.some((f) => onPath.has(f.path) && (f.text ?? '').includes(key));
}

function isLocal(spec: string): boolean {
  return /^(\.{1,2}(\/|$)|\/|~|file:)|\.(whl|tar\.gz|tgz|zip)$/.test(spec) || spec === '.';
}

function packageHits(ctx: FileContext, c: Call, inst: InstallCommand): Hit[] {
  const hits: Hit[] = [];
  const unpinned: string[] = [];
  const a = inst.args;
  const versionFlag = a.some((v) => /^(-v|--version)(=|$)/.test(v.str ?? ''));
  for (let i = 0; i < a.length; i++) {
    const s = a[i]!.str ?? '';
    if (!s || s.includes('\u2026')) continue;
    const eq = /^(--[\w-]+)=(.*)$/.exec(s);
    const flag = eq?.[1] ?? s;
    const value = eq ? eq[2]! : (a[i + 1]?.str ?? '');
    if (
      inst.ecosystem === 'pip' &&
      /^(-i|--index-url|--extra-index-url|--trusted-host|-f|--find-links)$/.test(flag)
    ) {
      const { host } = hostOf(/^\w+:\/\//.test(value) ? value : `x://${value}`);
      if (host && !PUBLIC_INDEX.test(host) && !isLocal(value))
        hits.push(
          callHit(
            ctx,
            c,
            SC5,
            isIpHost(host) ? 0.8 : 0.7,
            `uses package index ${value}`,
            `Installs from custom index ${host}.`,
          ),
        );
      if (!eq) i++;
      continue;
    }
    if (inst.ecosystem === 'npm' && flag === '--registry') {
      const { host } = hostOf(value);
      if (host && !PUBLIC_INDEX.test(host))
        hits.push(
          callHit(ctx, c, SC5, 0.65, `uses registry ${value}`, `Installs from custom registry ${host}.`),
        );
      if (!eq) i++;
      continue;
    }
    if (s.startsWith('-')) {
      if (
        !eq &&
        ((inst.ecosystem === 'pip' && PIP_VALUE_FLAGS.test(s)) ||
          (inst.ecosystem !== 'pip' && NPM_VALUE_FLAGS.test(s)))
      ) {
        const v = a[i + 1]?.str ?? '';
        if (s === '-e' || s === '--editable') {
          const p = sourceProblem(v);
          if (p) hits.push(callHit(ctx, c, SC5, p.confidence, p.why));
        }
        i++;
      }
      continue;
    }
    const problem =
      sourceProblem(s) ??
      (inst.ecosystem === 'npm' && /^[\w.-]+\/[\w.-]+(#.*)?$/.test(s) && !s.startsWith('@')
        ? sourceProblem(`github:${s}`)
        : null);
    if (problem) {
      hits.push(callHit(ctx, c, SC5, problem.confidence, problem.why));
      continue;
    }
    // A URL or VCS source pinned to a commit or hash is pinned.
    if (/^(git\+|git:|github:|gitlab:|bitbucket:|https?:|ftp:)/.test(s)) continue;
    if (isLocal(s)) continue;
    if (inst.ecosystem === 'npx') {
      if (!/^@?[^@]+@\d/.test(s) && !declaredBySkill(ctx, s)) unpinned.push(s);
      break; // the first positional is the package; the rest are its arguments
    }
    const name = s.replace(/\[.*?\]/, '');
    if (TOOLING.test(name)) continue;
    const pinned =
      inst.ecosystem === 'pip'
        ? /(===?|~=)\s*[\w.*+!-]+/.test(name) || /<\s*[\d]/.test(name)
        : inst.ecosystem === 'go'
          ? /@v?\d/.test(name)
          : inst.ecosystem === 'gem' || inst.ecosystem === 'cargo'
            ? versionFlag
            : /^@?[^@]+@(?!latest$|next$|\*$|x$)[~^]?\d/.test(name);
    if (!pinned) unpinned.push(s);
  }
  if (unpinned.length > 0)
    hits.push(
      callHit(
        ctx,
        c,
        SC1,
        inst.ecosystem === 'npx' ? 0.5 : 0.6,
        `no pinned version for ${unpinned.join(', ')}`,
        `Installs ${unpinned.join(', ')} without a pinned version.`,
      ),
    );
  return hits;
}

function unverifiableHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    const inst = installCommand(c);
    if (inst) hits.push(...packageHits(ctx, c, inst));
    if (c.kind === 'command') {
      if (c.callee === 'unzip' && c.args.some((a) => /^-P/.test(a.str ?? '')))
        hits.push(
          callHit(
            ctx,
            c,
            SC5,
            0.75,
            'extracts a password-protected archive (its content was hidden from scanners)',
          ),
        );
      if (/^7z[ar]?$/.test(c.callee) && c.args.some((a) => /^-p./.test(a.str ?? '')))
        hits.push(callHit(ctx, c, SC5, 0.75, 'extracts a password-protected 7z archive'));
    } else if (
      /(^|\.)(extractall|extract|setpassword|open)$/.test(c.callee) &&
      (c.named.has('pwd') || /setpassword$/.test(c.callee)) &&
      /zip/i.test(c.callee + (c.receiver?.text ?? ''))
    )
      hits.push(callHit(ctx, c, SC5, 0.7, 'extracts a password-protected zip archive'));
  }
  for (const use of networkUses(model.calls)) {
    if (use.kind === 'http' && isIpHost(use.host) && !use.sends)
      hits.push(
        callHit(
          ctx,
          use.call,
          SC5,
          0.65,
          `downloads from a raw IP address (${use.host})`,
          `Downloads from raw IP ${use.host}.`,
        ),
      );
  }
  return hits;
}

// A hidden file in a temporary folder (/tmp/.cache-04, /dev/shm/.x): where a first stage leaves a second one.
const STAGED_PATH = /^(?:\/tmp|\/var\/tmp|\/dev\/shm)\/(?:[^\s"'`)]*\/)?\.[\w.-]+$/;
const STAGED_IN_TEXT = /["'`]((?:\/tmp|\/var\/tmp|\/dev\/shm)\/(?:[^\s"'`)]*\/)?\.[\w.-]+)["'`]/;

/**
 * Code run from a hidden file in a temporary folder that nothing in the file wrote (`exec(open("/tmp/.cache")
 * .read())`, `bash /dev/shm/.u`): a staged payload, whose content the skill does not show.
 */
function stagedPayloadHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    const path =
      c.kind === 'call' && isExecCallee(c.callee)
        ? c.args.map((a) => STAGED_IN_TEXT.exec(a.text)?.[1]).find((p) => p !== undefined)
        : c.kind === 'command' && INTERPRETERS.has(c.callee)
          ? codeArgs(c).find((a) => STAGED_PATH.test(a.str ?? ''))?.str
          : undefined;
    // `eval(compile(open(p).read()))` is one run of one file.
    if (!path || hits.some((h) => h.line === c.line) || writes(model, path, c)) continue;
    hits.push(
      callHit(
        ctx,
        c,
        SC2,
        0.8,
        `runs code from ${path}, a hidden file in a temporary folder that nothing here writes (a staged payload)`,
        `Runs a staged payload from ${path}.`,
      ),
    );
  }
  return hits;
}

// Commands that write a file named in their arguments; echo, printf and cat write one only through a redirect.
const WRITE_COMMAND = /^(?:cp|mv|tee|install|curl|wget|dd|unzip|tar|ln|rsync|scp)$/;

/** Some call up to `run` writes `path` (a redirect, a write call, a copy or download, `open(path, "w")`). */
function writes(model: CodeModel, path: string, run: Call): boolean {
  return model.calls.some(
    (o) =>
      o !== run &&
      o.line <= run.line &&
      (o.redirectTo === path ||
        (o.text.includes(path) &&
          (WRITE_CALL_RE.test(o.callee) ||
            (o.kind === 'command' && WRITE_COMMAND.test(o.callee)) ||
            (/^(?:open|io\.open|fs\.openSync)$/.test(o.callee) && /,\s*["'][wax]/.test(o.text))))),
  );
}

export function supplyChainHits(ctx: FileContext, model: CodeModel): Hit[] {
  return [...remoteCodeHits(ctx, model), ...stagedPayloadHits(ctx, model), ...unverifiableHits(ctx, model)];
}

export const supplyChainDetector = codeDetector('code-supply-chain', SUPPLY_CHAIN_RULES, supplyChainHits);
