import type { Detector } from '../rule.js';
import { frontmatterNamespaceDetector } from './frontmatter-namespace.js';
import { frontmatterPermissionsDetector } from './frontmatter-permissions.js';
import { frontmatterValidityDetector } from './frontmatter-validity.js';
import { proseDetector } from './prose-detector.js';
import { scanCoverageDetector } from './scan-coverage.js';

// Every detector that reads documents: prose rules (with hidden content), the frontmatter checks, and
// whether the skill was read whole.
export const proseDetectors: Detector[] = [
  proseDetector,
  frontmatterPermissionsDetector,
  frontmatterNamespaceDetector,
  frontmatterValidityDetector,
  scanCoverageDetector,
];
