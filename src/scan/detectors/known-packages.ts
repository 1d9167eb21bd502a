import { z } from 'zod';
import { ruleData } from '../../core/knowledge.js';

// Well-known package names for the SC4 manifest typosquat check (manifest-dependencies.ts): data, with its
// provenance, in rules/_data/known-packages.yaml.

const names = z.array(z.string().min(1));
const known = ruleData(
  'known-packages',
  z.strictObject({ pypi: names, pypiNeighbours: names, npm: names, npmNeighbours: names }),
);

/** PyPI names, normalised per PEP 503 (lower case, runs of `-_.` as `-`). */
export const KNOWN_PYPI: readonly string[] = known.pypi;
/** Legitimate PyPI neighbours of popular names: never reported as their typosquats. */
export const NEIGHBOURS_PYPI: readonly string[] = known.pypiNeighbours;
export const KNOWN_NPM: readonly string[] = known.npm;
/** Legitimate npm neighbours of popular names. */
export const NEIGHBOURS_NPM: readonly string[] = known.npmNeighbours;
