import { z } from 'zod';
import { registeredLabel } from '../core/hosts.js';
import { ruleData } from '../core/knowledge.js';
import { hostMatches } from './host-names.js';

// The API hosts of the services a skill may say it works with (rules/_data/vendor-hosts.yaml): a Firebase audit
// calls googleapis.com, a Teams notifier graph.microsoft.com. Calling them, and sending them the service's own
// key, is what such a skill exists for.

const SERVICE_HOSTS = ruleData(
  'vendor-hosts',
  z.object({ services: z.record(z.string(), z.array(z.string())) }),
).services;

/** The API hosts of a service word, or none: words of a description are any words ("constructor"). */
function hostsOf(service: string): readonly string[] {
  return Object.hasOwn(SERVICE_HOSTS, service) ? SERVICE_HOSTS[service]! : [];
}

/**
 * Whether `host` belongs to a service the skill names: its own domain (`api.deepl.com` for DeepL) or one of the
 * service's API hosts (googleapis.com for Firebase).
 */
export function namedServiceHost(host: string, services: ReadonlySet<string>): boolean {
  if (services.has(registeredLabel(host))) return true;
  for (const service of services) if (hostMatches(host, hostsOf(service))) return true;
  return false;
}

/** Whether an environment key is named for a service whose API `host` is: FIREBASE_WEB_KEY to googleapis.com. */
export function keyNamedForService(envName: string, host: string): boolean {
  return envName
    .toLowerCase()
    .split('_')
    .some((word) => hostMatches(host, hostsOf(word)));
}
