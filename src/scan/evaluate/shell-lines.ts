// How the evasion suite's shell rewrites (renamed identifiers, split literals) walk a script: line by line,
// leaving here-document bodies (data the script writes) and comment lines as written, and editing only what is
// outside single quotes.

const HEREDOC_OPEN = /<<(-?)\s*(['"]?)(\w+)\2/;

/** A shell script's lines, with null for the bodies of its here-documents. */
export function outsideHeredocs(code: string): (string | null)[] {
  let until: RegExp | null = null;
  return code.split('\n').map((line) => {
    if (until) {
      if (until.test(line)) until = null;
      return null;
    }
    const h = HEREDOC_OPEN.exec(line);
    if (h) until = new RegExp(`^${h[1] ? '\\t*' : ''}${h[3]}\\s*$`);
    return line;
  });
}

/**
 * A shell script with `edit` applied to each part of its code lines that lies outside single quotes (`first`
 * says the part starts its line). A line that opens a here-document is edited only with `openers`.
 */
export function editShell(
  code: string,
  edit: (part: string, first: boolean) => string,
  { openers = true }: { openers?: boolean } = {},
): string {
  const lines = code.split('\n');
  return outsideHeredocs(code)
    .map((line, i) => {
      if (line === null || /^\s*#/.test(line) || (!openers && HEREDOC_OPEN.test(line))) return lines[i]!;
      return line
        .split(/('[^']*')/)
        .map((part, j) => (j % 2 === 1 ? part : edit(part, j === 0)))
        .join('');
    })
    .join('\n');
}
