import type { SkillFile } from '../core/types.js';

// A Makefile is shell in its recipes: each line that starts with a tab is a command make hands to /bin/sh (after
// its own `@`, `-` and `+` prefixes, with `$$` for a shell `$`). Read as that shell, at the same line numbers, a
// payload in a `setup:` target is code like any script's.

/** The recipe lines of a Makefile as the shell sees them; every other line left empty, so lines keep their numbers. */
export function recipeShell(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line.startsWith('\t')
        ? line
            .slice(1)
            .replace(/^[@+-]+/, '')
            .replaceAll('$$', '$')
        : '',
    )
    .join('\n');
}

/** A Makefile as the shell file its recipes make: what the code detectors read. */
export function asRecipeShell(file: SkillFile): SkillFile {
  return file.language === 'make' && file.text !== null
    ? { ...file, language: 'bash', text: recipeShell(file.text) }
    : file;
}
