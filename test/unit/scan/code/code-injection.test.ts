// Code and SQL built from run-time input (arguments, stdin, a web request): eval/exec/new Function/vm of that
// input, and SQL text with it spliced in. Constants, ast.literal_eval, json.loads and parameterised queries are data.
import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

const cases: Case[] = [
  {
    name: 'python eval of an argument, exec of input() and of a file named by an argument',
    path: 'scripts/calc.py',
    text: 'import sys\nexpr = sys.argv[1]\nprint(eval(expr))\nexec(input("> "))\nexec(open(sys.argv[2]).read())\n',
    expect: [
      ['SC2', 3],
      ['SC2', 4],
      ['SC2', 5],
    ],
  },
  {
    name: 'flask request data run by exec',
    path: 'scripts/hook.py',
    text: 'from flask import Flask, request\napp = Flask(__name__)\n@app.post("/run")\ndef run():\n    exec(request.form["code"])\n    return "ok"\n',
    expect: [['SC2', 5]],
  },
  {
    name: 'javascript eval, new Function and vm.runInThisContext of argv',
    path: 'scripts/run.js',
    text: "const vm = require('vm');\nconst src = process.argv[2];\neval(src);\nnew Function('x', process.argv[3])(1);\nvm.runInThisContext(process.argv[4]);\n",
    expect: [
      ['SC2', 3],
      ['SC2', 4],
      ['SC2', 5],
    ],
  },
  {
    name: 'SQL built with an f-string, concatenation and % from arguments',
    path: 'scripts/users.py',
    text: [
      'import sqlite3, sys',
      'cur = sqlite3.connect("app.db").cursor()',
      'name = sys.argv[1]',
      'cur.execute(f"SELECT * FROM users WHERE name = \'{name}\'")',
      'cur.execute("DELETE FROM sessions WHERE id = " + sys.argv[2])',
      'q = "UPDATE users SET role = \'%s\' WHERE id = 1" % sys.argv[3]',
      'cur.execute(q)',
    ].join('\n'),
    expect: [
      ['SC2', 4],
      ['SC2', 5],
      ['SC2', 7],
    ],
  },
  {
    name: 'javascript SQL template with argv passed to client.query',
    path: 'scripts/q.mjs',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JS fixture text, not a template
    text: "import pg from 'pg';\nconst client = new pg.Client();\nconst id = process.argv[2];\nawait client.query(`SELECT * FROM orders WHERE customer = '${id}'`);\n",
    expect: [['SC2', 4]],
  },
  {
    name: 'no injection: literal_eval, json.loads, a constant eval and parameterised queries',
    path: 'scripts/safe.py',
    text: [
      'import ast, json, sqlite3, sys',
      'print(ast.literal_eval(sys.argv[1]))',
      'cfg = json.loads(open(sys.argv[2]).read())',
      'print(eval("1 + 2"))',
      'cur = sqlite3.connect("app.db").cursor()',
      'cur.execute("SELECT * FROM users WHERE name = ?", (sys.argv[3],))',
      'cur.execute("SELECT * FROM users WHERE name = %s", (sys.argv[3],))',
      'TABLE = "users"',
      'cur.execute(f"SELECT count(*) FROM {TABLE}")',
    ].join('\n'),
    absent: ['SC2'],
  },
  {
    name: 'no injection: a timer with a function, and a parameterised node query',
    path: 'scripts/safe.js',
    text: "const ms = Number(process.argv[2]);\nsetTimeout(() => console.log('done'), ms);\nawait db.query('SELECT * FROM t WHERE id = $1', [process.argv[3]]);\n",
    absent: ['SC2'],
  },
];

describe('code and SQL built from input', () => {
  for (const c of cases) it(c.name, () => check(c));
});
