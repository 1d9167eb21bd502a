import { describe, expect, it } from 'vitest';
import { type SpecInput, specDiagnostics } from '../../../src/intake/spec-rules.js';

function input(frontmatter: Record<string, unknown>, extra: Partial<SpecInput> = {}): SpecInput {
  const frontmatterLines = Object.fromEntries(Object.keys(frontmatter).map((k, i) => [k, i + 2]));
  return {
    frontmatter,
    frontmatterLines,
    hasFrontmatter: true,
    body: '# Use\nDo it.\n',
    folderName: 'pdf-tools',
    lineCount: 10,
    ...extra,
  };
}

const codes = (i: SpecInput) => specDiagnostics(i).map((d) => `${d.level}:${d.code}`);

describe('specDiagnostics', () => {
  it('is silent for a skill that follows the spec', () => {
    expect(
      codes(
        input({
          name: 'pdf-tools',
          description: 'Extract text from PDFs.',
          license: 'MIT',
          metadata: { a: 'b' },
        }),
      ),
    ).toEqual([]);
  });

  it('reports a missing name and description', () => {
    expect(codes(input({}))).toEqual(['warning:name-missing', 'warning:description-missing']);
    expect(codes(input({ name: 'pdf-tools', description: '   ' }))).toEqual(['warning:description-missing']);
  });

  it.each([
    ['PDF-Tools', 'name-format'],
    ['pdf--tools', 'name-format'],
    ['-pdf', 'name-format'],
    ['pdf-', 'name-format'],
    ['pdf_tools', 'name-format'],
  ])('rejects the name %s', (name, code) => {
    expect(codes(input({ name, description: 'd' }))).toContain(`warning:${code}`);
  });

  it('reports a name longer than 64 characters with its length, at the name line', () => {
    const name = 'a'.repeat(65);
    const diagnostics = specDiagnostics(input({ name, description: 'd' }, { folderName: name }));
    expect(diagnostics).toEqual([
      {
        code: 'name-format',
        level: 'warning',
        message: '`name` is 65 characters; the limit is 64',
        file: 'SKILL.md',
        line: 2,
      },
    ]);
  });

  it('reports a name that does not match its folder', () => {
    const [diagnostic] = specDiagnostics(input({ name: 'pdf', description: 'd' }));
    expect(diagnostic).toMatchObject({
      code: 'name-folder-mismatch',
      message: '`name` "pdf" does not match its folder "pdf-tools"',
    });
  });

  it('reports a description over 1024 characters and a long compatibility field', () => {
    expect(
      codes(input({ name: 'pdf-tools', description: 'x'.repeat(1025), compatibility: 'y'.repeat(501) })),
    ).toEqual(['warning:description-length', 'warning:compatibility-length']);
    expect(codes(input({ name: 'pdf-tools', description: 'x'.repeat(1024) }))).toEqual([]);
  });

  it('notes unknown keys, and `version` only as info', () => {
    const diagnostics = specDiagnostics(
      input({ name: 'pdf-tools', description: 'd', version: '1.0', author: 'me' }),
    );
    expect(diagnostics.map((d) => [d.level, d.code, d.line])).toEqual([
      ['info', 'unknown-key', 4],
      ['warning', 'unknown-key', 5],
    ]);
  });

  it('reports an empty body, a long SKILL.md and a non-map metadata', () => {
    expect(
      codes(input({ name: 'pdf-tools', description: 'd', metadata: 'x' }, { body: '\n\n', lineCount: 501 })),
    ).toEqual(['warning:metadata-format', 'warning:body-empty', 'info:skill-md-long']);
  });

  it('leaves missing keys to the frontmatter error when the frontmatter itself is broken', () => {
    expect(codes(input({}, { hasFrontmatter: false }))).toEqual([]);
  });
});
