import { readFileSync, writeFileSync } from 'node:fs';

interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
}
type Spec = { paths: Record<string, Record<string, Operation>> };

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

function readSpec(path: string): Spec {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || typeof (raw as Spec).paths !== 'object') {
    throw new Error(`${path} is not an OpenAPI document (no "paths" object)`);
  }
  return raw as Spec;
}

function identifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `op_${id}`;
}

const RUNTIME = `export interface ClientOptions { baseUrl: string; token?: string; timeoutMs?: number }
const RETRYABLE = new Set([502, 503, 504]);
const MAX_RETRIES = 2;
async function request(o: ClientOptions, method: string, path: string, body?: unknown): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(o.baseUrl + path, {
      method,
      headers: { 'content-type': 'application/json', ...(o.token ? { authorization: 'Bearer ' + o.token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
    });
    if (RETRYABLE.has(res.status) && attempt < MAX_RETRIES) {
      await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
      continue;
    }
    if (!res.ok) throw new Error(method + ' ' + path + ': HTTP ' + res.status);
    return res.status === 204 ? undefined : res.json();
  }
}
`;

function generate(spec: Spec): string {
  const fns: string[] = [];
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.has(method)) continue;
      const name = identifier(op.operationId ?? `${method}_${path}`);
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const urlExpr = path.replace(/\{([^}]+)\}/g, (_, p: string) => `\${encodeURIComponent(params[${JSON.stringify(p)}])}`);
      const args = `params: Record<string, string>${op.requestBody ? ', body: unknown' : ''}`;
      fns.push(
        `    ${name}: (${args}) => request(o, ${JSON.stringify(method.toUpperCase())}, \`${urlExpr}\`${op.requestBody ? ', body' : ''}), // path params: ${pathParams.join(', ') || 'none'}`,
      );
    }
  }
  return `${RUNTIME}\nexport function createClient(o: ClientOptions) {\n  return {\n${fns.join('\n')}\n  };\n}\n`;
}

const [input, output] = process.argv.slice(2);
if (!input || !output || !output.endsWith('.ts')) {
  console.error('usage: generate.ts <openapi.json> <out.ts>');
  process.exit(2);
}
try {
  writeFileSync(output, generate(readSpec(input)));
  console.log(`wrote ${output}`);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
