// E3: walking the home or root directory (or all users' homes) instead of the workspace.
import { callHit } from '../code/hits.js';
import type { Call, CodeModel, Value } from '../code/model.js';
import { WALK_CALL_RE, WALK_COMMANDS } from '../code/names.js';
import { candidates, normalisePath } from '../code/values.js';
import { codeDetector } from '../engine/code-detector.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';

export const FILESYSTEM_RULES = rulesDetectedBy('code-filesystem');

/** Broad roots: home itself, everything under it by wildcard, the file system root, all users' homes. */
const BROAD_ROOT =
  /^(~|\/|\/Users|\/home|\/root|[a-z]:|[a-z]:\/Users|\/Volumes|\/mnt)\/?(\*\*?(\/.*)?|\.\*)?$/i;

function broadPath(v: Value): string | null {
  for (const s of candidates(v)) {
    const p = normalisePath(s.trim());
    if (BROAD_ROOT.test(p)) return p;
  }
  return null;
}

function recursive(call: Call): boolean {
  if (call.kind === 'command') {
    if (/^(find|tree|du|locate|fd|get-childitem|gci|dir)$/.test(call.callee))
      return call.callee !== 'get-childitem' || call.args.some((a) => /^-rec/i.test(a.str ?? ''));
    return call.args.some((a) => /^-[a-zA-Z]*[rR]|^--recursive$/.test(a.str ?? ''));
  }
  return (
    /walk|rglob|readdir.*|glob/.test(call.callee) &&
    (!/listdir|scandir|iterdir|readdir/.test(call.callee) || call.named.get('recursive')?.str === 'true')
  );
}

export function filesystemHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    const walk = c.kind === 'command' ? WALK_COMMANDS.has(c.callee) : WALK_CALL_RE.test(c.callee);
    if (!walk) continue;
    const paths =
      c.kind === 'command'
        ? c.args.filter((a) => !(a.str ?? '').startsWith('-')).slice(0, 3)
        : [c.args[0], c.receiver].filter((v): v is Value => !!v);
    const root = paths.map(broadPath).find((p) => p !== null);
    if (!root) continue;
    const deep = recursive(c) || /\*\*/.test(root);
    hits.push(
      callHit(
        ctx,
        c,
        'code.fs-enumeration',
        deep ? 0.75 : 0.45,
        `${deep ? 'recursively walks' : 'lists'} ${root}`,
        `Enumerates ${root}.`,
      ),
    );
  }
  hits.push(...homeArchiveHits(ctx, model));
  return hits;
}

/** Folders of personal data under home (documents, photos, mail, synced drives, app settings). */
const PERSONAL_DIR =
  /^~\/(Documents|Desktop|Downloads|Pictures|Photos|Music|Movies|Videos|Library|Mail|\.mozilla|\.config|\.local|Dropbox|OneDrive[^/]*|iCloud[^/]*|Google Drive|AppData)(\/|$)/i;

/** Archive and sync tools with the index of the source operands: the words that are not the output. */
function archiveSources(call: Call): string[] | null {
  const words = call.args.map((a) => candidates(a)[0] ?? '');
  const operands: string[] = [];
  let skipNext = false;
  for (const w of words) {
    if (skipNext) {
      skipNext = false;
      continue;
    }
    // tar -czf OUT / tar czf OUT / zip -r OUT: the word after an f flag (or zip's first operand) is the output.
    if (
      /^-/.test(w) ||
      (call.callee === 'tar' && operands.length === 0 && /^[a-zA-Z]+$/.test(w) && /c/.test(w))
    ) {
      if (call.callee === 'tar' && /f/.test(w) && !w.startsWith('--')) skipNext = true;
      if (/^-(C|-directory|-exclude|X|T)$/.test(w)) skipNext = true;
      continue;
    }
    operands.push(w);
  }
  if (call.callee === 'tar')
    return call.args.some((a) => /^-?[a-zA-Z]*c/.test(a.str ?? '')) ? operands : null;
  if (call.callee === 'zip' || call.callee === '7z') return operands.slice(1);
  if (call.callee === 'rsync' || call.callee === 'compress-archive') return operands.slice(0, -1);
  return null;
}

/**
 * E3 for archives of personal data: `tar czf out.tgz ~/Documents ~/Desktop` or an archive of home itself
 * collects the user's files far beyond the project, like a walk of home does.
 */
function homeArchiveHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    if (c.kind !== 'command' || !/^(tar|zip|7z|rsync|compress-archive)$/.test(c.callee)) continue;
    const sources = (archiveSources(c) ?? []).map((w) => normalisePath(w.trim()));
    const home = sources.filter((p) => p === '~' || p === '~/' || p.startsWith('~/'));
    const personal = home.filter((p) => p === '~' || p === '~/' || PERSONAL_DIR.test(p));
    const spread = new Set(home.map((p) => p.split('/')[1] ?? '')).size;
    if (personal.length === 0 && spread < 3) continue;
    const shown = (personal.length ? personal : home).slice(0, 3).join(', ');
    hits.push(
      callHit(
        ctx,
        c,
        'code.fs-enumeration',
        personal.length ? 0.7 : 0.55,
        `archives ${shown} from the home directory`,
        `Archives personal folders: ${shown}.`,
      ),
    );
  }
  return hits;
}

export const filesystemDetector = codeDetector('code-filesystem', FILESYSTEM_RULES, filesystemHits);
