import type { SkillFile } from '../core/types.js';

// Functions a script defines but never calls itself are called from somewhere else: SKILL.md's instructions,
// another script that imports the module, the agent. Running the file alone never reaches them, so a harness
// loads the file (its module-level code runs as on import) and calls each such function, one by one. Required parameters get plausible values (by annotation, else a sample file for a
// file-like name, else a word). A function that raises is reported on stderr and the harness exits 1, so the run never
// counts as completed. The harness is fixed code passed to the interpreter; the script path is its argument.

const PYTHON_HARNESS = `
import inspect, runpy, sys
path, sample = sys.argv[1], sys.argv[2]
sys.argv = [path]
ns = runpy.run_path(path, run_name="skill_module")
FILEISH = ("file", "path", "input", "src", "source", "doc", "image")
def value(p):
    kind = p.annotation if p.annotation is not p.empty else None
    if kind in (int, "int"): return 3
    if kind in (float, "float"): return 1.0
    if kind in (bool, "bool"): return True
    if kind in (list, "list"): return []
    if kind in (dict, "dict"): return {}
    return sample if any(w in p.name.lower() for w in FILEISH) else "sample"
failed = False
for name, fn in list(ns.items()):
    if not inspect.isfunction(fn) or fn.__code__.co_filename != path:
        continue
    required = [p for p in inspect.signature(fn).parameters.values()
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    try:
        result = fn(*[value(p) for p in required])
        if inspect.iscoroutine(result):
            import asyncio
            asyncio.run(result)
    except BaseException as exc:
        failed = True
        print(f"{name}: {type(exc).__name__}: {exc}", file=sys.stderr)
sys.exit(1 if failed else 0)
`;

const NODE_HARNESS = `
const path = process.argv[1];
const { pathToFileURL } = await import('node:url');
let mod;
try { mod = await import(pathToFileURL(path).href); } catch { mod = { default: (await import('node:module')).createRequire(path)(path) }; }
const seen = new Set();
let failed = false;
for (const source of [mod, mod.default]) {
  if (!source || (typeof source !== 'object' && typeof source !== 'function')) continue;
  for (const [name, fn] of Object.entries(source)) {
    if (typeof fn !== 'function' || seen.has(fn) || /^class\\b/.test(Function.prototype.toString.call(fn))) continue;
    seen.add(fn);
    try { await fn(...Array.from({ length: fn.length }, () => 'sample')); } catch (error) { failed = true; console.error(name + ': ' + (error?.message ?? error)); }
  }
}
process.exitCode = failed ? 1 : 0;
`;

/** Top-level function names the file defines and never names again (so nothing in it calls them). */
export function uncalledFunctions(file: SkillFile): string[] {
  const text = file.text ?? '';
  const defs =
    file.language === 'python'
      ? [...text.matchAll(/^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/gm)].map((m) => m[1]!)
      : file.language === 'javascript'
        ? [
            ...text.matchAll(
              /^(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>/gm,
            ),
          ].map((m) => (m[1] ?? m[2])!)
        : [];
  const count = (name: string) =>
    text.match(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ?? 0;
  // Named once (its definition) or only in an export list: nothing in the file calls it.
  return defs.filter((name) => {
    const n = count(name);
    const exported = new RegExp(
      `(?:module\\.exports|exports)[^\\n]*\\b${name}\\b|export\\s*\\{[^}]*\\b${name}\\b`,
    ).test(text);
    return n === 1 || (exported && n === 2);
  });
}

/** The argv that loads `script` and calls its uncalled functions, or null for a language without a harness. */
export function harnessArgv(
  file: SkillFile,
  interpreter: string[],
  script: string,
  sampleFile: string,
): string[] | null {
  if (file.language === 'python') return [...interpreter, '-c', PYTHON_HARNESS, script, sampleFile];
  if (file.language === 'javascript')
    return [interpreter[0]!, '--input-type=module', '-e', NODE_HARNESS, script];
  return null;
}
