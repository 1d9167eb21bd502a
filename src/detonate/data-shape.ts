import type { Skill } from '../core/types.js';

// What a skill's scripts read out of the data they parse: the string keys they index an API's JSON answer, an
// input CSV row or a JSON document with (`resp["channels"]`, `row.get("amount")`, `data.items`, `jq '.items[]'`)
// and how each key is used next (iterated, indexed further, used as a number or as text). Read from the script
// text, never run. The sink answers this skill's API calls with an object holding those keys, and its sample
// CSV and JSON inputs carry them, so a script gets past `KeyError: 'channels'` (which the real service would
// never cause) to what it does next. The values are plain and harmless: no secret, and links only to the service
// the skill names (or example.com).

export type KeyUse = 'list' | 'object' | 'number' | 'text';
/**
 * Key → how the scripts use it, in the order the keys first appear; `literals`: the string a text key is compared
 * with (`event["tool_name"] == "Bash"`), its value, so the branch the code singles out is the one that runs.
 */
export type DataShape = ReadonlyMap<string, KeyUse> & { readonly literals?: ReadonlyMap<string, string> };

const RANK: Record<KeyUse, number> = { text: 0, number: 1, object: 2, list: 3 };
const MAX_KEYS = 200;
/** Keys in a shaped object, all levels counted (about 25 bytes of JSON each): nesting stops before this. */
const MAX_ENTRIES = 1_000;

const KEY = String.raw`[A-Za-z_][\w-]{0,39}`;
// `x["key"]`, `x['key']`, `` x[`key`] `` after a name, a call or another index (not a list literal `["a", "b"]`).
const SUBSCRIPT = new RegExp(String.raw`(?<=[\w)\]])[ \t]*\[[ \t]*(["'\`])(${KEY})\1[ \t]*\]`, 'g');
// `x.get("key")` (Python dicts, JS Maps alike).
const GET_CALL = new RegExp(String.raw`\.get\([ \t]*(["'])(${KEY})\1`, 'g');
// JavaScript property chains on a value named like parsed data: `data.items`, `res.body.user.name`.
const DATA_CHAIN =
  /\b(?:data|json|body|res|resp|response|result|results|payload|item|row|record|entry|obj|parsed|doc|msg|event|info|meta|page)((?:\??\.[A-Za-z_]\w{0,39})+)/g;
// A jq filter: `jq -r '.items[].name'`.
const JQ_FILTER = /\bjq\b[^|\n'"]*(['"])([^'"\n]{1,200})\1/g;
const JQ_PATH = /\.([A-Za-z_]\w{0,39})(\[\])?/g;

// Receivers whose keys are not data: the environment, headers, arguments, the interpreter's own tables. (A config
// is data: a config file the run is given, missing-files.ts, gets its keys.)
const NOT_DATA_RECEIVER =
  /(?:environ|\benv|getenv|headers|cookies|argv|kwargs|modules|globals\(\)|locals\(\)|__dict__|\bargs)\s*(?:\.get\(\s*)?$/i;
// Properties and methods that name no field of the data.
const NOT_A_FIELD = new Set(
  'length then catch json text headers status statusText ok toString map filter forEach reduce push slice split trim keys values entries includes indexOf join sort find some every get set has body arrayBuffer blob'.split(
    ' ',
  ),
);

const LIST_AFTER =
  /^(?:[ \t]*\[[ \t]*(?:-?\d|[A-Za-z_]\w*[ \t]*\])|\??\.(?:append|extend|insert|map|filter|forEach|reduce|some|every|find|findIndex|flatMap|length|sort|reverse|push|pop|shift|concat|indexOf)\b)/;
const OBJECT_AFTER = /^(?:[ \t]*\[[ \t]*["'`]|\??\.(?:items|keys|values|get|update|setdefault|copy)\s*\()/;
const TEXT_AFTER =
  /^\??\.(?:lower|upper|strip|lstrip|rstrip|split|startswith|endswith|replace|encode|toLowerCase|toUpperCase|trim|startsWith|endsWith|padStart|padEnd|substring|casefold|title)\s*\(/;
const PROPERTY_AFTER = /^\??\.[A-Za-z_]\w*(?![\w(])/;
const NUMBER_AFTER = /^[ \t]*(?:[-*/%]|[<>]=?|\+[ \t]*[\d(])[ \t]*[\w.(]/;
// The expression a key is read from, up to the key: `slack("list", limit=100)`, `data.pages[0]`, `resp`.
const RECEIVER = String.raw`[\w.]*(?:\([^()\n]*\))?(?:\[[^\]\n]*\])*[\w.?]*`;
// Iterated (`for c in x["k"]`, `for (const c of data.k)`, `len(x["k"])`, spread): a list.
const LIST_BEFORE = new RegExp(
  String.raw`(?:\bfor\s+[\w\s,()]+?\s+in\s+|\bof\s+|\b(?:len|sorted|enumerate|reversed|zip|Array\.from)\(\s*|\.\.\.\s*)${RECEIVER}$`,
);
const NUMBER_BEFORE = new RegExp(
  String.raw`(?:\b(?:float|int|Number|parseFloat|parseInt|round|abs|Decimal|math\.\w+)\(\s*|(?<![=-])(?:[-*/%]|[<>]=?)[ \t]*)${RECEIVER}$`,
);

function useAt(text: string, start: number, end: number): KeyUse | null {
  const after = text.slice(end, end + 48);
  if (OBJECT_AFTER.test(after)) return 'object';
  if (LIST_AFTER.test(after)) return 'list';
  if (TEXT_AFTER.test(after)) return 'text';
  if (PROPERTY_AFTER.test(after)) return 'object';
  const before = text.slice(Math.max(0, start - 160), start);
  if (LIST_BEFORE.test(before)) return 'list';
  if (NUMBER_AFTER.test(after) || NUMBER_BEFORE.test(before)) return 'number';
  return null;
}

class ShapeBuilder {
  readonly keys = new Map<string, KeyUse | null>();
  readonly literals = new Map<string, string>();

  add(key: string, use: KeyUse | null): void {
    // ALL_CAPS keys are constants and environment names, not fields of parsed data.
    if (/^[A-Z0-9_]+$/.test(key) || (!this.keys.has(key) && this.keys.size >= MAX_KEYS)) return;
    const had = this.keys.get(key) ?? null;
    if (!this.keys.has(key) || (use && (!had || RANK[use] > RANK[had]))) this.keys.set(key, use);
  }

  compared(key: string, literal: string): void {
    if (this.keys.has(key) && !this.literals.has(key)) this.literals.set(key, literal);
  }

  shape(): DataShape {
    const shape = new Map([...this.keys].map(([k, use]) => [k, use ?? defaultUse(k)]));
    return Object.assign(shape, { literals: this.literals });
  }
}

// Compared with a string literal: `== "Bash"`, `!== 'push'`, `in ("Bash", "Shell")`.
const COMPARED = /^[ \t]*(?:===?|!==?|(?:not[ \t]+)?in[ \t]*[[(])[ \t]*(["'])([^"'\n\\]{1,60})\1/;

// The rest of a `.get("key"` call: its default, if a plain literal, then the closing parenthesis.
const GET_REST =
  /^[ \t]*(?:,[ \t]*(\{[ \t]*\}|\[[ \t]*\]|-?\d[\d.]*|""|''|None|null|undefined|True|False|true|false)[ \t]*)?\)/;

/** How a `.get` call's value is used: its default says (`.get("items", [])`), else what follows the call. */
function getUse(text: string, start: number, end: number): KeyUse | null {
  const rest = GET_REST.exec(text.slice(end, end + 40));
  if (!rest) return useAt(text, start, end);
  const dflt = rest[1] ?? '';
  if (dflt.startsWith('{')) return 'object';
  if (dflt.startsWith('[')) return 'list';
  if (/^-?\d/.test(dflt)) return 'number';
  return useAt(text, start, end + rest[0].length);
}

function readKeys(text: string, into: ShapeBuilder): void {
  for (const re of [SUBSCRIPT, GET_CALL]) {
    for (const m of text.matchAll(re)) {
      const start = m.index;
      const receiver = text.slice(Math.max(0, start - 40), start);
      if (NOT_DATA_RECEIVER.test(receiver)) continue;
      const keyEnd = start + m[0].length;
      // After a `.get(...)` call, what follows its closing parenthesis says how the value is used.
      const end =
        re === GET_CALL ? keyEnd + (GET_REST.exec(text.slice(keyEnd, keyEnd + 40))?.[0].length ?? 0) : keyEnd;
      into.add(m[2]!, re === GET_CALL ? getUse(text, start, keyEnd) : useAt(text, start, end));
      const literal = COMPARED.exec(text.slice(end, end + 80));
      if (literal) into.compared(m[2]!, literal[2]!);
    }
  }
  for (const m of text.matchAll(DATA_CHAIN)) {
    const names = m[1]!.split(/\??\./).filter(Boolean);
    let at = m.index + m[0].length - m[1]!.length;
    for (const [i, name] of names.entries()) {
      at = text.indexOf(name, at) + name.length;
      if (NOT_A_FIELD.has(name) || text[at] === '(') break;
      into.add(name, i < names.length - 1 ? 'object' : useAt(text, at - name.length, at));
    }
  }
  for (const m of text.matchAll(JQ_FILTER)) {
    for (const p of m[2]!.matchAll(JQ_PATH)) into.add(p[1]!, p[2] ? 'list' : null);
  }
}

const memo = new WeakMap<Skill, DataShape>();

/** The keys the skill's scripts (and SKILL.md's code) read from parsed data, with their use. */
export function dataShape(skill: Skill): DataShape {
  let shape = memo.get(skill);
  if (!shape) {
    const builder = new ShapeBuilder();
    for (const f of skill.files) {
      if (f.text !== null && (f.kind === 'script' || f.path === 'SKILL.md')) readKeys(f.text, builder);
    }
    shape = builder.shape();
    memo.set(skill, shape);
  }
  return shape;
}

/** Keys read from one text: for tests and callers without a skill. */
export function shapeOfText(text: string): DataShape {
  const builder = new ShapeBuilder();
  readKeys(text, builder);
  return builder.shape();
}

const COUNT_NAME =
  /(?:^|_)(?:count|total|amount|price|cost|size|num|number|qty|quantity|score|age|limit|offset|page|port|width|height|duration|seconds|ms|bytes|rate|ratio|percent|index|level|balance|value)s?$|Count$|Total$|Amount$|Size$/i;

// Plural names of things that come as a record each: `details`, `settings`; and words that only look plural.
const RECORD_PLURAL =
  /(?:details|settings|options|params|parameters|headers|metadata|attributes|properties|stats|labels?Map)$/i;
const NOT_PLURAL = /(?:ss|us|is|ics|news|series|ies_at|has|was|does)$/i;

/** How a key nothing in the code says more about is most likely used: a collection's name is a list. */
function defaultUse(key: string): KeyUse {
  if (COUNT_NAME.test(key)) return 'number';
  if (RECORD_PLURAL.test(key)) return 'object';
  if (/[a-z]s$/.test(key) && !NOT_PLURAL.test(key)) return 'list';
  return 'text';
}

/**
 * A plain value for a key used as text or a number. Flags that end a loop end it (`has_more` false, `next_cursor`
 * null), errors are absent, a field named like a date, time, URL, e-mail or id looks like one.
 */
export function leafValue(
  key: string,
  use: 'text' | 'number',
  /** The host a link points to: the service the skill names, as its API's links would. */
  host = 'example.com',
): string | number | boolean | null {
  if (use === 'number') return 1;
  if (/^(?:error|errors|err|exception|fault)$/i.test(key)) return null;
  if (/^(?:ok|success|successful|enabled|active|valid|done|completed|finished)$/i.test(key)) return true;
  if (/^(?:has_?more|more|truncated|is_?truncated|has_?next(?:_?page)?)$/i.test(key)) return false;
  if (
    /^(?:next|next_?cursor|cursor|next_?page(?:_?token)?|page_?token|next_?link|@?odata\.next_?link|next_?url|continuation(?:_?token)?|after|scroll_?id)$/i.test(
      key,
    )
  )
    return null;
  if (/url|uri|href|link|endpoint/i.test(key)) return `https://${host}/sample`;
  if (/email/i.test(key)) return 'user@example.com';
  if (/(?:^|_)(?:date|day|due|deadline)$|Date$/.test(key)) return '2026-01-05';
  if (/(?:_at|At|_time|Time)$|^(?:time|timestamp|created|updated|modified)$/.test(key))
    return '2026-01-05T10:00:00+00:00';
  if (key === 'ts') return '1767607200.000100';
  if (/(?:^|_)id$|Id$|^uuid$/i.test(key)) return '1001';
  if (key === 'status') return 'success';
  return 'sample';
}

function objectAt(shape: DataShape, depth: number, maxDepth: number, host?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, use] of shape) {
    if (use === 'list') out[key] = depth < maxDepth ? [objectAt(shape, depth + 1, maxDepth, host)] : [];
    else if (use === 'object') out[key] = depth < maxDepth ? objectAt(shape, depth + 1, maxDepth, host) : {};
    else out[key] = (use === 'text' && shape.literals?.get(key)) || leafValue(key, use, host);
  }
  return out;
}

/** Entries of a shaped object nested `depth` levels, without building it (it can grow as containers^depth). */
function entriesAt(shape: DataShape, depth: number): number {
  const containers = [...shape.values()].filter((u) => u === 'list' || u === 'object').length;
  let total = 0;
  for (let level = 0, width = 1; level <= depth; level++, width *= containers) total += shape.size * width;
  return total;
}

/**
 * An object holding every key of the shape, whose lists hold one such object and whose objects are one, nested
 * as deep as stays under MAX_ENTRIES (three levels at most): a response's `data.items[0].owner.login` is there.
 */
export function shapedObject(shape: DataShape, host?: string): Record<string, unknown> {
  let depth = 3;
  while (depth > 0 && entriesAt(shape, depth) > MAX_ENTRIES) depth--;
  return objectAt(shape, 0, depth, host);
}

/**
 * What the sink answers this skill's API calls with: a success envelope holding the keys its scripts read. Its
 * links point to `host`, the service the skill names (a download it follows goes where the skill said it would),
 * else example.com.
 */
export function apiAnswer(shape: DataShape, host?: string): string {
  const shaped = shapedObject(shape, host);
  const envelope = { ok: true, status: 'success', data: shape.size > 0 ? shaped : {} };
  return JSON.stringify({ ...envelope, ...shaped });
}

/** Leaf keys of the shape (fields a CSV row could hold), at most `max`. */
export function leafKeys(shape: DataShape, max: number): [string, 'text' | 'number'][] {
  const out: [string, 'text' | 'number'][] = [];
  for (const [key, use] of shape) {
    if (use === 'text' || use === 'number') out.push([key, use]);
    if (out.length >= max) break;
  }
  return out;
}

// Code that reads its standard input: a hook's JSON event (`json.load(sys.stdin)`), a piped document.
const READS_STDIN =
  /\bjson\.loads?\(\s*sys\.stdin|sys\.stdin\.(?:read|buffer)|\bfor\s+\w+\s+in\s+sys\.stdin\b|\bfileinput\.input\(|process\.stdin\b|readFileSync\(\s*(?:0\s*[,)]|['"]\/dev\/stdin['"]|process\.stdin\.fd)|Deno\.stdin|\$\(\s*cat\s*\)|\bcat\s+-\s*[|)]/;

/**
 * The standard input of a run: a JSON document holding every key the skill reads when the code it runs reads its
 * standard input (a hook's event, a piped answer), so it gets past `json.load(sys.stdin)`; else nothing.
 */
export function stdinFor(skill: Skill, entry: { origin: { file: string }; argv: readonly string[] }): string {
  const readers = skill.files.filter(
    (f) => f.kind === 'script' && f.text !== null && READS_STDIN.test(f.text),
  );
  const command = entry.argv.join(' ');
  const reads = readers.some(
    (f) =>
      f.path === entry.origin.file ||
      (entry.origin.file === 'SKILL.md' && command.includes(basename(f.path))),
  );
  if (!reads) return '';
  const shape = dataShape(skill);
  return `${shape.size > 0 ? JSON.stringify(shapedObject(shape)) : GENERIC_DOCUMENT}\n`;
}

const GENERIC_DOCUMENT = '{"name": "sample", "text": "sample", "items": []}';

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
