import type { RuleCheck } from '../schemes/index.js';
import { SKILLS_DIR, type TaskLimits, WORKDIR } from './layout.js';

// The generated text files of a task: Dockerfile and tests/test.sh. Every value from a scenario is quoted for
// the shell, so a model-written path or command cannot break out of its check.

/** Single-quotes a value for POSIX shells (NUL cannot live in a shell string and is dropped). */
export function shellQuote(value: string): string {
  return `'${value.replace(/\0/g, '').replace(/'/g, `'\\''`)}'`;
}

/** The same Dockerfile for both conditions: it installs the skill only when environment/skills/ exists. */
export function dockerfile(baseImage: string): string {
  return [
    `FROM ${baseImage}`,
    `WORKDIR ${WORKDIR}`,
    '# The build context is this folder: workspace/ holds the task inputs; skills/ exists only in the with-skill task.',
    'COPY . /tmp/skillaudit-env/',
    'RUN set -eu; \\',
    `    if [ -d /tmp/skillaudit-env/workspace ]; then cp -a /tmp/skillaudit-env/workspace/. ${WORKDIR}/; fi; \\`,
    `    if [ -d /tmp/skillaudit-env/skills ]; then mkdir -p ${SKILLS_DIR} && cp -a /tmp/skillaudit-env/skills/. ${SKILLS_DIR}/; fi; \\`,
    '    rm -rf /tmp/skillaudit-env',
    '',
  ].join('\n');
}

function checkLine(check: RuleCheck, limits: TaskLimits): string {
  switch (check.kind) {
    case 'file_exists':
      return `check ${shellQuote(`exists ${check.path}`)} test -e ${shellQuote(check.path)}`;
    case 'file_contains':
      return `check ${shellQuote(`contains ${check.path}`)} contains ${shellQuote(check.path)} ${shellQuote(check.value.replace(/\n+$/, ''))}`;
    case 'command_succeeds':
      return `check ${shellQuote(`command ${check.command.slice(0, 60)}`)} timeout ${limits.commandTimeoutSec} bash -c ${shellQuote(check.command)}`;
  }
}

/** tests/test.sh: runs the rule checks in the working directory and writes the passed fraction as the reward. */
export function testScript(checks: readonly RuleCheck[], limits: TaskLimits): string {
  return [
    '#!/usr/bin/env bash',
    '# Rule checks written by SkillAudit. The checklist for the LLM judge is in checklist.json beside this file.',
    'set -u',
    'mkdir -p /logs/verifier',
    `cd ${WORKDIR} || { echo 0 > /logs/verifier/reward.txt; exit 0; }`,
    'passed=0',
    `total=${checks.length}`,
    '# Literal substring test (bash pattern with the value quoted), so values may hold newlines or glob characters;\n# $(cat) drops trailing newlines, so values are written without them.',
    'contains() { local text; text=$(cat -- "$1" 2>/dev/null) || return 1; [[ "$text" == *"$2"* ]]; }',
    'check() {',
    '  local name="$1"; shift',
    '  if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); echo "PASS $name"; else echo "FAIL $name"; fi',
    '}',
    ...checks.map((c) => checkLine(c, limits)),
    'if [ "$total" -eq 0 ]; then reward=0; else reward=$(awk -v p="$passed" -v t="$total" \'BEGIN { printf "%.4f", p / t }\'); fi',
    'echo "$reward" > /logs/verifier/reward.txt',
    'echo "rule checks: $passed/$total passed (reward $reward)"',
    '',
  ].join('\n');
}
