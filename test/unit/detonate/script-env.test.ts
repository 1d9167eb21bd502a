import { describe, expect, it } from 'vitest';
import { registeredLabel } from '../../../src/core/hosts.js';
import type { Skill } from '../../../src/core/types.js';
import { keyNamedFor } from '../../../src/detonate/host-names.js';
import { namedServices } from '../../../src/detonate/referenced-hosts.js';
import { scriptEnv } from '../../../src/detonate/script-env.js';

// What a skill's scripts read from the environment, and what the sandbox gives each name.

const skill = (files: Record<string, string>, description = ''): Skill =>
  ({
    name: 'x',
    description,
    files: Object.entries(files).map(([path, text]) => ({ path, text, kind: 'script' })),
  }) as unknown as Skill;

describe('scriptEnv', () => {
  it('gives keys canaries and folders, ids and regions plain values, from Python, Node and shell reads', () => {
    const env = scriptEnv(
      skill({
        'a.py':
          'token = os.environ["NOTION_TOKEN"]\ndb = os.getenv("NOTION_DATABASE_ID")\nr = os.environ.get("AWS_REGION")',
        'b.ts': 'const key = process.env.DEEPL_AUTH_KEY;\nconst out = process.env["EXPORT_DIR"];',
        'c.sh': '#!/bin/bash\nset -u\ncd "$DEPLOY_WORKDIR"\necho "$OWNER_EMAIL"',
      }),
      '/in',
      new Set(),
    );
    expect(env.secrets.sort()).toEqual(['DEEPL_AUTH_KEY', 'NOTION_TOKEN']);
    expect(env.values).toEqual({
      AWS_REGION: 'us-east-1',
      DEPLOY_WORKDIR: '/in',
      EXPORT_DIR: '/in',
      NOTION_DATABASE_ID: 'sample',
      OWNER_EMAIL: 'dev@example.com',
    });
  });

  it('leaves switches, destinations, system names, defaults and what the script assigns itself unset', () => {
    const env = scriptEnv(
      skill({
        'a.py':
          'if os.environ.get("CI"): pass\nos.getenv("DRY_RUN")\nos.getenv("API_BASE_URL")\nos.getenv("HOME")',
        'b.sh':
          // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, meant literally
          'OUT_DIR=./out\necho "$OUT_DIR" "${CACHE_DIR:-/tmp}" "$PATH"\nfor FILE_PATH in *; do :; done\nread -r ANSWER_ID',
        'c.js': 'process.env.OPENAI_API_KEY; process.env.SKIP_UPLOAD; process.env.SLACK_WEBHOOK_URL',
      }),
      '/in',
      new Set(['OPENAI_API_KEY']),
    );
    expect(env).toEqual({ secrets: [], values: {} });
  });
});

describe('keys named for their vendor', () => {
  it('reads the registered label of a host, under a country suffix too', () => {
    expect(registeredLabel('api-free.deepl.com')).toBe('deepl');
    expect(registeredLabel('api.notion.co.uk:443')).toBe('notion');
    // One label names no organisation at a registry.
    expect(registeredLabel('localhost')).toBe('');
  });
  it('matches a key to its vendor only, never to a look-alike or a subdomain of someone else', () => {
    expect(keyNamedFor('NOTION_TOKEN', 'api.notion.com')).toBe(true);
    expect(keyNamedFor('LINEAR_API_KEY', 'api.linear.app')).toBe(true);
    expect(keyNamedFor('EXPO_SKILLS_POSTHOG_KEY', 'us.i.posthog.com')).toBe(true);
    expect(keyNamedFor('NOTION_TOKEN', 'notion.collector.io')).toBe(false);
    expect(keyNamedFor('NOTION_TOKEN', 'notion-sync.net')).toBe(false);
    expect(keyNamedFor('NOTION_API_KEY', 'api.key')).toBe(false);
    // Too short to name a vendor.
    expect(keyNamedFor('HF_TOKEN', 'hf.co')).toBe(false);
  });
  it('takes the services a skill names from its name and description', () => {
    expect([...namedServices(skill({}, "Translate text with DeepL's API"))]).toEqual(
      expect.arrayContaining(['deepl', 'translate']),
    );
  });
});
