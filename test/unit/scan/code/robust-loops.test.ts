import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// R3 waits and retries with no reachable bound: the loop leaves only when the awaited thing succeeds (or
// never, when its only exit is inside a callback). Look-alikes with a counter, a deadline or a timeout wrapper
// must stay quiet.

const cases: Case[] = [
  {
    name: 'R3: TS for(;;) polls a local status helper and leaves only when the deploy is live',
    path: 'scripts/wait-deploy.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TS fixture text, not a template
    text: "async function deployState(id: string): Promise<string> {\n  const res = await fetch(`https://deploy.example.net/v2/jobs/${id}`, { signal: AbortSignal.timeout(8000) });\n  return (await res.json()).state;\n}\n\nexport async function waitLive(id: string) {\n  for (;;) {\n    const state = await deployState(id);\n    if (state === 'live') break;\n    await new Promise((r) => setTimeout(r, 5000));\n  }\n}\n",
    expect: [['R3', 7]],
  },
  {
    name: 'R3: JS for(;;) reconnects forever; the only break is the successful connect inside try',
    path: 'scripts/connect.js',
    text: "const { connectBroker } = require('./broker');\nconst pause = (ms) => new Promise((r) => setTimeout(r, ms));\n\nasync function main() {\n  let conn;\n  for (;;) {\n    try {\n      conn = await connectBroker(process.env.BROKER_URL);\n      break;\n    } catch (err) {\n      console.error('broker down, retrying', err.message);\n      await pause(2000);\n    }\n  }\n  return conn;\n}\nmain();\n",
    expect: [['R3', 6]],
  },
  {
    name: 'R3: JS while(true) whose only return sits in a forEach callback never leaves',
    path: 'scripts/consume.js',
    text: 'const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\nasync function drain(queue) {\n  while (true) {\n    const batch = await queue.receive();\n    batch.forEach((m) => {\n      if (!m) return;\n      console.log(m.body);\n    });\n    await sleep(1000);\n  }\n}\n',
    expect: [['R3', 3]],
  },
  {
    name: 'R3: bash until <readiness probe>; do sleep; done with no counter',
    path: 'scripts/up.sh',
    text: '#!/usr/bin/env bash\nset -euo pipefail\ndocker compose up -d db\nuntil docker compose exec -T db pg_isready -U app; do\n  echo "waiting for postgres"\n  sleep 2\ndone\npsql -h localhost -U app -f schema.sql\n',
    expect: [['R3', 4]],
  },
  {
    name: 'R3: sh while ! <job check>; do sleep; done with no deadline',
    path: 'scripts/migrate.sh',
    text: "#!/bin/sh\nkubectl apply -f job.yaml\nwhile ! kubectl get job migrate -o jsonpath='{.status.succeeded}' | grep -q 1; do\n  sleep 5\ndone\necho done\n",
    expect: [['R3', 3]],
  },
  {
    name: 'R3: bash while true that breaks only when a marker file appears',
    path: 'scripts/await-ready.sh',
    text: '#!/bin/bash\nwhile true; do\n  if [ -f /var/run/app/ready ]; then\n    break\n  fi\n  sleep 1\ndone\n',
    expect: [['R3', 2]],
  },
  {
    name: 'no R3: bash until loop that counts attempts and gives up',
    path: 'scripts/db-wait.sh',
    text: '#!/usr/bin/env bash\ntries=0\nuntil pg_isready -h db; do\n  tries=$((tries + 1))\n  if [ "$tries" -ge 30 ]; then echo "db never came up" >&2; exit 1; fi\n  sleep 2\ndone\n',
    absent: ['R3'],
  },
  {
    name: 'no R3: bash bounded for loop and a wait under timeout',
    path: 'scripts/db-wait2.sh',
    text: "#!/usr/bin/env bash\nfor i in $(seq 1 20); do\n  pg_isready -h db && break\n  sleep 1\ndone\ntimeout 60 bash -c 'until [ -S /tmp/agent.sock ]; do sleep 1; done'\n",
    absent: ['R3'],
  },
  {
    name: 'no R3: TS for(;;) with a deadline, and a stream reader that ends when the stream does',
    path: 'scripts/ready.ts',
    text: "const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));\nexport async function waitReady(check: () => Promise<boolean>) {\n  const deadline = Date.now() + 60_000;\n  for (;;) {\n    if (await check()) return;\n    if (Date.now() > deadline) throw new Error('not ready after 60s');\n    await sleep(1000);\n  }\n}\nexport async function readAll(stream: AsyncIterator<string>) {\n  const out: string[] = [];\n  for (;;) {\n    const { done, value } = await stream.next();\n    if (done) break;\n    out.push(value);\n  }\n  return out;\n}\n",
    absent: ['R3'],
  },
  {
    name: 'no R3: JS for(;;) retry whose attempt counter throws after five tries',
    path: 'scripts/retry.js',
    text: 'const delay = (ms) => new Promise((r) => setTimeout(r, ms));\nasync function withRetry(op) {\n  for (let attempt = 1; ; attempt++) {\n    try {\n      return await op();\n    } catch (e) {\n      if (attempt >= 5) throw e;\n      await delay(250 * 2 ** attempt);\n    }\n  }\n}\n',
    absent: ['R3'],
  },
  {
    name: 'R3: python while True sleeps until a marker file appears, with no deadline',
    path: 'scripts/wait_index.py',
    text: 'import os\nimport time\n\nFLAG = "/var/run/indexer/done"\n\nwhile True:\n    if os.path.exists(FLAG):\n        break\n    print("indexer still running")\n    time.sleep(10)\nprint("index ready")\n',
    expect: [['R3', 6]],
  },
  {
    name: 'R3: python while True polls a job client and returns only when it has finished',
    path: 'scripts/job_wait.py',
    text: 'import time\n\nfrom jobs import client\n\n\ndef wait_for(job_id):\n    while True:\n        try:\n            state = client.status(job_id)\n            if state == "finished":\n                return state\n        except ConnectionError:\n            pass\n        time.sleep(3)\n',
    expect: [['R3', 7]],
  },
  {
    name: 'no R3: python polls with a monotonic deadline or an attempt counter, and a prompt loop',
    path: 'scripts/ok_wait.py',
    text: 'import os\nimport time\n\ndeadline = time.monotonic() + 300\nwhile True:\n    if os.path.exists("/var/run/indexer/done"):\n        break\n    if time.monotonic() > deadline:\n        raise SystemExit("indexer did not finish in 5 minutes")\n    time.sleep(10)\n\nattempt = 0\nwhile True:\n    attempt += 1\n    if attempt > 20 or os.path.exists("/tmp/ready"):\n        break\n    time.sleep(1)\n\nwhile True:\n    line = input("> ")\n    if line == "quit":\n        break\n    print(line.upper())\n',
    absent: ['R3'],
  },
];

describe('R3: polling and retry loops without a reachable bound', () => {
  for (const c of cases) it(c.name, () => check(c));
});
