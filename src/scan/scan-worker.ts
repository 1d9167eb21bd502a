import { parentPort } from 'node:worker_threads';
import type { Skill } from '../types.js';
import { errorMessage } from '../util/errors.js';
import { type ScanOptions, scanSkill } from './engine.js';

// One worker of the scan pool: receives a loaded skill, returns its scan (see scan-source.ts).
parentPort?.on('message', async (msg: { index: number; skill: Skill; options: ScanOptions }) => {
  try {
    const scan = await scanSkill(msg.skill, msg.options);
    parentPort?.postMessage({ index: msg.index, scan });
  } catch (error) {
    parentPort?.postMessage({ index: msg.index, error: errorMessage(error) });
  }
});
