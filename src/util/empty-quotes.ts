/**
 * Text with the empty quotes a shell drops taken out of words: `scripts/i''nstall.sh` names scripts/install.sh,
 * `bas''e64` runs base64, `"$HOME/.z""shrc"` is ~/.zshrc. Lines keep their numbers. Shared by the scan (which
 * script a line names, a start-up file a loop appends to) and the verdict (the evidence its indicators read).
 */
export function withoutEmptyQuotes(text: string): string {
  return text.includes("''") || text.includes('""')
    ? text.replace(/(?<=[\w./~-])(?:''|"")(?=[\w./~-])/g, '')
    : text;
}
