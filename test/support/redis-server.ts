// A real redis-server (Debian's package) on a free loopback port, for the queue tests. A machine without it
// fails the test with the fix; it never passes silently.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGKILL: nothing is saved but what the append-only file already holds). */
  kill(): Promise<void>;
  /** Starts it again on the same port and data folder. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

function requireRedis(): void {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      'redis-server is required for this test and was not found: apt-get install -y redis-server',
    );
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const reply = execFileSync('redis-cli', ['-p', String(port), 'ping'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
      if (reply === 'PONG') return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within 10 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts redis-server with an append-only file fsynced on every write, so a kill loses nothing acknowledged.
 * `appendfsync` lets a benchmark weigh that durability against Redis' common `everysec`.
 */
export async function startRedis(appendfsync: 'always' | 'everysec' | 'no' = 'always'): Promise<RedisServer> {
  requireRedis();
  const dir = mkdtempSync(join(tmpdir(), 'skillaudit-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        appendfsync,
      ],
      { stdio: 'ignore' },
    );
    await waitForPing(port);
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
