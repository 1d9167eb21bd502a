// Scheme artifacts of the quality stage (docs/quality.md): paraphrased scenario instructions for
// intent-perturbation stability and out-of-scope requests for capability-boundary handling (seed 001 Table 11).
import type { BoundaryRequestType } from '../quality/index.js';
import type { SchemeNote } from './types.js';

export interface Paraphrase {
  /** s1-para1, s1-para2, …: safe as a folder name. */
  id: string;
  /** The scenario whose checklist, materials and rubric the paraphrase shares. */
  scenario: string;
  /** Agent-facing: the scenario's request in other words. */
  instruction: string;
}

export interface ParaphraseScheme {
  paraphrases: Paraphrase[];
  /** Paraphrases left out (leaking the skill, dropping a file name, identical to the original), with why. */
  dropped: SchemeNote[];
}

export interface BoundaryRequest {
  /** unrelated1, adversarial1, …: safe as a folder name. */
  id: string;
  type: BoundaryRequestType;
  /** Agent-facing: a request outside the skill's scope. */
  instruction: string;
}

export interface BoundaryScheme {
  requests: BoundaryRequest[];
  /** Requests left out as unusable (empty or too long), with why. */
  dropped: SchemeNote[];
}
