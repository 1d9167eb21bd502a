// Token estimate without a tokenizer dependency. BPE tokenizers average about four characters per token on
// English prose and code; CJK ideographs and kana are about one token each; other non-ASCII letters (Cyrillic,
// Greek, accented Latin) fall in between, about two characters per token. The estimate is for budgets, not
// billing: it is reported as an estimate.

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

export function estimateTokens(text: string): number {
  let ascii = 0;
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 128) ascii++;
    else if (CJK.test(ch)) cjk++;
    else other++;
  }
  return Math.ceil(ascii / 4) + cjk + Math.ceil(other / 2);
}
