import { parentPort, workerData } from 'node:worker_threads';
import type { Skill } from '../../core/types.js';
import { errorMessage } from '../../util/errors.js';
import { type ScanOptions, scanSkill } from '../engine/scan.js';

// One worker of the scan pool (scan-pool.ts): receives loaded skills, returns their scans in the order they
// came. Skills are scanned one at a time, so a crash is charged to the skill that caused it. Grammars load
// on first use: only the languages the skills hold are ever compiled.

const options = workerData as ScanOptions;
let queue = Promise.resolve();

parentPort?.on('message', (msg: { id: number; skill: Skill }) => {
  queue = queue.then(async () => {
    try {
      parentPort?.postMessage({ id: msg.id, scan: await scanSkill(msg.skill, options) });
    } catch (error) {
      parentPort?.postMessage({ id: msg.id, error: errorMessage(error) });
    }
  });
});
