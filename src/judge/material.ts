import { dataBlock } from '../schemes/index.js';

// What the judge may see of a trial, bounded, and the exact text shown per source: evidence quotes are
// verified against what the judge saw, not against the whole (possibly larger) trial.

export interface TrialMaterial {
  /** The agent's final message. */
  finalMessage: string;
  /** Output files of the working directory (text only). */
  files: { path: string; content: string }[];
  /** Trajectory excerpts, one per step (tool call and result), oldest first. */
  trajectory: string[];
}

export interface MaterialBudget {
  finalMessageChars: number;
  fileChars: number;
  filesChars: number;
  stepChars: number;
  trajectoryChars: number;
}

export const DEFAULT_MATERIAL_BUDGET: MaterialBudget = {
  finalMessageChars: 20_000,
  fileChars: 20_000,
  filesChars: 80_000,
  stepChars: 2_000,
  trajectoryChars: 30_000,
};

export interface RenderedMaterial {
  /** The delimited blocks for the prompt. */
  text: string;
  /** Source name (`final_message`, `file:<path>`, `trajectory`) → the text shown for it. */
  shown: Map<string, string>;
}

export function renderMaterial(
  material: TrialMaterial,
  budget: MaterialBudget = DEFAULT_MATERIAL_BUDGET,
): RenderedMaterial {
  const shown = new Map<string, string>();
  const blocks: string[] = [];
  const finalMessage = material.finalMessage.slice(0, budget.finalMessageChars);
  shown.set('final_message', finalMessage);
  blocks.push(dataBlock('final_message', finalMessage));
  let room = budget.filesChars;
  const omitted: string[] = [];
  for (const f of [...material.files].sort((a, b) => a.path.localeCompare(b.path))) {
    const take = Math.min(f.content.length, budget.fileChars, room);
    if (take <= 0 && f.content.length > 0) {
      omitted.push(f.path);
      continue;
    }
    const content = f.content.slice(0, take);
    room -= take;
    shown.set(`file:${f.path}`, content);
    blocks.push(
      dataBlock('output_file', content, { path: f.path, ...(take < f.content.length ? { cut: 'yes' } : {}) }),
    );
  }
  if (omitted.length > 0)
    blocks.push(dataBlock('output_file', omitted.join('\n'), { path: '(files not shown)' }));
  // The latest steps matter most (the outcome), so the trajectory is cut from the front.
  const steps: string[] = [];
  let left = budget.trajectoryChars;
  for (let i = material.trajectory.length - 1; i >= 0 && left > 0; i--) {
    const step = (material.trajectory[i] as string).slice(0, Math.min(budget.stepChars, left));
    steps.unshift(step);
    left -= step.length;
  }
  const trajectory = steps.join('\n---\n');
  shown.set('trajectory', trajectory);
  blocks.push(dataBlock('trajectory', trajectory, { steps: String(steps.length) }));
  return { text: blocks.join('\n'), shown };
}
