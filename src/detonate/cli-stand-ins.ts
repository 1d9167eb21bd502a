import { reportPrefix } from './instrument-report.js';

// Stand-ins for command-line tools the sandbox lacks. A triage script that starts with `kubectl get pods` under
// `set -euo pipefail` ends at that line when there is no kubectl, before the collection and the upload it exists
// for; the same holds for docker, aws, gcloud, az, gh, terraform, helm and the database clients. Each of these
// talks to a service the sandbox does not have (a cluster, a cloud API, a daemon, a database), so even where the
// host has the real tool, the sandbox's copy is the stand-in. It answers as the tool would on a quiet, logged-in machine:
// JSON when the arguments ask for JSON, a short plausible listing for the common read commands, nothing for the
// rest, and exit 0. It reads nothing and sends nothing. It is reported on the instruments' channel as a stand-in,
// so a run that used one can confirm what the script did next, never lower a finding (signals.ts).

/** One tool: the answers to its common read commands (a `case` over " <args> ", first match wins). */
interface CliStandIn {
  answers: [pattern: string, output: string][];
  /** What it prints for anything else: tools whose default output is JSON print an empty document. */
  otherwise?: string;
}

const POD_LIST = `NAME                     READY   STATUS    RESTARTS   AGE
web-5d8f7c9b6-x2k4q      1/1     Running   0          3d
worker-7c6b9d8f5-m9zqt   1/1     Running   1          3d`;

export const CLI_STAND_INS: Record<string, CliStandIn> = {
  kubectl: {
    answers: [
      ['*" version"*', 'Client Version: v1.29.3\nServer Version: v1.29.1'],
      ['*" config current-context "*', 'prod-eu-west-1'],
      ['*" get "po*', POD_LIST],
      [
        '*" get "no*',
        'NAME           STATUS   ROLES    AGE   VERSION\nip-10-0-1-23   Ready    <none>   12d   v1.29.1',
      ],
      [
        '*" get "secret*',
        'NAME                  TYPE     DATA   AGE\napp-credentials       Opaque   2      40d',
      ],
      [
        '*" get "ns*|*" get namespace"*',
        'NAME          STATUS   AGE\ndefault       Active   120d\nproduction    Active   98d',
      ],
    ],
  },
  docker: {
    answers: [
      ['*" --version "*|*" version "*', 'Docker version 24.0.7, build afdd53b'],
      [
        '*" ps "*',
        'CONTAINER ID   IMAGE          COMMAND                  CREATED      STATUS      PORTS      NAMES\n3f4e2a1b9c8d   postgres:15    "docker-entrypoint.s…"   2 days ago   Up 2 days   5432/tcp   db',
      ],
      [
        '*" images "*',
        'REPOSITORY   TAG    IMAGE ID       CREATED       SIZE\npostgres     15     8a1f4c2d7b3e   3 weeks ago   412MB',
      ],
    ],
  },
  aws: {
    answers: [
      ['*" --version "*', 'aws-cli/2.15.30 Python/3.11.8 Linux/6.1.0 exe/x86_64'],
      [
        '*" sts get-caller-identity "*',
        '{"UserId": "AIDAEXAMPLEUSERID", "Account": "123456789012", "Arn": "arn:aws:iam::123456789012:user/dev"}',
      ],
      ['*" configure get region "*', 'us-east-1'],
      ['*" s3 ls "*', '2024-05-01 10:00:00 team-artifacts'],
    ],
    otherwise: '{}',
  },
  gcloud: {
    answers: [
      ['*" --version "*|*" version "*', 'Google Cloud SDK 468.0.0'],
      ['*" config get-value project "*|*" config get project "*', 'acme-prod'],
      ['*" auth list "*', '   Credentialed Accounts\nACTIVE  ACCOUNT\n*       dev@acme.example'],
    ],
  },
  az: {
    answers: [
      ['*" --version "*|*" version "*', 'azure-cli                         2.58.0'],
      [
        '*" account show "*',
        '{"id": "00000000-0000-0000-0000-000000000000", "name": "Acme Prod", "user": {"name": "dev@acme.example"}}',
      ],
    ],
    otherwise: '[]',
  },
  gh: {
    answers: [
      ['*" --version "*|*" version "*', 'gh version 2.45.0 (2024-03-04)'],
      ['*" auth status "*', 'github.com\n  ✓ Logged in to github.com account dev (keyring)'],
      ['*" api "*', '{}'],
    ],
  },
  terraform: {
    answers: [['*" version "*|*" -version "*|*" --version "*', 'Terraform v1.7.5\non linux_amd64']],
  },
  helm: {
    answers: [
      [
        '*" version "*',
        'version.BuildInfo{Version:"v3.14.2", GitCommit:"c309b6f0ff63856811846ce18f3bdc93d2b4d54b"}',
      ],
      [
        '*" list "*|*" ls "*',
        'NAME   NAMESPACE    REVISION   UPDATED                   STATUS     CHART       APP VERSION\nweb    production   14         2024-05-01 10:00:00 UTC   deployed   web-2.3.1   2.3.1',
      ],
    ],
  },
  psql: { answers: [['*" --version "*|*" -V "*', 'psql (PostgreSQL) 15.6']] },
  mysql: { answers: [['*" --version "*|*" -V "*', 'mysql  Ver 8.0.36 for Linux on x86_64']] },
  'redis-cli': {
    answers: [
      ['*" --version "*|*" -v "*', 'redis-cli 7.2.4'],
      ['*" ping "*', 'PONG'],
    ],
  },
};

const JSON_ASKED = `*" -o json "*|*" -ojson "*|*" --output json "*|*" --output=json "*|*" --format json "*|*" --format=json "*|*" --json "*`;

/** Quoted for a single-quoted sh word. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The sh body of one tool's stand-in (shims.ts places it first on PATH). */
export function cliStandInScript(tool: string, standIn: CliStandIn): string {
  // Asked for JSON, any command gets JSON: a script that parses it must not choke on a listing.
  const cases = [
    `  ${JSON_ASKED}) echo '{"items": []}' ;;`,
    ...standIn.answers.map(([pattern, output]) => `  ${pattern}) printf '%s\\n' ${quoted(output)} ;;`),
    ...(standIn.otherwise ? [`  *) printf '%s\\n' ${quoted(standIn.otherwise)} ;;`] : []),
  ];
  return `printf '\\n%s\\n' "${reportPrefix('stand-in')}${tool} (command)" >&2
case " $* " in
${cases.join('\n')}
esac
exit 0`;
}
