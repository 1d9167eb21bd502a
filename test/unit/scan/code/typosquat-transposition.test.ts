import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { dependencyTyposquat } from '../../../../src/scan/detectors/manifest-dependencies.js';
import { runAll } from './make-context.js';

// Class: SC4 typosquats by swapping two adjacent letters of a popular package, including short names where a
// swap is the only edit, and popular language/OCR/document packages that skills commonly depend on.

describe('fix: typosquats by adjacent transposition', () => {
  it.each([
    ['reqeusts', 'requests'],
    ['lnagdetect', 'langdetect'],
    ['pytesesract', 'pytesseract'],
    ['googeltrans', 'googletrans'],
    ['speechrecogintion', 'speechrecognition'],
    ['python-dcox', 'python-docx'],
  ])('%s is flagged as a squat of %s', (name, target) => {
    expect(dependencyTyposquat(name, 'pypi')?.target).toBe(target);
  });

  it.each(['deep-translator', 'langdetect', 'translators', 'pytesseract', 'fpdf2', 'fpdf', 'textblob'])(
    '%s (a real package) is not flagged',
    (name) => {
      expect(dependencyTyposquat(name, 'pypi')).toBeNull();
    },
  );

  it('reports the squat at its requirements.txt line', async () => {
    const text = 'requests==2.32.3\ntextbolb==0.18.0\nrich==13.7.1\n';
    const hits = await runAll(codeDetectors, 'requirements.txt', text);
    expect(hits.filter((h) => h.pattern === 'SC4').map((h) => h.line)).toEqual([2]);
  });
});
