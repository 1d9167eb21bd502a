// Code and queries built from run-time input: eval/exec/new Function/vm of what the script is given (its
// arguments, stdin, a web request), and SQL text with that input spliced in. The agent fills a skill's
// arguments from whatever it is reading, so such a script runs code or queries written by anyone who can put
// text in front of the agent. SC2 (External Script Fetching): the code that runs is not the code reviewed.
// Fetched content that is run is code.remote-code; literal constants, ast.literal_eval and json.loads are data.
import { callHit } from '../code/hits.js';
import type { Call, CodeModel, Value } from '../code/model.js';
import { T, UNKNOWN } from '../code/model.js';
import { isExecCallee } from '../code/script.js';
import { codeDetector } from '../engine/code-detector.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';

export const INJECTION_RULES = rulesDetectedBy('code-injection');

/** Executors whose code is a string argument (not a function: `setTimeout(fn, ms)` runs fn). */
function codeArg(call: Call): Value | undefined {
  if (/^(setTimeout|setInterval)$/.test(call.callee)) {
    const a = call.args[0];
    return a && /^["'`]/.test(a.text.trim()) ? a : undefined;
  }
  // new Function(a, b, body): the last argument is the body.
  if (/^(new )?Function(\(\))?$/.test(call.callee)) return call.args[call.args.length - 1];
  if (/^(importlib\.import_module|types\.FunctionType)$/.test(call.callee)) return undefined;
  return call.args[0];
}

function evalHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    if (c.kind !== 'call' || c.origin || !isExecCallee(c.callee)) continue;
    const code = codeArg(c);
    // Fetched content run as code is reported by code.remote-code.
    if (!code?.taint.has(T.INPUT) || code.taint.has(T.FETCHED)) continue;
    const from = code.taint.lineOf(T.INPUT) ?? c.line;
    hits.push(
      callHit(
        ctx,
        c,
        'code.eval-input',
        0.55,
        `input the script receives (line ${from}) is run as code by ${c.callee}()`,
        `Run-time input is executed as code by ${c.callee}().`,
        from < c.line && c.line - from <= 5 ? { line: from, endLine: c.endLine } : undefined,
      ),
    );
  }
  return hits;
}

/** Methods that run a SQL statement given as their first argument (DB-API, sqlite3, pg, mysql, knex.raw). */
const SQL_RUNNER =
  /(^|\.)(execute|executemany|executescript|exec_driver_sql|query|raw|prepare|exec|run|all)$/;
/**
 * Constant SQL text: a statement keyword and the clause it works on. The blanks after an opening parenthesis
 * belong to it (`\s*\(?\s*` split a run of blanks every way: quadratic), which matches the same texts.
 */
const SQL_TEXT =
  /^\s*(?:\(\s*)?(select|insert|update|delete|replace|merge|with|drop|alter|create|truncate)\b[\s\S]*\b(from|into|set|table|where|values|by)\b/i;

/** The SQL text of an argument when it is a statement with holes for run-time values. */
function builtSql(arg: Value): string | null {
  const s = arg.str;
  if (s === null || !SQL_TEXT.test(s)) return null;
  // `%` formatting keeps its template (the holes are its conversion specifiers); `.format` and f-strings leave
  // unknown parts where run-time values go.
  return s.includes(UNKNOWN) || /%[sdr]/.test(s) ? s : null;
}

function sqlHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    if (c.kind !== 'call' || c.origin || !SQL_RUNNER.test(c.callee)) continue;
    const sql = c.args[0];
    // Parameters passed beside the statement (execute(sql, params)) leave its text free of input.
    if (!sql?.taint.has(T.INPUT | T.FETCHED) || !builtSql(sql)) continue;
    const bit = sql.taint.has(T.INPUT) ? T.INPUT : T.FETCHED;
    const from = sql.taint.lineOf(bit) ?? c.line;
    hits.push(
      callHit(
        ctx,
        c,
        'code.sql-from-input',
        0.45,
        `${bit === T.INPUT ? 'input the script receives' : 'data fetched from the network'} (line ${from}) is formatted into the SQL text run by ${c.callee}()`,
        'Run-time input is spliced into a SQL statement.',
      ),
    );
  }
  return hits;
}

export function injectionHits(ctx: FileContext, model: CodeModel): Hit[] {
  return [...evalHits(ctx, model), ...sqlHits(ctx, model)];
}

export const injectionDetector = codeDetector('code-injection', INJECTION_RULES, injectionHits);
