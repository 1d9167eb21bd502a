import { vocabulary } from '../engine/rule-pack.js';

// Named parts of expressions for detectors written in code: host classes and the like. The prose rules' own
// vocabulary is data (rules/_shared/vocabulary.yaml); the fragments below are read from it.

/** Builds a case-insensitive expression from parts (so long rules can be written as readable pieces). */
export function rx(...parts: string[]): RegExp {
  return new RegExp(parts.join(''), 'i');
}

// The fragments code outside the rule files uses, from the rules' shared vocabulary
// (rules/_shared/vocabulary.yaml, where each is documented).
export const PASTE_HOST = vocabulary('PASTE_HOST');
export const RAW_IP_URL = vocabulary('RAW_IP_URL');
export const URL_SHORTENER = vocabulary('URL_SHORTENER');
export const VENDOR_INSTALLER = vocabulary('VENDOR_INSTALLER');
export const NO_REPUTATION_SOURCE = vocabulary('NO_REPUTATION_SOURCE');
export const DYNAMIC_DNS_HOST = vocabulary('DYNAMIC_DNS_HOST');
export const REQUEST_CATCHER = vocabulary('REQUEST_CATCHER');

/**
 * Free hosting and app platforms: anyone gets `<name>.<platform>` in a minute, under the platform's
 * reputation. Sources: the ClawHavoc samples (openclawcli.vercel.app), abuse reports on phishing kits hosted
 * on app platforms (Netlify, Vercel, Pages, Workers, Glitch, Firebase, Render, Replit), and the dynamic-DNS
 * and tunnel hosts above.
 */
export const FREE_HOSTING_SUFFIXES: readonly string[] = [
  'vercel.app',
  'netlify.app',
  'netlify.com',
  'pages.dev',
  'workers.dev',
  'r2.dev',
  'glitch.me',
  'herokuapp.com',
  'github.io',
  'gitlab.io',
  'web.app',
  'firebaseapp.com',
  'onrender.com',
  'fly.dev',
  'replit.app',
  'repl.co',
  'surge.sh',
  'azurewebsites.net',
  'blogspot.com',
  'wixsite.com',
  'weebly.com',
  '000webhostapp.com',
  'ngrok.io',
  'ngrok-free.app',
  'ngrok.app',
  'trycloudflare.com',
  'duckdns.org',
  'ddns.net',
  'no-ip.org',
  'serveo.net',
  'loca.lt',
];

/** Free-hosting platform a host is a subdomain of, if any. */
export function freeHostOf(host: string): string | undefined {
  return FREE_HOSTING_SUFFIXES.find((s) => host.endsWith(`.${s}`));
}
