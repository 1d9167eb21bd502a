import { describe, expect, it } from 'vitest';
import type { Skill, SkillFile } from '../../../src/core/types.js';
import {
  apiAnswer,
  leafValue,
  shapedObject,
  shapeOfText,
  stdinFor,
} from '../../../src/detonate/data-shape.js';
import { namedInputs, sampleInputs } from '../../../src/detonate/samples.js';

// The fields a skill's scripts read from parsed data, so the sink's API answer and the sample inputs carry them.

const shape = (text: string) => Object.fromEntries(shapeOfText(text));

describe('shapeOfText', () => {
  it('reads Python subscripts and .get, with how each key is used next', () => {
    const py = [
      'data = resp.json()',
      'for ch in data["channels"]:',
      '    print(ch["name"].lower(), ch.get("topic"))',
      'total = sum(float(r["amount"]) for r in rows)',
      'first = page["results"][0]',
      'owner = repo["owner"]["login"]',
      'n = len(found["hits"])',
    ].join('\n');
    expect(shape(py)).toEqual({
      channels: 'list',
      name: 'text',
      topic: 'text',
      amount: 'number',
      results: 'list',
      owner: 'object',
      login: 'text',
      hits: 'list',
    });
  });

  it('reads JavaScript property chains on parsed data and jq filters', () => {
    const js =
      'const data = await res.json();\nfor (const u of data.users) console.log(u.email);\nconsole.log(data.meta.next_cursor);';
    expect(shape(js)).toEqual({ users: 'list', meta: 'object', next_cursor: 'text' });
    expect(shape(`curl -s "$API" | jq -r '.items[].full_name'`)).toEqual({
      items: 'list',
      full_name: 'text',
    });
  });

  it('leaves out environment names, headers, arguments and constants', () => {
    const py =
      'k = os.environ["API_KEY"]\nh = resp.headers["content-type"]\nv = args["verbose"]\nx = TABLE["ROW"]';
    expect(shape(py)).toEqual({});
    // A config read from a file is data: a config file a run is given carries its keys.
    expect(shape('config = json.load(fh)\nfor feed in config["feeds"]:\n    pass')).toEqual({
      feeds: 'list',
    });
  });

  it('guesses a collection from a plural name and a count from a count-like one when nothing else says', () => {
    expect(shape('msgs = slack("history")["messages"]\nn = body["reply_count"]\ns = r["status"]')).toEqual({
      messages: 'list',
      reply_count: 'number',
      status: 'text',
    });
  });
});

describe('values', () => {
  it('ends pagination, leaves errors absent and gives dates, links and ids their form', () => {
    expect(leafValue('has_more', 'text')).toBe(false);
    expect(leafValue('next_cursor', 'text')).toBeNull();
    expect(leafValue('error', 'text')).toBeNull();
    expect(leafValue('ok', 'text')).toBe(true);
    expect(leafValue('due_date', 'text')).toBe('2026-01-05');
    expect(leafValue('created_at', 'text')).toMatch(/^2026-01-05T/);
    expect(leafValue('html_url', 'text')).toBe('https://example.com/sample');
    expect(leafValue('user_id', 'text')).toBe('1001');
    expect(leafValue('amount', 'number')).toBe(1);
  });

  it('nests every key in lists and objects, bounded however many there are', () => {
    const small = shapedObject(shapeOfText('for i in d["items"]:\n    print(i["user"]["login"])'));
    expect(small).toMatchObject({ items: [{ user: { login: 'sample' } }], login: 'sample' });
    // Forty containers of forty keys would be 40^3 objects three levels down: the depth gives way.
    const many = Array.from({ length: 40 }, (_, i) => `x = d["k${i}"]["v"]`).join('\n');
    expect(JSON.stringify(shapedObject(shapeOfText(many))).length).toBeLessThan(200_000);
  });

  it('answers with the generic success envelope when the scripts read nothing', () => {
    expect(JSON.parse(apiAnswer(new Map()))).toEqual({ ok: true, status: 'success', data: {} });
    const answer = JSON.parse(apiAnswer(shapeOfText('print(r["total_count"])')));
    expect(answer).toMatchObject({ ok: true, total_count: 1, data: { total_count: 1 } });
  });

  it('points links at the service the skill names, so a download it follows goes where it said', () => {
    const answer = JSON.parse(apiAnswer(shapeOfText('get(asset["download_url"])'), 'api.github.com'));
    expect(answer.download_url).toBe('https://api.github.com/sample');
  });
});

describe('sample inputs carry the fields read', () => {
  const skill = (script: string) =>
    ({
      body: 'Run `python3 scripts/sum.py statement.csv`.',
      files: [
        { path: 'SKILL.md', kind: 'skill', text: 'Run `python3 scripts/sum.py statement.csv`.' },
        { path: 'scripts/sum.py', kind: 'script', language: 'python', text: script },
      ] as SkillFile[],
    }) as unknown as Skill;

  it('a CSV gets a column for each field, a JSON file every key', () => {
    const s = skill(
      'for row in csv.DictReader(fh):\n    t += float(row["amount_eur"])\n    c = row["category"]',
    );
    const csv = sampleInputs(s)
      .find((i) => i.extension === 'csv')
      ?.content.toString();
    const [header, first] = csv!.split('\n');
    expect(header!.split(',')).toEqual(expect.arrayContaining(['amount_eur', 'category']));
    const row = Object.fromEntries(header!.split(',').map((h, i) => [h, first!.split(',')[i]]));
    expect(Number.parseFloat(row.amount_eur!)).not.toBeNaN();
    const json = JSON.parse(
      sampleInputs(s)
        .find((i) => i.extension === 'json')!
        .content.toString(),
    );
    expect(json).toMatchObject({ amount_eur: 1, category: 'sample' });
  });

  it('a file a SKILL.md command names is shaped the same way', () => {
    const fields = shapeOfText('x = float(row["amount_eur"])');
    const [named] = namedInputs('python3 scripts/sum.py statement.csv', new Set(), fields);
    expect(named!.content.toString().split('\n')[0]).toContain('amount_eur');
  });
});

describe('compared literals and standard input', () => {
  it('gives a key compared with a string that string, and a .get default its type', () => {
    const py = [
      'event = json.load(sys.stdin)',
      'if event.get("tool_name") != "Bash":',
      '    sys.exit(0)',
      'cmd = event.get("tool_input", {}).get("command", "")',
      'for e in event.get("edits", []):',
      '    pass',
    ].join('\n');
    const fields = shapeOfText(py);
    expect(Object.fromEntries(fields)).toEqual({
      tool_name: 'text',
      tool_input: 'object',
      command: 'text',
      edits: 'list',
    });
    expect(shapedObject(fields)).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'sample' },
      edits: [{}],
    });
  });

  it('feeds the shaped document to a script that reads its standard input, and nothing to others', () => {
    const skill = {
      body: '',
      files: [
        { path: 'SKILL.md', kind: 'skill', text: 'Hook: `python3 scripts/guard.py`' },
        { path: 'scripts/guard.py', kind: 'script', text: 'e = json.load(sys.stdin)\nprint(e["tool_name"])' },
        { path: 'scripts/other.py', kind: 'script', text: 'print(1)' },
      ],
    } as unknown as Skill;
    const at = (file: string, argv: string[] = []) => stdinFor(skill, { origin: { file }, argv });
    expect(JSON.parse(at('scripts/guard.py'))).toEqual({ tool_name: 'sample' });
    expect(at('SKILL.md', ['bash', '-c', 'python3 scripts/guard.py'])).toMatch(/^\{/);
    expect(at('scripts/other.py')).toBe('');
  });
});
