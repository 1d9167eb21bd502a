import type { SeedFile } from '../sandbox/types.js';

// Node.js code that waits out a sandbox (`setTimeout(send, 45 * 60_000)`, `await sleep(3_600_000)` from
// timers/promises) reaches its payload within the run's few seconds, as the shell's sleep does through its shim
// (shims.ts) and Python's through sitecustomize. Only waits of a minute or more, set by code outside
// node_modules and /usr, are shortened (to 100 ms): a shorter timer is usually a network timeout or a retry
// pause, and cutting it, or a package manager's own, would abort the very request a run should observe.
// Required by NODE_OPTIONS in every run.

/** The preload, relative to HOME. */
export const NODE_TIMERS_FILE = '.local/lib/node-fallback/short-timers.cjs';

const PRELOAD = String.raw`'use strict';
const { promisify } = require('node:util');
const timers = require('node:timers');
const promises = require('node:timers/promises');
// Installed code (npm's five-minute fetch timeout) keeps its timers: only the caller's own code is hurried.
function installedCaller() {
  const frames = new Error().stack.split('\n').slice(1);
  const caller = frames.find((f) => !f.includes(__filename) && !/\(node:|at node:/.test(f)) || '';
  return /\/node_modules\/|(?:\(|\s|file:\/\/)\/usr\//.test(caller);
}
const shorten = (delay) => (typeof delay === 'number' && delay >= 60000 && !installedCaller() ? 100 : delay);
const realSleep = promises.setTimeout;
promises.setTimeout = (delay, ...rest) => realSleep(shorten(delay), ...rest);
for (const owner of [globalThis, timers]) {
  for (const name of ['setTimeout', 'setInterval']) {
    const real = owner[name];
    const short = function (callback, delay, ...rest) {
      return real.call(this, callback, shorten(delay), ...rest);
    };
    // promisify(setTimeout) is the promise form, shortened too.
    if (name === 'setTimeout') short[promisify.custom] = promises.setTimeout;
    owner[name] = short;
  }
}
require('node:module').syncBuiltinESMExports();
`;

export function nodeTimerSeedFiles(): SeedFile[] {
  return [{ path: `~/${NODE_TIMERS_FILE}`, content: PRELOAD }];
}
