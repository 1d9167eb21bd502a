// Domain types shared by every stage (DESIGN section 3). Types only: no runtime code lives here.

export type Severity = 'high' | 'medium' | 'low';

export type FileKind = 'doc' | 'script' | 'data' | 'binary';

export interface SkillFile {
  /** Path relative to the skill root, always with forward slashes. */
  path: string;
  size: number;
  /** sha256 of the whole file; null when it was not read (limits, unreadable). */
  sha256: string | null;
  kind: FileKind;
  /** e.g. markdown, bash, python, javascript, typescript, powershell, json, yaml, toml, text; null when unknown. */
  language: string | null;
  /**
   * Decoded text for analysis (UTF-8, BOM stripped, CRLF kept as read), bounded by `maxReadBytes`.
   * Null for binary or unreadable files. Never serialised into reports.
   */
  text: string | null;
  /** True when `text` holds only the first `maxReadBytes` bytes of the file. */
  truncated: boolean;
}

/** A symlink found inside the skill: never followed, always recorded. */
export interface SkillLink {
  path: string;
  target: string;
  /** Whether the target resolves inside the skill root. Links are never followed either way. */
  inside: boolean;
}

export type DiagnosticLevel = 'error' | 'warning' | 'info';

/** A spec or intake observation about the skill (not a safety finding). */
export interface Diagnostic {
  code: string;
  level: DiagnosticLevel;
  message: string;
  file?: string;
  line?: number;
}

export type SourceKind = 'folder' | 'file' | 'zip' | 'tar' | 'git';

export interface Provenance {
  source: SourceKind;
  /** What the user passed (path or URL), without credentials. */
  uri: string;
  ref: string | null;
  commit: string | null;
  /** Path of this skill inside the source (folder, archive or repository), '.' for the root. */
  subdir: string;
  owner: string | null;
  category: string | null;
}

export interface Skill {
  /** sha256 over the normalised content (sorted file paths and their hashes). */
  id: string;
  name: string;
  description: string;
  frontmatter: Record<string, unknown>;
  /** 1-based line in SKILL.md of each top-level frontmatter key. */
  frontmatterLines: Record<string, number>;
  /** Markdown body of SKILL.md after the frontmatter. */
  body: string;
  /** 1-based line in SKILL.md where the body starts. */
  bodyStartLine: number;
  files: SkillFile[];
  links: SkillLink[];
  diagnostics: Diagnostic[];
  provenance: Provenance;
  /** Absolute path of the skill folder on disk; valid until the intake handle is disposed. */
  root: string;
  /** Name of the folder that holds SKILL.md (the spec requires `name` to match it). */
  folderName: string;
}

export type PatternId =
  | 'P1'
  | 'P2'
  | 'P3'
  | 'P4'
  | 'E1'
  | 'E2'
  | 'E3'
  | 'E4'
  | 'PE1'
  | 'PE2'
  | 'PE3'
  | 'SC1'
  | 'SC2'
  | 'SC3'
  | 'SC4'
  | 'SC5'
  | 'R1'
  | 'R2'
  | 'R3'
  | 'R4'
  | 'R5';

export type Family =
  | 'prompt_injection'
  | 'data_exfiltration'
  | 'privilege_escalation'
  | 'supply_chain'
  | 'robustness';

export interface Finding {
  /** Stable id: hash of rule, file, line and evidence. */
  id: string;
  pattern: PatternId;
  family: Family;
  severity: Severity;
  /** Existence confidence in [0, 1]. */
  confidence: number;
  file: string;
  line: number;
  endLine: number;
  /** The quoted text from the file (or the decoded hidden text, marked as such in `rationale`). */
  evidence: string;
  /** Detector rule id, e.g. `code.env-harvest`. */
  rule: string;
  message: string;
  rationale: string;
  /** Set when a baseline entry or an inline `skillaudit-ignore` comment accepted the finding. */
  suppressed?: { by: 'baseline' | 'inline'; reason: string };
  /** True in a document SKILL.md tells the agent to read: its text is the agent's instructions too. */
  inInstructions?: boolean;
}

export type VerdictKind =
  | 'confirmed'
  | 'suspected'
  | 'agent_refused'
  | 'path_exists_not_triggered'
  | 'likely_false_positive'
  | 'no_probe';

export interface Verdict {
  finding: string;
  kind: VerdictKind;
  exploitConfidence: number;
  evidence: string[];
}

export type SafetyStatus = 'pass' | 'caution' | 'risky';
