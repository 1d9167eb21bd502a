import { scanSkill } from '../../../../src/scan/engine/scan.js';
import { decisiveIndicator } from '../../../../src/score/verdict-features.js';
import { makeSkill } from '../prose/make-skill.js';

/** A skill made of `files` scanned whole: its status, the decisive indicator that set it, and its findings. */
export async function scanOf(files: Record<string, string>) {
  const { findings, status } = await scanSkill(makeSkill(files));
  return { status, decisive: decisiveIndicator(findings)?.def.id, findings };
}
