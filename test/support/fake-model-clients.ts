// A test file's fake model server and the model clients its tests open on it: the server and a temp folder
// (the settings' cwd and home, and the tests' own files) live for the file; after each test the clients are
// closed and the server's request log and pending faults are forgotten.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  createModelClient,
  type ModelClient,
  type ModelFlags,
  type RetryPolicy,
  resolveModelSettings,
} from '../../src/model/index.js';
import {
  type FakeModelServer,
  type FakeModelServerOptions,
  startFakeModelServer,
} from './fake-model-server.js';

export interface FakeModelFixture {
  readonly server: FakeModelServer;
  readonly dir: string;
  /**
   * A client of `model` (`provider/name`) on the fake server: no cache and, unless `retry` asks for some, no
   * retries (10 ms apart, so retry tests stay fast); closed after the test.
   */
  client(
    model: string,
    flags?: Omit<ModelFlags, 'model' | 'baseUrl'>,
    retry?: Partial<RetryPolicy>,
  ): ModelClient;
}

/** A test key for every provider: the fake server checks none, the settings only need one to be present. */
const ENV = { ANTHROPIC_API_KEY: 'test-key', OPENAI_API_KEY: 'test-key' };

/** Registers the file's hooks; `server` and `dir` are usable from `beforeAll` on. */
export function useFakeModel(name: string, options: FakeModelServerOptions = {}): FakeModelFixture {
  let server: FakeModelServer | null = null;
  let dir: string | null = null;
  const clients: ModelClient[] = [];
  const ready = <T>(value: T | null): T => {
    if (value === null) throw new Error('the fake model fixture is used before its beforeAll ran');
    return value;
  };

  beforeAll(async () => {
    server = await startFakeModelServer(options);
    dir = mkdtempSync(join(tmpdir(), `skillaudit-${name}-`));
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
    server?.reset();
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  return {
    get server() {
      return ready(server);
    },
    get dir() {
      return ready(dir);
    },
    client(model, flags = {}, retry = { maxRetries: 0 }) {
      const home = ready(dir);
      const settings = resolveModelSettings(
        { model, baseUrl: ready(server).baseUrl, cache: false, ...flags },
        { env: ENV, cwd: home, home },
      );
      if (!settings) throw new Error(`no settings for ${model}`);
      const c = createModelClient(settings, { retry: { baseDelayMs: 10, ...retry } });
      clients.push(c);
      return c;
    },
  };
}
