import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// R1 per argument: a default or test on one positional does not validate another, and a PowerShell param
// block validates only parameters with a ValidateSet/Pattern/Script/Range attribute, a safe type or a check
// in the body. Reported where the input enters (its assignment or declaration).

const cases: Case[] = [
  {
    name: 'R1: bash MODE="$1" used in a path while only $2 has a default',
    path: 'scripts/snapshot.sh',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: fixture text, not a template
    text: '#!/usr/bin/env bash\nset -e\nMODE="$1"\nTARGET="${2:-/var/backups}"\ntar czf "$TARGET/site-$MODE.tgz" /srv/site\n',
    expect: [['R1', 3]],
  },
  {
    name: 'R1: bash unquoted ENV=$1 picks a kube context and manifest',
    path: 'scripts/deploy.sh',
    text: '#!/bin/bash\nENVIRONMENT=$1\nkubectl config use-context "$ENVIRONMENT"\nkubectl apply -f "deploy/$ENVIRONMENT.yaml"\n',
    expect: [['R1', 2]],
  },
  {
    name: 'R1: bash LEVEL="$1" unchecked beside a checked DAYS',
    path: 'scripts/rotate.sh',
    text: '#!/usr/bin/env bash\nLEVEL="$1"\nDAYS="$2"\nif [ -z "$DAYS" ]; then DAYS=7; fi\nfind /var/log/app -name "*.$LEVEL.log" -mtime +"$DAYS" -delete\n',
    expect: [['R1', 2]],
  },
  {
    name: 'no R1: bash case on the mode with a default for the target',
    path: 'scripts/ok-snapshot.sh',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: fixture text, not a template
    text: '#!/usr/bin/env bash\nMODE="${1:-}"\ncase "$MODE" in\n  full|incremental) ;;\n  *) echo "mode must be full or incremental" >&2; exit 2 ;;\nesac\nTARGET="${2:-/var/backups}"\ntar czf "$TARGET/site-$MODE.tgz" /srv/site\n',
    absent: ['R1'],
  },
  {
    name: 'no R1: bash regex test on the region before use',
    path: 'scripts/ok-region.sh',
    text: '#!/usr/bin/env bash\nREGION="$1"\n[[ "$REGION" =~ ^[a-z]{2}-[a-z]+-[0-9]$ ]] || { echo "bad region: $REGION" >&2; exit 1; }\naws s3 ls "s3://reports-$REGION/"\n',
    absent: ['R1'],
  },
  {
    name: 'R1: PowerShell [string]$Drive builds a root path with no validation',
    path: 'scripts/Get-Usage.ps1',
    text: 'param(\n    [string]$Drive,\n    [int]$Top = 10\n)\n$root = "$($Drive):\\"\nGet-ChildItem -Path $root -Directory | Sort-Object Length -Descending | Select-Object -First $Top\n',
    expect: [['R1', 2]],
  },
  {
    name: 'R1: PowerShell mandatory [string]$ServiceName passed to Restart-Service',
    path: 'scripts/Restart-Svc.ps1',
    text: '[CmdletBinding()]\nparam(\n    [Parameter(Mandatory = $true)]\n    [string]$ServiceName\n)\nRestart-Service -Name $ServiceName -Force\nWrite-Output "restarted $ServiceName"\n',
    expect: [['R1', 4]],
  },
  {
    name: 'R1: PowerShell one-line param([string]$Folder) joined into a Remove-Item path',
    path: 'scripts/Clean-Folder.ps1',
    text: "param([string]$Folder)\nRemove-Item -Recurse -Force (Join-Path 'C:\\builds' $Folder)\n",
    expect: [['R1', 1]],
  },
  {
    name: 'no R1: PowerShell ValidatePattern and ValidateRange parameters',
    path: 'scripts/Ok-Usage.ps1',
    text: "param(\n    [ValidatePattern('^[A-Z]$')]\n    [string]$Drive = 'C',\n    [ValidateRange(1, 100)]\n    [int]$Top = 10\n)\nGet-ChildItem -Path \"$($Drive):\\\" -Directory | Select-Object -First $Top\n",
    absent: ['R1'],
  },
  {
    name: 'no R1: PowerShell ValidateSet and a -notmatch check that throws',
    path: 'scripts/Ok-Svc.ps1',
    text: "param(\n    [Parameter(Mandatory)]\n    [ValidateSet('Spooler', 'W32Time')]\n    [string]$ServiceName,\n    [string]$Folder\n)\nif ($Folder -notmatch '^[\\w-]+$') { throw \"invalid folder name: $Folder\" }\nRestart-Service -Name $ServiceName\nRemove-Item -Recurse (Join-Path 'C:\\builds' $Folder)\n",
    absent: ['R1'],
  },
  {
    name: 'R1: sh mode argument only compared to one value; anything else silently falls through',
    path: 'scripts/sweep.sh',
    text: '#!/bin/sh\nACTION="$1"\nif [ "$ACTION" = "--really-delete" ]; then\n  find ./cache -type f -mtime +30 -delete\nelse\n  find ./cache -type f -mtime +30 -print\nfi\n',
    expect: [['R1', 2]],
  },
  {
    name: 'no R1: sh mode compared against the allowed values with a rejecting branch',
    path: 'scripts/ok-sweep.sh',
    text: '#!/bin/sh\nACTION="$1"\nif [ "$ACTION" != "--dry-run" ] && [ "$ACTION" != "--delete" ]; then\n  echo "unknown action: $ACTION (want --dry-run or --delete)" >&2\n  exit 2\nfi\nif [ "$ACTION" = "--delete" ]; then find ./cache -type f -mtime +30 -delete; fi\n',
    absent: ['R1'],
  },
  {
    name: "no R1: a param() block inside a function is fed by its callers, not the script's input",
    path: 'scripts/Fn-Param.ps1',
    text: "function Get-Size {\n    param([string]$Folder)\n    (Get-ChildItem -Recurse (Join-Path $PSScriptRoot $Folder) | Measure-Object Length -Sum).Sum\n}\nGet-Size 'assets'\n",
    absent: ['R1'],
  },
  {
    name: 'R1: script param block after #Requires, a help comment and CmdletBinding',
    path: 'scripts/Req-Param.ps1',
    text: '#Requires -Version 7\n<#\n.SYNOPSIS\nArchives one project folder.\n#>\n[CmdletBinding()]\nparam(\n    [string]$Project\n)\nCompress-Archive -Path "C:\\work\\$Project" -DestinationPath "$Project.zip"\n',
    expect: [['R1', 8]],
  },
];

describe('R1: arguments and parameters used without a check', () => {
  for (const c of cases) it(c.name, () => check(c));
});
