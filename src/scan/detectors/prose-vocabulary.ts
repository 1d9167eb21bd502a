import { z } from 'zod';
import { ruleData } from '../../core/knowledge.js';
import { vocabulary } from '../engine/rule-shared.js';

// Named parts of expressions for detectors written in code: host classes and the like. The prose rules' own
// vocabulary is data (rules/_shared/vocabulary.yaml); the fragments below are read from it.

/** Builds a case-insensitive expression from parts (so long rules can be written as readable pieces). */
export function rx(...parts: string[]): RegExp {
  return new RegExp(parts.join(''), 'i');
}

export const PASTE_HOST = vocabulary('PASTE_HOST');
export const RAW_IP_URL = vocabulary('RAW_IP_URL');
export const URL_SHORTENER = vocabulary('URL_SHORTENER');
export const VENDOR_INSTALLER = vocabulary('VENDOR_INSTALLER');
/** A well-known vendor's own installer URL anywhere in a text (VENDOR_INSTALLER, compiled once for every reader). */
export const KNOWN_INSTALLER = new RegExp(VENDOR_INSTALLER, 'i');
export const NO_REPUTATION_SOURCE = vocabulary('NO_REPUTATION_SOURCE');
export const DYNAMIC_DNS_HOST = vocabulary('DYNAMIC_DNS_HOST');
export const REQUEST_CATCHER = vocabulary('REQUEST_CATCHER');
export const DROP_CHANNEL = vocabulary('DROP_CHANNEL');
export const SECRET_FILE = vocabulary('SECRET_FILE');
export const PUBLIC_KEY_LITERAL = vocabulary('PUBLIC_KEY_LITERAL');
/** A path or URL that ends in a program to run (an installer, an app bundle, a script for cmd), before any query. */
export const EXECUTABLE_FILE = String.raw`\.(?:exe|msi|dmg|pkg|scr|bat|cmd|command|app|jar)(?:[?#]|$)`;

/** Free hosting and app platforms (rules/_data/free-hosting.yaml, with its provenance). */
export const FREE_HOSTING_SUFFIXES: readonly string[] = ruleData(
  'free-hosting',
  z.strictObject({ suffixes: z.array(z.string()) }),
).suffixes;

/** Free-hosting platform a host is a subdomain of, if any. */
export function freeHostOf(host: string): string | undefined {
  return FREE_HOSTING_SUFFIXES.find((s) => host.endsWith(`.${s}`));
}
