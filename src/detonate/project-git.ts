import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { SeedFile } from '../sandbox/types.js';

// The project is a git repository, as a developer's project is: a short history with a release tag, a staged edit,
// a remote. Scripts that act only inside a work tree (`git rev-parse --is-inside-work-tree || exit`), on the staged
// diff or on the commits since the last release (`git describe --tags --abbrev=0`) otherwise stop at that guard
// before their payload. Written here as git's own files (loose objects, an index),
// so no git runs on the host and the repository is the same on every run.

const AUTHOR = 'Dana Reyes <dana@acme-dashboard.dev>';
const HEAD_TIME = 1764500000;
const DAY = 86_400;

/** An earlier commit of the project: its message, its files, and the tag it was released as. */
export interface EarlierCommit {
  message: string;
  files: Record<string, string>;
  tag?: string;
}

function sha1(data: Buffer): Buffer {
  return createHash('sha1').update(data).digest();
}

/** A loose object: its id and its file under .git/objects. */
function object(type: string, body: Buffer, out: SeedFile[]): Buffer {
  const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const id = sha1(raw);
  const hex = id.toString('hex');
  const path = `.git/objects/${hex.slice(0, 2)}/${hex.slice(2)}`;
  if (!out.some((f) => f.path === path)) out.push({ path, content: deflateSync(raw) });
  return id;
}

/** Tree objects for `files` (paths under one folder), subfolders first written; returns the root tree's id. */
function tree(files: Map<string, Buffer>, out: SeedFile[]): Buffer {
  const entries = new Map<string, { mode: string; id: Buffer }>();
  const folders = new Map<string, Map<string, Buffer>>();
  for (const [path, id] of files) {
    const slash = path.indexOf('/');
    if (slash < 0) {
      entries.set(path, { mode: '100644', id });
      continue;
    }
    const name = path.slice(0, slash);
    const inner = folders.get(name) ?? new Map<string, Buffer>();
    inner.set(path.slice(slash + 1), id);
    folders.set(name, inner);
  }
  for (const [name, inner] of folders) entries.set(name, { mode: '40000', id: tree(inner, out) });
  // git orders tree entries by name, a folder's name compared as if it ended in '/'.
  const key = (name: string, mode: string) => (mode === '40000' ? `${name}/` : name);
  const sorted = [...entries].sort(([a, x], [b, y]) => (key(a, x.mode) < key(b, y.mode) ? -1 : 1));
  const body = Buffer.concat(
    sorted.map(([name, e]) => Buffer.concat([Buffer.from(`${e.mode} ${name}\0`), e.id])),
  );
  return object('tree', body, out);
}

/** A version 2 index listing `files` (path → blob id and size), in git's path order. */
function index(files: [string, Buffer, number][]): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write('DIRC', 0);
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(files.length, 8);
  parts.push(header);
  for (const [path, id, size] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // ctime, mtime, dev, ino: zero, so git re-reads the file once and refreshes them; mode 100644; uid, gid 0.
    const fixed = Buffer.alloc(62);
    fixed.writeUInt32BE(0o100644, 24);
    fixed.writeUInt32BE(size, 36);
    id.copy(fixed, 40);
    fixed.writeUInt16BE(Math.min(path.length, 0xfff), 60);
    const name = Buffer.from(path);
    // Each entry is padded with 1-8 NULs to a multiple of eight bytes.
    const pad = 8 - ((62 + name.length) % 8);
    parts.push(fixed, name, Buffer.alloc(pad));
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, sha1(body)]);
}

/**
 * The project's .git folder as seed files: `committed` is the last commit's content (`message`), `earlier` the
 * commits before it, oldest first, a day apart; `staged` the edits in the index (and the work tree) on top of it.
 */
export function projectGitSeedFiles(
  committed: Record<string, string>,
  staged: Record<string, string>,
  message: string,
  earlier: readonly EarlierCommit[] = [],
): SeedFile[] {
  const out: SeedFile[] = [];
  const blob = (text: string) => object('blob', Buffer.from(text), out);
  const tags: SeedFile[] = [];
  let parent: Buffer | null = null;
  const commitOf = (files: Record<string, string>, text: string, age: number): Buffer => {
    const root = tree(new Map(Object.entries(files).map(([p, t]) => [p, blob(t)])), out);
    const who = `${AUTHOR} ${HEAD_TIME - age * DAY} +0000`;
    const parentLine: string = parent ? `parent ${parent.toString('hex')}\n` : '';
    parent = object(
      'commit',
      Buffer.from(`tree ${root.toString('hex')}\n${parentLine}author ${who}\ncommitter ${who}\n\n${text}\n`),
      out,
    );
    return parent;
  };
  for (const [i, c] of earlier.entries()) {
    const id = commitOf(c.files, c.message, earlier.length - i);
    if (c.tag) tags.push({ path: `.git/refs/tags/${c.tag}`, content: `${id.toString('hex')}\n` });
  }
  const commit = commitOf(committed, message, 0);
  const head = new Map(Object.entries(committed).map(([p, t]) => [p, blob(t)]));
  const work = { ...committed, ...staged };
  const listed = Object.entries(work).map(([p, t]): [string, Buffer, number] => [
    p,
    head.has(p) && !(p in staged) ? head.get(p)! : blob(t),
    Buffer.byteLength(t),
  ]);
  out.push(
    { path: '.git/HEAD', content: 'ref: refs/heads/main\n' },
    { path: '.git/refs/heads/main', content: `${commit.toString('hex')}\n` },
    {
      path: '.git/config',
      content:
        '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n' +
        '[remote "origin"]\n\turl = https://github.com/acme-dashboard/acme-dashboard.git\n' +
        '\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n',
    },
    { path: '.git/description', content: 'acme-dashboard\n' },
    ...tags,
    { path: '.git/index', content: index(listed) },
  );
  return out;
}
