import type { MarkdownDoc } from '../core/markdown.js';
import type { Rule } from '../core/rule.js';
import type { Skill, SkillFile } from '../core/types.js';

/** Confidence from which a rule's own severity replaces its pattern's (below it the reading is doubtful). */
export const RULE_SEVERITY_FROM = 0.5;

/** One match of a rule in one file. */
export interface Hit {
  rule: string;
  /** 1-based inclusive line range in `file`. */
  line: number;
  endLine: number;
  /** Exact text quoted from the file (trimmed, at most a few lines), or the decoded hidden text. */
  evidence: string;
  /** Existence confidence in [0, 1]: how sure the detector is that the risk is present as an instruction or code path that runs. */
  confidence: number;
  /** Why this confidence: the context that raised or lowered it. */
  rationale: string;
  /** Optional override of the rule message with specifics (e.g. the host or variable). */
  message?: string;
}

/** What a detector sees for one file. */
export interface FileContext {
  skill: Skill;
  file: SkillFile;
  /** The file's text (never null here: detectors only see text files). */
  text: string;
  /**
   * True when the agent runs this file's code: a script SKILL.md (or a script it runs) invokes, or a document it
   * reads as its instructions (SKILL.md, a guide it follows), whose code blocks it carries out.
   */
  reachable: boolean;
  /** Hostnames the skill declares in its name, description or body (its documented APIs). */
  declaredHosts: ReadonlySet<string>;
  /** When `text` is a program of several files (code/program.ts): the file a line of it comes from. */
  fileOf?: (line: number) => string | null;
}

export interface Detector {
  /** Short name for logs and benchmarks. */
  name: string;
  rules: readonly Rule[];
  /** Which files this detector reads. */
  appliesTo(file: SkillFile): boolean;
  /** Pure: returns hits, never throws on hostile input (the engine still guards each call). */
  detect(ctx: FileContext): Hit[] | Promise<Hit[]>;
}

/** A markdown document as the detectors that read its structure take it (prerequisite lures, exfiltration steps). */
export interface ReadDocument {
  doc: MarkdownDoc;
  text: string;
  starts: readonly number[];
  skill: Skill;
  path: string;
  /** SKILL.md, or a guide it tells the agent to follow: its topic headings do not quote its instructions. */
  agentRead: boolean;
}
