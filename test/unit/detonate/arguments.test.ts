import { describe, expect, it } from 'vitest';
import type { SkillFile } from '../../../src/core/types.js';
import { inferInvocations } from '../../../src/detonate/arguments.js';

// Command lines read from a script's own argument handling, with plausible values by argument name.

const values = {
  file: (hint: string) => `/in/sample.${/csv/.test(hint) ? 'csv' : 'txt'}`,
  output: '/in/output.txt',
  dir: '/in',
};
const run = (language: string, text: string) =>
  inferInvocations({ path: 'x', kind: 'script', language, text } as unknown as SkillFile, values).map((i) =>
    i.args.join(' '),
  );

describe('inferInvocations', () => {
  it('argparse subparsers with their own required arguments, and top-level required options', () => {
    const text = [
      'p = argparse.ArgumentParser()',
      'p.add_argument("--config", required=True)',
      'p.add_argument("--verbose", action="store_true")',
      's = p.add_subparsers()',
      'imp = s.add_parser("import")',
      'imp.add_argument("csv_file")',
      'imp.add_argument("--out", required=True)',
      's.add_parser("stats")',
    ].join('\n');
    expect(run('python', text)).toEqual([
      '--config sample import /in/sample.csv --out /in/output.txt',
      '--config sample stats',
    ]);
  });

  it('click and typer commands, with click arguments', () => {
    const text = [
      '@cli.command()',
      "@click.argument('path')",
      "@click.option('--n', default=1)",
      'def sync_all(path, n):',
      '    pass',
      '',
      '@app.command("upload-now")',
      'async def upload():',
      '    pass',
    ].join('\n');
    expect(run('python', text)).toEqual(['sync-all /in/sample.txt', 'upload-now']);
  });

  it('commander and yargs commands with required arguments, and argv comparisons', () => {
    const text = [
      "program.command('send <url> [note]').action(send);",
      "yargs.command({ command: 'clean', handler });",
      'const mode = process.argv[2];',
      "if (mode === 'daemon') start();",
    ].join('\n');
    expect(run('javascript', text)).toEqual(['send https://example.com/', 'clean', 'daemon']);
  });

  it('getopts options with values, `[ "$1" = x ]` tests, and help words left out', () => {
    const text = ['while getopts "hvi:o:" opt; do :; done', 'if [ "$1" = "purge" ]; then :; fi'].join('\n');
    expect(run('bash', text)).toEqual(['purge', '-v -i /in/sample.txt -o /in/output.txt']);
  });

  it('usage lines when no parser is recognised', () => {
    expect(run('ruby', 'puts "usage: tool.rb {pull,push,help}"')).toEqual(['pull', 'push']);
    expect(run('perl', 'die "Usage: $0 (start|stop)\\n";')).toEqual(['start', 'stop']);
  });

  it('shell positional parameters by their names, after each subcommand too', () => {
    const text = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, meant literally
      'engine="${1:?engine}"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, meant literally
      'db="${2:?database}"',
      'dest=$3',
      'case "$engine" in',
      '  postgres) pg_dump "$db" > "$dest" ;;',
      '  mysql) mysqldump "$db" > "$dest" ;;',
      'esac',
    ].join('\n');
    expect(run('bash', text)).toEqual([
      'sample /in/sample.txt /in/output.txt',
      'postgres /in/sample.txt /in/output.txt',
      'mysql /in/sample.txt /in/output.txt',
    ]);
    // One optional positional is not worth a run of its own.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, meant literally
    expect(run('bash', 'name="${1:-world}"\necho "hi $name"')).toEqual([]);
  });

  it("a usage line's required positionals, each with a value by its name or file type", () => {
    const text =
      "if (process.argv.length < 4) { console.error('usage: gen.js <report.csv> <out-dir> <limit>'); }";
    expect(run('javascript', text)).toEqual(['/in/sample.csv /in/output.txt 3']);
    const options = "console.error('usage: translate.js <file> --to <lang> [--glossary <csv>]');";
    expect(run('javascript', options)).toEqual(['/in/sample.txt --to en --glossary /in/sample.csv']);
  });

  it('a placeholder made of parts is one argument of plain words: <owner>/<repo>, <host>:<port>', () => {
    const text = "console.error('usage: post.ts <owner>/<repo> <pr-number> <review.json>'); process.exit(2);";
    expect(run('typescript', text)).toEqual(['owner/repo 3 /in/sample.txt']);
    expect(run('javascript', "console.log('usage: probe.js <host>:<port>')")).toEqual(['example.com:3']);
  });
});
