import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { GitMirror } from '../intake/index.js';
import { UserError } from '../util/errors.js';
import { addLimitOptions, limitsFromOptions, parseByteSize, parseCount } from './limit-options.js';
import { addIndicatorsOption, userIndicatorLists } from './rules.js';

// `skillaudit serve`: the web service (src/server, docs/server.md). Flags become the service's settings;
// the process runs until SIGINT or SIGTERM, then requeues running audits and exits.

interface ServeFlags {
  host: string;
  port: number;
  dataDir: string;
  token?: string;
  auth: boolean;
  tenants?: string;
  public?: boolean;
  concurrency: number;
  allowHost: string[];
  allowOrigin: string[];
  allowPrivate?: boolean;
  gitMirror: GitMirror[];
  maxUploadBytes: number;
  rateLimit: number;
  maxQueue: number;
  detonate: boolean;
  maxRuns?: number;
  indicators?: string[];
  runTimeout?: number;
  quiet?: boolean;
  trustProxy?: boolean;
  queue?: string;
}

const MIN_TOKEN_LENGTH = 16;

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65_535) throw new InvalidArgumentError('expected a port from 0 to 65535');
  return n;
}

function perMinute(value: string): number {
  const match = /^\s*(\d+)\s*(?:\/\s*min)?\s*$/i.exec(value);
  const n = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError('expected N or N/min, e.g. 30/min');
  return n;
}

function collect<T>(parse: (value: string) => T): (value: string, previous: T[]) => T[] {
  return (value, previous) => [...previous, parse(value)];
}

function hostName(value: string): string {
  const host = value.trim().toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(host) || host.startsWith('.'))
    throw new InvalidArgumentError('expected a host name');
  return host;
}

/** `https://github.com/=<dir or URL>`: a local folder becomes a file:// URL; both sides end with '/'. */
export function parseMirror(value: string): GitMirror {
  const at = value.indexOf('=');
  const from = value.slice(0, at);
  const target = value.slice(at + 1);
  if (at < 0 || !/^https:\/\/[a-z0-9.-]+\/$/i.test(from) || target === '') {
    throw new InvalidArgumentError(
      'expected https://<host>/=<folder or URL>, e.g. https://github.com/=/srv/mirror',
    );
  }
  const to = /^(file|https):\/\//i.test(target) ? target : pathToFileURL(resolve(target)).href;
  return { from: from.toLowerCase(), to: to.endsWith('/') ? to : `${to}/` };
}

function origin(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\/(\*|[^/\s*]+)$/i.test(value)) {
    throw new InvalidArgumentError(
      'expected an origin such as chrome-extension://<id>, or chrome-extension://*',
    );
  }
  return value;
}

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description('Run the SkillAudit web service: submit audits, poll them, look up reports, report pages')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', port, 8787)
    .option('--data-dir <dir>', 'database, run folders and uploads', '.skillaudit/server')
    .option('--token <token>', 'bearer token required to submit (default: $SKILLAUDIT_SERVER_TOKEN)')
    .option('--no-auth', 'accept submissions without a token (local use only)')
    .option(
      '--tenants <file>',
      'tenant tokens, one "<name> <token>" per line: each tenant reads only the audits it submitted (the --token reads all)',
    )
    .option(
      '--public',
      'anyone may list audits and read statuses and reports (a public catalogue); submitting still needs a token',
    )
    .option('--concurrency <n>', 'audits running at once', parseCount, 2)
    .option(
      '--queue <redis-url>',
      'run audits on `skillaudit worker`s through this Redis queue (redis://host:port[/db]); they must share --data-dir',
    )
    .option(
      '--allow-host <host>',
      'another git host submissions may name (repeatable)',
      collect(hostName),
      [],
    )
    .option(
      '--allow-origin <origin>',
      'browser origin that may submit (repeatable; default: any chrome-extension:// origin)',
      collect(origin),
      [],
    )
    .option('--allow-private', 'allow hosts that resolve to private, loopback or link-local addresses')
    .option(
      '--git-mirror <prefix=target>',
      'fetch URLs under prefix from a mirror: https://github.com/=<folder or URL> (repeatable)',
      collect(parseMirror),
      [],
    )
    .addOption(
      new Option('--max-upload-bytes <size>', 'largest request body (archive upload)')
        .argParser(parseByteSize)
        .default(50 * 1024 ** 2, '50M'),
    )
    .option(
      '--rate-limit <n/min>',
      'submissions per minute: per token, or per client address without a valid token',
      perMinute,
      30,
    )
    .option(
      '--trust-proxy',
      'behind a reverse proxy: rate-limit by the right-most X-Forwarded-For address it adds',
    )
    .option('--max-queue <n>', 'queued audits beyond which submissions are refused (503)', parseCount, 1000)
    .option('--no-detonate', "do not run skills' scripts (static analysis only)")
    .option('--max-runs <n>', 'sandbox runs per audit (default 24)', parseCount)
    .option('--run-timeout <seconds>', 'wall-clock limit of each sandbox run (default 15)', parseCount)
    .option('-q, --quiet', 'no log lines on stderr');
  addLimitOptions(command);
  addIndicatorsOption(command);
  command.action(async (flags: ServeFlags & Record<string, unknown>) => {
    const token = flags.auth ? (flags.token ?? process.env.SKILLAUDIT_SERVER_TOKEN ?? '') : null;
    if (token !== null && token.length < MIN_TOKEN_LENGTH) {
      throw new UserError(
        'USAGE',
        `a token of at least ${MIN_TOKEN_LENGTH} characters is required: --token or SKILLAUDIT_SERVER_TOKEN (or --no-auth for local use)`,
      );
    }
    if (token === null && flags.tenants)
      throw new UserError('USAGE', '--tenants needs authentication: drop --no-auth and give --token');
    const log = flags.quiet
      ? () => {}
      : (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
    // Loaded on use: registering the command must not load the web service for every CLI call.
    const { DEFAULT_ALLOWED_HOSTS, isLoopbackListen, parseTenants, startService } = await import(
      '../server/index.js'
    );
    const tenants = flags.tenants ? readTenants(flags.tenants, parseTenants) : [];
    const indicators = await userIndicatorLists(flags.indicators);
    if (token === null) {
      process.stderr.write(
        'skillaudit: warning: --no-auth: anyone who can reach this port can submit audits\n',
      );
      if (!isLoopbackListen(flags.host))
        process.stderr.write(`skillaudit: warning: listening on ${flags.host} without a token\n`);
    }
    const service = await startService({
      host: flags.host,
      port: flags.port,
      dataDir: resolve(flags.dataDir),
      token,
      tenants,
      public: flags.public === true,
      ...(flags.allowOrigin.length > 0 ? { allowedOrigins: flags.allowOrigin } : {}),
      concurrency: Math.max(1, flags.concurrency),
      ...(flags.queue ? { queue: flags.queue } : {}),
      policy: {
        allowedHosts: new Set([...DEFAULT_ALLOWED_HOSTS, ...flags.allowHost]),
        allowPrivate: flags.allowPrivate === true,
        mirrors: flags.gitMirror,
      },
      maxUploadBytes: flags.maxUploadBytes,
      rateLimitPerMinute: flags.rateLimit,
      trustProxy: flags.trustProxy === true,
      maxQueued: flags.maxQueue,
      limits: limitsFromOptions(flags),
      detonate: flags.detonate,
      ...(flags.maxRuns !== undefined ? { maxRuns: flags.maxRuns } : {}),
      ...(flags.runTimeout !== undefined ? { runTimeoutMs: flags.runTimeout * 1000 } : {}),
      ...(indicators.length ? { indicators } : {}),
      log,
    });
    process.stdout.write(`listening on ${service.url}\n`);
    await new Promise<void>((done) => {
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        // Synchronous first: running audits go back to the queue before anything else can fail them.
        log(`${signal}: stopping; running audits are queued again`);
        service.close().then(done, done);
      };
      // `on`, not `once`: a second signal (intake's temp cleanup re-raises it) must not kill us mid-close.
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    // Audits still unwinding in the background (sandbox runs, clones) are requeued and must not hold the exit.
    process.exit(0);
  });
}

/** The tenants file, read once at start; any line it cannot use stops the service with that line's number. */
function readTenants(
  file: string,
  parse: (text: string, minTokenLength: number) => { name: string; token: string }[],
): { name: string; token: string }[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UserError(
      'UNREADABLE',
      `cannot read the tenants file ${file}: ${(error as Error).message}`,
      file,
    );
  }
  try {
    return parse(text, MIN_TOKEN_LENGTH);
  } catch (error) {
    throw new UserError('USAGE', `${file}: ${(error as Error).message}`);
  }
}
