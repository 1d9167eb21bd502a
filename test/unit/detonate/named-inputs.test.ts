import { describe, expect, it } from 'vitest';
import { namedInputs } from '../../../src/detonate/samples.js';

// Input files SKILL.md's commands name: each gets a small valid file of its type, unless the skill ships it, the
// command writes it, or it is code or a package manifest.

const paths = (command: string, shipped: string[] = []) =>
  namedInputs(command, new Set(shipped)).map((i) => i.path);

describe('namedInputs', () => {
  it('names relative data files by their extension, globs included, once each', () => {
    expect(
      paths('python3 scripts/gen.py openapi.yaml docs/api && python3 scripts/x.py ./notes.vtt data/*.csv'),
    ).toEqual(['openapi.yaml', 'notes.vtt', 'data/sample.csv']);
    expect(paths('node a.js in.json; node b.js in.json')).toEqual(['in.json']);
  });
  it('leaves out outputs, shipped files, code, manifests, absolute paths, parents and unknown types', () => {
    expect(
      paths(
        'python3 scripts/run.py report.csv -o out.json > summary.md --output=x.csv; pip install -r requirements.txt; cat /etc/hosts.txt ../up.csv a.docx example.com v1.2',
        ['report.csv'],
      ),
    ).toEqual([]);
  });
  it('gives a file its format by name where the name says it: an OpenAPI document has paths', () => {
    const [yaml] = namedInputs('node gen.js openapi.yaml', new Set());
    expect(yaml!.content.toString()).toMatch(/^openapi: 3/m);
    expect(yaml!.content.toString()).toMatch(/^paths:/m);
    const [nb] = namedInputs('python3 nbclean.py notebooks/*.ipynb', new Set());
    expect(JSON.parse(nb!.content.toString()).nbformat).toBe(4);
  });
});
