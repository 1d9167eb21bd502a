import type { SeedFile } from '../sandbox/types.js';
import { PYTHON_LINE_TRACE } from './line-trace.js';
import { PYTHON_STAND_INS } from './module-stand-ins.js';
import { INSTALL_NOTE } from './shims.js';

// Fallback Python modules for the sandbox: scripts that import `requests` or `httpx` die at the import when the
// host's Python lacks them, before any of their code runs. These minimal stand-ins (the common call shapes,
// made with urllib, so traffic still goes to the sink) let the code run. They are appended to the END of
// sys.path by a sitecustomize module, so an installed requests or httpx always wins. They read nothing and
// send nothing on their own: every request they make is one the script asked for.

/** Where the fallbacks live, relative to HOME; PYTHONPATH points at SITE_DIR, which holds only sitecustomize. */
export const PY_SITE_DIR = '.local/lib/python-site';
const FALLBACK_DIR = '.local/lib/python-fallback';

const CLIENT = `import json as _json
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["get", "post", "put", "patch", "delete", "head", "request", "Session", "Client", "Response"]


class HTTPError(Exception):
    pass


RequestException = HTTPError
HTTPStatusError = HTTPError
ConnectionError = HTTPError
Timeout = HTTPError


class Response:
    def __init__(self, status, body, headers, url):
        self.status_code = status
        self.content = body
        self.headers = dict(headers or {})
        self.url = url
        self.ok = 200 <= status < 400

    @property
    def text(self):
        return self.content.decode("utf-8", "replace")

    def json(self, **kwargs):
        return _json.loads(self.text or "null")

    def raise_for_status(self):
        if not self.ok:
            raise HTTPError(f"{self.status_code} for {self.url}")
        return self

    def iter_content(self, chunk_size=8192, **kwargs):
        for i in range(0, len(self.content), chunk_size):
            yield self.content[i : i + chunk_size]

    def iter_lines(self, **kwargs):
        yield from self.content.splitlines()


def request(method, url, params=None, data=None, json=None, headers=None, files=None, timeout=None, **kwargs):
    headers = dict(headers or {})
    if params:
        url += ("&" if "?" in url else "?") + urllib.parse.urlencode(params, doseq=True)
    body = None
    if json is not None:
        body = _json.dumps(json).encode()
        headers.setdefault("Content-Type", "application/json")
    elif isinstance(data, dict):
        body = urllib.parse.urlencode(data, doseq=True).encode()
    elif isinstance(data, str):
        body = data.encode()
    elif data is not None:
        body = bytes(data) if not hasattr(data, "read") else data.read()
    if files:
        parts = []
        for name, value in (files.items() if isinstance(files, dict) else files):
            content = value[1] if isinstance(value, tuple) else value
            content = content.read() if hasattr(content, "read") else content
            parts.append(f"--x\\r\\nContent-Disposition: form-data; name=\\"{name}\\"\\r\\n\\r\\n".encode() + (content if isinstance(content, bytes) else str(content).encode()) + b"\\r\\n")
        body = b"".join(parts) + b"--x--\\r\\n" + (body or b"")
        headers["Content-Type"] = "multipart/form-data; boundary=x"
    req = urllib.request.Request(url, data=body, headers=headers, method=method.upper())
    try:
        with urllib.request.urlopen(req, timeout=timeout if isinstance(timeout, (int, float)) else 10) as r:
            return Response(r.status, r.read(), r.headers, url)
    except urllib.error.HTTPError as e:
        return Response(e.code, e.read() or b"", e.headers, url)
    except Exception as e:
        raise HTTPError(str(e)) from e


def get(url, **kw):
    return request("GET", url, **kw)


def post(url, **kw):
    return request("POST", url, **kw)


def put(url, **kw):
    return request("PUT", url, **kw)


def patch(url, **kw):
    return request("PATCH", url, **kw)


def delete(url, **kw):
    return request("DELETE", url, **kw)


def head(url, **kw):
    return request("HEAD", url, **kw)


class Session:
    def __init__(self, *args, base_url="", headers=None, **kwargs):
        self.headers = dict(headers or {})
        self.base_url = str(base_url)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        pass

    def request(self, method, url, headers=None, **kw):
        return request(method, self.base_url + url, headers={**self.headers, **(headers or {})}, **kw)

    def get(self, url, **kw):
        return self.request("GET", url, **kw)

    def post(self, url, **kw):
        return self.request("POST", url, **kw)

    def put(self, url, **kw):
        return self.request("PUT", url, **kw)

    def delete(self, url, **kw):
        return self.request("DELETE", url, **kw)


Client = Session
`;

// Every pip run (`pip install`, `python3 -m pip`, a virtualenv's bin/pip started from a script) does what the
// npm shim does (shims.ts): pip is allowed to install (PEP 668), and an install that cannot complete offline says
// so on stderr (INSTALL_NOTE) and returns success, so the script goes on. pip's entry point is wrapped as its
// module loads, whichever interpreter or console script starts it.
const PIP_INSTALLS = `
import importlib.abc as _pip_abc


class _PipInstalls(_pip_abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "pip._internal.cli.main":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                real_exec = spec.loader.exec_module

                def exec_module(module, _real=real_exec):
                    _real(module)
                    real_main = module.main

                    def main(args=None):
                        argv = list(sys.argv[1:] if args is None else args)
                        os.environ["PIP_BREAK_SYSTEM_PACKAGES"] = "1"
                        code = real_main(args)
                        if code and "install" in argv:
                            sys.stderr.write("\\n" + (${JSON.stringify(INSTALL_NOTE)} + "pip " + " ".join(argv))[:300] + "\\n")
                            return 0
                        return code

                    module.main = main

                spec.loader.exec_module = exec_module
                return spec
        return None


sys.meta_path.insert(0, _PipInstalls())
`;

// sitecustomize also shortens time.sleep: code that waits out a sandbox (time.sleep(1800) before its payload)
// reaches the payload within the run's few seconds, as the shell's sleep does through its shim (shims.ts). The
// clocks read through the time module then move on by what the sleep skipped, so code that times its own sleep
// sees it slept (datetime and C extensions read the clock directly: they do not). Under libfaketime's later clock
// a short real sleep can fail with EINVAL; the sleep is skipped, never the script.
// And it stands in for third-party modules that are not installed (module-stand-ins.ts says why and when).
const SITECUSTOMIZE = `# Fallback modules (requests, httpx) at the end of sys.path, after anything installed.
import os
import sys
import time as _time

sys.path.append(os.path.join(os.path.expanduser("~"), "${FALLBACK_DIR}"))


def _clock_shift():
    skipped = [0.0]
    real_sleep = _time.sleep
    real_monotonic = _time.monotonic

    def sleep(seconds):
        # Anything but a non-negative number gets Python's own error.
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0:
            return real_sleep(seconds)
        due = real_monotonic() + skipped[0] + seconds
        try:
            real_sleep(min(seconds, 0.01))
        except OSError:
            pass
        # The clock moves to where the sleep would have ended, never back (threads sleep at once).
        skipped[0] = max(skipped[0], due - real_monotonic())

    def shifted(real, scale):
        def clock():
            return real() + (int(skipped[0] * scale) if scale != 1 else skipped[0])

        clock.__name__ = real.__name__
        clock.__doc__ = real.__doc__
        return clock

    sleep.__name__ = real_sleep.__name__
    sleep.__doc__ = real_sleep.__doc__
    _time.sleep = sleep
    for name in ("time", "monotonic", "perf_counter"):
        setattr(_time, name, shifted(getattr(_time, name), 1))
    for name in ("time_ns", "monotonic_ns", "perf_counter_ns"):
        setattr(_time, name, shifted(getattr(_time, name), 1_000_000_000))


_clock_shift()
${PIP_INSTALLS}${PYTHON_STAND_INS}${PYTHON_LINE_TRACE}`;

export function pythonFallbackSeedFiles(): SeedFile[] {
  return [
    { path: `~/${PY_SITE_DIR}/sitecustomize.py`, content: SITECUSTOMIZE },
    { path: `~/${FALLBACK_DIR}/requests/__init__.py`, content: CLIENT },
    {
      path: `~/${FALLBACK_DIR}/requests/exceptions.py`,
      content: 'from . import HTTPError, RequestException, ConnectionError, Timeout\n',
    },
    { path: `~/${FALLBACK_DIR}/httpx/__init__.py`, content: CLIENT },
  ];
}
