// The urls-in-config transformation of the evasion suite: every URL a script writes as a literal moved into a
// data file beside it (`endpoints.txt`, one URL a line) that the script reads at run time, the way real
// malware keeps its endpoints in configuration. The script sends to the same address; the address is no longer
// in the code.

const PY_URL = /(["'])(https?:\/\/[^"'\s]+)\1/g;
const JS_URL = /(["'`])(https?:\/\/[^"'`\s$]+)\1/g;
// In shell, a URL inside double quotes or bare (single-quoted text cannot hold a command substitution).
const SH_URL = /(")?(https?:\/\/[^"'\s;|&)]+)/g;

/** The script's expression for the k-th line of endpoints.txt beside it; null for a language it cannot read. */
function reader(path: string, k: number): string | null {
  if (/\.py$/i.test(path))
    return `open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'endpoints.txt')).read().split()[${k}]`;
  if (/\.(?:js|cjs)$/i.test(path))
    return `require('fs').readFileSync(require('path').join(__dirname, 'endpoints.txt'), 'utf8').split(/\\s+/)[${k}]`;
  if (/\.(?:sh|bash)$/i.test(path)) return `$(sed -n ${k + 1}p "$(dirname "$0")/endpoints.txt")`;
  return null;
}

/**
 * A script with its URL literals read from endpoints.txt, and that file's text; null when it holds no URL (or
 * already has an endpoints.txt beside it).
 */
export function urlsToConfig(path: string, code: string): { code: string; endpoints: string } | null {
  if (reader(path, 0) === null) return null;
  const urls: string[] = [];
  const at = (url: string) => {
    const i = urls.indexOf(url);
    return i >= 0 ? i : urls.push(url) - 1;
  };
  let out: string;
  if (/\.py$/i.test(path)) out = code.replace(PY_URL, (_, _q, url: string) => reader(path, at(url))!);
  else if (/\.(?:js|cjs)$/i.test(path))
    out = code.replace(JS_URL, (_, _q, url: string) => reader(path, at(url))!);
  else
    out = code
      .split('\n')
      .map((line) =>
        /^\s*#/.test(line) || line.includes("'")
          ? line
          : line.replace(
              SH_URL,
              (_, q: string | undefined, url: string) => `${q ?? ''}${reader(path, at(url))}`,
            ),
      )
      .join('\n');
  return urls.length ? { code: out, endpoints: `${urls.join('\n')}\n` } : null;
}
