import { builtinRule } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { quote } from '../text.js';
import { codeLanguage } from '../treesitter.js';

// SC3 for code that looks for the auditor: a scanner's or sandbox's name in the environment or the mounts, a
// tracer attached to the process, a virtual machine's hardware names, a sleep that returned too fast, a made-up
// host name that resolves to a documentation address. A check of that kind followed closely by an exit or a
// return is a script that behaves one way when watched and another when not (docs/verdicts.md).

export const ANALYSIS_PROBE_RULE = builtinRule('code.analysis-probe');

interface Probe {
  what: string;
  re: RegExp;
  confidence: number;
}

// Signs only an analysis environment shows; ordinary configuration (a payment provider's "sandbox" mode, CI)
// is not among them.
const PROBES: readonly Probe[] = [
  {
    what: "a scanner's or sandbox's name",
    re: /\b(?:SKILLAUDIT\w*|skillaudit|bwrap|bubblewrap|firejail|cuckoo|any\.run|joesandbox|hybrid-analysis)\b|\/newroot\b/i,
    confidence: 0.9,
  },
  {
    what: 'a tracer attached to the process',
    // Looking for a tracer, not running one: `sudo strace …` in a privilege-escalation note is no probe.
    re: /\bTracerPid\b|\bPTRACE_TRACEME\b|\bsys\.gettrace\s*\(\s*\)|\b(?:pgrep|pidof|grep)\s[^\n]*\b(?:strace|ltrace|gdb)\b/,
    confidence: 0.85,
  },
  {
    what: "a virtual machine's hardware names",
    re: /\/sys\/class\/dmi\/id\/(?:product_name|sys_vendor|board_vendor)|\b(?:VBoxService|vboxguest|vmtoolsd|VMware Virtual|QEMU Virtual)\b/,
    confidence: 0.75,
  },
  {
    what: 'a sleep that may have been skipped',
    re: /\b(?:time\.(?:time|monotonic|perf_counter)|Date\.now|performance\.now|date\s+\+%s)\s*\(?\)?\s*-\s*\w+\s*[<>]=?\s*[\d.]+/,
    confidence: 0.7,
  },
  {
    what: 'a made-up name that resolves to a documentation address',
    re: /['"`](?:192\.0\.2|198\.51\.100|203\.0\.113)\.|\b(?:gethostbyname|getaddrinfo|dns\.(?:resolve|lookup))\b[^\n]{0,120}(?:nonexist|doesnotexist|invalid|random|\d{6,})/i,
    confidence: 0.7,
  },
];

const COMMENT = /^\s*(?:#|\/\/|\*|<#)/;
// What a script does when it has found the auditor: stop, or go back without doing the rest.
const STOPS = /\b(?:sys\.exit|os\._exit|process\.exit|exit|return|quit|Exit-Script)\b/;
const WITHIN_LINES = 3;

function detectProbes(ctx: FileContext): Hit[] {
  const lines = ctx.text.split('\n');
  const hits: Hit[] = [];
  lines.forEach((line, i) => {
    if (COMMENT.test(line)) return;
    const probe = PROBES.find((p) => p.re.test(line));
    if (!probe) return;
    const window = lines.slice(i, i + 1 + WITHIN_LINES).filter((l) => !COMMENT.test(l));
    if (!window.some((l) => STOPS.test(l))) return;
    hits.push({
      rule: ANALYSIS_PROBE_RULE.id,
      line: i + 1,
      endLine: i + 1,
      evidence: quote(line.trim()),
      confidence: probe.confidence,
      rationale: `checks for ${probe.what}, then stops or returns`,
    });
  });
  return hits;
}

export const analysisProbeDetector: Detector = {
  name: 'code-analysis-probe',
  rules: [ANALYSIS_PROBE_RULE],
  appliesTo: (file) => file.text !== null && file.kind === 'script' && codeLanguage(file.language) !== null,
  detect: detectProbes,
};
