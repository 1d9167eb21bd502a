import type { Detector } from '../rule.js';
import { frontmatterNamespaceDetector } from './frontmatter-namespace.js';
import { frontmatterPermissionsDetector } from './frontmatter-permissions.js';
import { proseDetector } from './prose-detector.js';

// Every detector that reads documents: prose rules (with hidden content) and the frontmatter checks.
export const proseDetectors: Detector[] = [
  proseDetector,
  frontmatterPermissionsDetector,
  frontmatterNamespaceDetector,
];
