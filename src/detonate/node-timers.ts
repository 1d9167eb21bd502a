import type { SeedFile } from '../sandbox/types.js';

// Node.js code that waits out a sandbox (`setTimeout(send, 45 * 60_000)`, `await sleep(3_600_000)` from
// timers/promises) reaches its payload within the run's few seconds, as the shell's sleep does through its shim
// (shims.ts) and Python's through sitecustomize. Only waits of a minute or more, set by code outside
// node_modules and /usr, are shortened (to 100 ms): a shorter timer is usually a network timeout or a retry
// pause, and cutting it, or a package manager's own, would abort the very request a run should observe. When a
// shortened wait ends, Date.now() and performance.now() move on by what it skipped, so code that times its own
// wait sees it waited (\`new Date()\` reads the clock directly: it does not).
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
let skipped = 0;
const realNow = Date.now;
Date.now = function now() {
  return realNow() + skipped;
};
const { performance } = require('node:perf_hooks');
const realPerfNow = performance.now.bind(performance);
performance.now = function now() {
  return realPerfNow() + skipped;
};
const realSleep = promises.setTimeout;
// A shortened wait that ends moves the clock to where it would have ended, never back.
const until = (delay) => {
  const due = realNow() + skipped + delay;
  return () => {
    skipped = Math.max(skipped, due - realNow());
  };
};
promises.setTimeout = (delay, ...rest) => {
  const short = shorten(delay);
  if (short === delay) return realSleep(delay, ...rest);
  const arrive = until(delay);
  return realSleep(short, ...rest).then((v) => (arrive(), v));
};
for (const owner of [globalThis, timers]) {
  for (const name of ['setTimeout', 'setInterval']) {
    const real = owner[name];
    const short = function (callback, delay, ...rest) {
      const d = shorten(delay);
      if (d === delay || typeof callback !== 'function' || name === 'setInterval') return real.call(this, callback, d, ...rest);
      const arrive = until(delay);
      return real.call(this, function (...args) {
        arrive();
        return callback.apply(this, args);
      }, d, ...rest);
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
