// Lexing helpers for strace's output: C-escaped strings and top-level argument lists.
// strace prints bytes as C escapes (\n, \", \\, \xHH, and octal \NNN with 1-3 digits); decoded to latin1
// so every byte survives and offsets match the original payload.

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  v: '\v',
  f: '\f',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  '"': '"',
  "'": "'",
  '\\': '\\',
};

/** Decodes the inside of a strace string literal (without the quotes) into a latin1 string. */
export function decodeStraceString(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[i + 1]!;
    if (next === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 2, i + 4));
      if (hex) {
        out += String.fromCharCode(Number.parseInt(hex[0], 16));
        i += 1 + hex[0].length;
        continue;
      }
    }
    const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      out += String.fromCharCode(Number.parseInt(octal[0], 8) & 0xff);
      i += octal[0].length;
      continue;
    }
    out += SIMPLE_ESCAPES[next] ?? next;
    i += 1;
  }
  return out;
}

/** Every string literal in `text`, decoded, in order. A trailing `...` (strace truncation) is ignored. */
export function stringLiterals(text: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(decodeStraceString(m[1]!));
  return out;
}

/**
 * Splits `a, {b, c}, "d, e"` into top-level arguments, respecting brackets and string literals.
 * Unbalanced input (truncated lines) yields what was seen so far.
 */
export function splitArgs(text: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== '') args.push(last);
  return args;
}

/** Index of the parenthesis closing the one opened just before `from`, or -1. */
export function closingParen(text: string, from: number): number {
  let depth = 1;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
