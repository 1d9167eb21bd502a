import type { SeedFile } from '../sandbox/types.js';
import { reportPrefix } from './instrument-report.js';

// Stand-ins for third-party modules the sandbox lacks. A script that imports `yaml`, `boto3` or `slack_sdk`
// dies at its first line when the module is not installed, so none of its code is observed. An import that
// would have failed instead gets an inert object: every attribute, call, index or iteration gives another
// inert object (or nothing), so the script's own code runs on. A stand-in reads nothing and sends nothing: any
// file, network or credential activity a run shows is the script's own. What the real module would have done
// did not happen, so a run that used one never counts as complete (signals.ts): it can confirm what the
// script's own code did, never lower a finding.
// Only imports that would have crashed get one: imports from the standard library, from installed packages'
// own code, and (Python) imports inside a try block that handles the failure keep their ImportError, so an
// optional dependency's fallback still runs. Each stand-in is reported on the instruments' channel
// (instrument-report.ts), once.

const STAND_IN_NOTE = reportPrefix('stand-in');

/** Where the Node.js preload lives, relative to HOME; NODE_OPTIONS requires it. */
export const NODE_STAND_IN_FILE = '.local/lib/node-fallback/stand-ins.cjs';

// Appended to sitecustomize (python-fallbacks.ts). The finder is last on sys.meta_path, so it is asked only
// after every installed package and the requests/httpx fallbacks said no.
export const PYTHON_STAND_INS = `
import ast as _ast
import importlib.abc as _abc
import importlib.machinery as _machinery

_STAND_IN_NOTE = "${STAND_IN_NOTE}"


class _StandInType(type):
    def __getattr__(cls, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _member(attr)


class _StandIn(str, metaclass=_StandInType):
    # An empty string underneath, so code that hands the result to re, os.path or a format gets a string.
    def __new__(cls, *args, **kwargs):
        return str.__new__(cls, "")

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return _StandIn()

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _member(attr)

    def __getitem__(self, key):
        return _StandIn()

    def __setitem__(self, key, value):
        pass

    def __iter__(self):
        return iter(())

    def __bool__(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False

    def __await__(self):
        return iter(())

    def __int__(self):
        return 0

    __index__ = __int__

    def __float__(self):
        return 0.0

    def __format__(self, spec):
        try:
            return format(0, spec)
        except (TypeError, ValueError):
            return ""

    # Arithmetic gives back the real operand (date - relativedelta(...) stays a date), so real types flow on.
    def _other(self, other):
        return other

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _other
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _other

    def __lt__(self, other):
        return False

    __le__ = __gt__ = __ge__ = __lt__


_classes = {}


def _member(attr):
    # Exception names stay catchable, class names stay subclassable; anything else is an inert object.
    if attr.endswith(("Error", "Exception", "Warning")):
        return _classes.setdefault(attr, type(attr, (Exception,), {}))
    if attr[:1].isupper():
        return _classes.setdefault(attr, type(attr, (_StandIn,), {}))
    return _StandIn()


_sources = {}


def _guarded(filename, lineno):
    # Whether the import at filename:lineno sits in a try block with a handler (an optional dependency).
    if filename not in _sources:
        try:
            with open(filename, encoding="utf-8", errors="replace") as f:
                _sources[filename] = [
                    (n.body[0].lineno, n.body[-1].end_lineno)
                    for n in _ast.walk(_ast.parse(f.read()))
                    if isinstance(n, _ast.Try) and n.handlers
                ]
        except Exception:
            _sources[filename] = []
    return any(start <= lineno <= end for start, end in _sources[filename])


def _importer():
    f = sys._getframe(2)
    while f is not None and ("importlib" in f.f_code.co_filename or f.f_code.co_filename == __file__):
        f = f.f_back
    return f


_LIBRARY_DIRS = tuple({sys.prefix, sys.base_prefix, "/usr/lib", "/usr/local/lib"})


class _StandInLoader(_abc.Loader):
    def create_module(self, spec):
        return None

    def get_code(self, fullname):
        # \`python -m tool\` of a stand-in runs an empty program: the step is skipped, the script goes on.
        return compile("", "<" + fullname + ">", "exec")

    def exec_module(self, module):
        module.__getattr__ = _member
        module.__path__ = []
        module.__all__ = []


class _StandInFinder(_abc.MetaPathFinder):
    def __init__(self):
        self.stood_in = set()

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top != name:
            if top not in self.stood_in:
                return None
            # runpy runs a package's __main__, which must not be a package itself.
            return _machinery.ModuleSpec(name, _LOADER, is_package=not name.endswith(".__main__"))
        if top in sys.stdlib_module_names or top.startswith("_"):
            return None
        f = _importer()
        if f is not None:
            filename = f.f_code.co_filename
            # \`python -m tool\` (runpy looks the module up while sys.argv[0] is "-m") gets a stand-in like an import.
            if filename.endswith(("runpy.py", "<frozen runpy>")) and sys.argv[:1] == ["-m"]:
                pass
            # Frozen modules (site's optional usercustomize) and installed code keep their ImportError.
            elif filename.startswith(_LIBRARY_DIRS + ("<frozen",)) or "-packages/" in filename:
                return None
            elif not filename.startswith("<") and _guarded(filename, f.f_lineno):
                return None
        self.stood_in.add(top)
        sys.stderr.write("\\n" + _STAND_IN_NOTE + name + "\\n")
        sys.stderr.flush()
        return _machinery.ModuleSpec(name, _LOADER, is_package=True)


_LOADER = _StandInLoader()
sys.meta_path.append(_StandInFinder())
`;

// Required by NODE_OPTIONS in every run. CommonJS: a require of a bare name that fails, from code outside
// node_modules, gets a stand-in. ES modules: a resolve hook (NODE_HOOKS, its own file) does the same for
// `import`, and the stand-in module exports the names the importing file asks for, so linking succeeds.
// String.raw keeps the sources' backslashes; they use no template literals of their own.
const NODE_STAND_INS = String.raw`'use strict';
const Module = require('node:module');
const { pathToFileURL } = require('node:url');
const NOTE = ${JSON.stringify(STAND_IN_NOTE)};
const ID = 'optional-module:';
const announced = new Set();

function standIn(thenable) {
  return new Proxy(function () {}, {
    get(target, key) {
      // Awaiting a stand-in gives a plain one, which is not thenable, so await ends.
      if (key === 'then') return thenable ? (ok) => Promise.resolve(ok ? ok(standIn(false)) : standIn(false)) : undefined;
      if (key === Symbol.toPrimitive || key === 'toString' || key === 'valueOf') return () => '';
      if (key === Symbol.iterator) return function* () {};
      if (key === Symbol.asyncIterator) return async function* () {};
      if (key === 'prototype') return target.prototype;
      if (key === '__esModule') return false;
      if (typeof key === 'symbol') return undefined;
      return standIn(true);
    },
    apply: () => standIn(true),
    construct: () => standIn(true),
    set: () => true,
  });
}
globalThis[Symbol.for(ID)] = standIn;

function announce(name) {
  if (announced.has(name)) return;
  announced.add(name);
  process.stderr.write('\n' + NOTE + name + '\n');
}

const bare = (name) => !/^(\.|\/|node:|file:|data:)/.test(name) && !Module.isBuiltin(name);
const ownCode = (file) => !file || !/\/node_modules\/|^\/usr\//.test(file);
// NODE_OPTIONS runs this preload in the ES module hooks' thread too, where Node's resolver asks CommonJS for an
// error hint: the stand-ins and the hooks belong to the main thread only.
const { MessageChannel, isMainThread } = require('node:worker_threads');
const resolveFilename = Module._resolveFilename;
if (isMainThread) Module._resolveFilename = function (request, parent, ...rest) {
  try {
    return resolveFilename.call(this, request, parent, ...rest);
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND' || !bare(request) || !ownCode(parent && parent.filename)) throw error;
    const id = ID + request;
    if (!Module._cache[id]) {
      announce(request);
      const m = new Module(id, null);
      m.loaded = true;
      m.exports = standIn(true);
      Module._cache[id] = m;
    }
    return id;
  }
};

if (typeof Module.register === 'function' && isMainThread) {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', announce);
  port1.unref();
  Module.register(pathToFileURL(__dirname + '/stand-in-hooks.mjs'), {
    data: { port: port2 },
    transferList: [port2],
  });
}
`;

const NODE_HOOKS = String.raw`import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';

const ID = 'optional-module:';
const posted = new Set();
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const parent = context.parentURL || '';
    const bare = !/^(\.|\/|node:|file:|data:)/.test(specifier) && !isBuiltin(specifier);
    if (error.code !== 'ERR_MODULE_NOT_FOUND' || !bare || /\/node_modules\/|^file:\/\/\/usr\//.test(parent)) throw error;
    if (!posted.has(specifier)) port.postMessage(specifier);
    posted.add(specifier);
    return { url: ID + encodeURIComponent(specifier) + '#' + encodeURIComponent(parent), shortCircuit: true };
  }
}

// The names the importing file takes from the module: import { a, b as c } from 'name'.
function importedNames(parentURL, name) {
  let source = '';
  try {
    source = readFileSync(fileURLToPath(parentURL), 'utf8');
  } catch {
    return [];
  }
  const names = new Set();
  const re = /import\s*(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of source.matchAll(re)) {
    if (m[2] !== name) continue;
    for (const part of m[1].split(',')) {
      const n = part.trim().split(/\s+as\s+/)[0].trim();
      if (/^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default') names.add(n);
    }
  }
  return [...names];
}

export async function load(url, context, next) {
  if (!url.startsWith(ID)) return next(url, context);
  const [name, parent] = url.slice(ID.length).split('#').map(decodeURIComponent);
  const lines = ['const s = globalThis[Symbol.for(' + JSON.stringify(ID) + ')](true);', 'export default s;'];
  for (const n of importedNames(parent, name)) lines.push('export const ' + n + ' = s.' + n + ';');
  return { format: 'module', shortCircuit: true, source: lines.join('\n') };
}
`;

/** The Node.js preload and its ES module hooks as seed files (Python's stand-ins ride in sitecustomize). */
export function nodeStandInSeedFiles(): SeedFile[] {
  return [
    { path: `~/${NODE_STAND_IN_FILE}`, content: NODE_STAND_INS },
    { path: `~/${NODE_STAND_IN_FILE.replace(/[^/]+$/, 'stand-in-hooks.mjs')}`, content: NODE_HOOKS },
  ];
}
