import { parentPort } from 'node:worker_threads';
import type { Skill } from '../types.js';
import { errorMessage } from '../util/errors.js';
import { type ScanOptions, scanSkill } from './engine.js';
import { parseCode } from './treesitter.js';

// One worker of the scan pool: receives a loaded skill, returns its scan (see scan-source.ts). It compiles the
// common grammars as soon as it starts, so that this cost overlaps with intake on the main thread.
const warm = Promise.all(
  ['bash', 'python', 'javascript'].map((l) => parseCode(l, 'x').then((t) => t?.delete())),
);

parentPort?.on('message', async (msg: { index: number; skill: Skill; options: ScanOptions }) => {
  try {
    await warm;
    const scan = await scanSkill(msg.skill, msg.options);
    parentPort?.postMessage({ index: msg.index, scan });
  } catch (error) {
    parentPort?.postMessage({ index: msg.index, error: errorMessage(error) });
  }
});
