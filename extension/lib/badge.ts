import { reveal } from '../../src/core/format.js';
import { STATUS_ADVICE, STATUS_LABEL } from '../../src/core/verdict-words.js';
import type { Audit } from './audit.js';
import type { Failure } from './protocol.js';
import type { Provenance } from './provenance.js';

// The badge: one custom element whose open shadow root holds everything, so the page's CSS cannot restyle it and
// its CSS cannot restyle the page. Every string from the page or the server goes in as text (textContent), never
// as markup, and with invisible characters made visible (the report's own `reveal`).

export type BadgeState =
  | { kind: 'checking' }
  | { kind: 'not-audited'; canSubmit: boolean }
  | { kind: 'submitting' }
  | { kind: 'audit'; audit: Audit; provenance: Provenance }
  | { kind: 'no-source' }
  | { kind: 'failure'; failure: Failure };

export interface BadgeActions {
  submit(): void;
  openOptions(): void;
}

export const BADGE_TAG = 'skillaudit-badge';

const STYLE = `
/* !important inside the shadow tree outranks the page's !important on the host, so the page cannot move or hide it. */
:host { all: initial !important; display: block !important; position: fixed !important; right: 16px !important;
  bottom: 16px !important; z-index: 2147483647 !important; }
.badge { box-sizing: border-box; display: flex; flex-direction: column; gap: 6px; max-width: 320px; padding: 10px 12px;
  border: 1px solid #d0d7de; border-left: 6px solid var(--tone); border-radius: 8px; background: #fff; color: #1f2328;
  font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; box-shadow: 0 4px 14px rgb(0 0 0 / 0.18);
  --tone: #6e7781; }
.badge[data-tone="pass"] { --tone: #1a7f37; }
.badge[data-tone="caution"] { --tone: #9a6700; }
.badge[data-tone="risky"] { --tone: #cf222e; }
.badge[data-tone="busy"] { --tone: #0969da; }
.head { display: flex; align-items: center; gap: 8px; }
.brand { font-weight: 600; }
.name { color: #59636e; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; flex: 1; }
.dismiss { all: unset; cursor: pointer; color: #59636e; padding: 0 4px; }
.verdict { align-self: flex-start; padding: 1px 8px; border-radius: 999px; background: var(--tone); color: #fff;
  font-weight: 600; }
.detail { overflow-wrap: anywhere; }
.actions { display: flex; gap: 10px; align-items: center; }
a, button.action { font: inherit; color: #0969da; }
button.action { cursor: pointer; padding: 2px 10px; border: 1px solid #0969da; border-radius: 6px; background: #fff; }
`;

function element(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = reveal(text);
  return node;
}

function reportLink(href: string, label: string): HTMLElement {
  const link = element('a', 'report', label) as HTMLAnchorElement;
  link.href = href;
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  return link;
}

function button(className: string, label: string, onClick: () => void): HTMLElement {
  const node = element('button', `action ${className}`, label) as HTMLButtonElement;
  node.type = 'button';
  node.addEventListener('click', onClick);
  return node;
}

const PROGRESS: Record<'queued' | 'running', string> = { queued: 'Audit queued…', running: 'Audit running…' };

/** What one state shows: a tone (the colour), lines of text, and links or buttons. */
interface View {
  tone: 'pass' | 'caution' | 'risky' | 'busy' | 'none';
  lines: HTMLElement[];
  controls: HTMLElement[];
}

// Failures the user can fix in Options (server URL, permission, token).
const FIXABLE_IN_OPTIONS: readonly Failure['code'][] = [
  'no-permission',
  'no-token',
  'unauthorized',
  'unreachable',
];

function view(state: BadgeState, actions: BadgeActions): View {
  const options = () => button('options', 'Open Options', actions.openOptions);
  switch (state.kind) {
    case 'checking':
      return { tone: 'busy', lines: [element('div', 'detail', 'Looking up this skill…')], controls: [] };
    case 'submitting':
      return { tone: 'busy', lines: [element('div', 'detail', 'Requesting an audit…')], controls: [] };
    case 'no-source':
      return {
        tone: 'none',
        lines: [
          element(
            'div',
            'detail',
            'This page links no GitHub source, so SkillAudit cannot audit it from here.',
          ),
        ],
        controls: [],
      };
    case 'not-audited':
      return state.canSubmit
        ? {
            tone: 'none',
            lines: [element('div', 'detail', 'Not audited yet.')],
            controls: [button('submit', 'Audit this skill', actions.submit)],
          }
        : {
            tone: 'none',
            lines: [
              element('div', 'detail', 'Not audited yet.'),
              element('div', 'detail hint', 'Set a token in SkillAudit Options to request an audit.'),
            ],
            controls: [options()],
          };
    case 'failure':
      return {
        tone: 'none',
        lines: [element('div', 'detail error', state.failure.message)],
        controls: FIXABLE_IN_OPTIONS.includes(state.failure.code) ? [options()] : [],
      };
    case 'audit':
      return auditView(state.audit, state.provenance, actions);
  }
}

// Which source, commit and age the verdict is for, and whether the page shows another version than the audited one.
function provenanceView(provenance: Provenance, actions: BadgeActions): View {
  const { verdictFor, linkedRepository, commit, age, pageRef, auditRef } = provenance;
  const lines: HTMLElement[] = [];
  if (verdictFor) {
    const text = linkedRepository
      ? `Verdict for the linked repository ${verdictFor}, not for the files uploaded here`
      : `Verdict for ${verdictFor}`;
    lines.push(element('div', 'detail source', text));
  }
  const when = age ? ` (${age})` : '';
  if (pageRef) {
    const audited = commit ?? auditRef ?? 'the default branch';
    lines.push(element('div', 'detail version', `Audited at ${audited}${when}, this page shows ${pageRef}`));
    return { tone: 'none', lines, controls: [button('submit', 'Audit this version', actions.submit)] };
  }
  if (commit || age)
    lines.push(element('div', 'detail version', `Audited at ${commit ?? 'this source'}${when}`));
  return { tone: 'none', lines, controls: [] };
}

function auditView(audit: Audit, provenance: Provenance, actions: BadgeActions): View {
  const link = audit.reportHref ? [reportLink(audit.reportHref, 'Open report')] : [];
  if (audit.status === 'queued' || audit.status === 'running') {
    const stage = audit.status === 'running' && audit.stage ? ` (${audit.stage})` : '';
    return {
      tone: 'busy',
      lines: [element('div', 'detail progress', `${PROGRESS[audit.status]}${stage}`)],
      controls: link,
    };
  }
  if (audit.status === 'failed' || !audit.verdict) {
    return {
      tone: 'none',
      lines: [element('div', 'detail error', `Audit failed: ${audit.error?.message ?? 'no verdict'}`)],
      controls: [button('submit', 'Audit again', actions.submit), ...link],
    };
  }
  const { status, rating, reason } = audit.verdict;
  const origin = provenanceView(provenance, actions);
  return {
    tone: status,
    lines: [
      element('div', 'verdict', STATUS_LABEL[status]),
      element('div', 'detail advice', STATUS_ADVICE[status]),
      ...(rating !== undefined ? [element('div', 'detail score', `Safety ${rating}/100`)] : []),
      ...(reason && status !== 'pass' ? [element('div', 'detail reason', reason)] : []),
      ...origin.lines,
    ],
    controls: [...origin.controls, ...link],
  };
}

export class Badge {
  private readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private dismissed = false;

  constructor(
    private readonly name: string,
    private readonly actions: BadgeActions,
  ) {
    this.host = document.createElement(BADGE_TAG);
    // Open, so that tests and assistive tools can read it; it holds nothing the page may not see.
    this.root = this.host.attachShadow({ mode: 'open' });
    // A constructed sheet, not a <style> element: a page CSP without 'unsafe-inline' styles would block the latter.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
    this.root.adoptedStyleSheets = [sheet];
  }

  render(state: BadgeState): void {
    if (this.dismissed) return;
    const { tone, lines, controls } = view(state, this.actions);
    const card = element('div', 'badge');
    card.dataset.tone = tone;
    card.dataset.state = state.kind === 'audit' ? state.audit.status : state.kind;
    card.setAttribute('role', 'status');
    const dismiss = element('button', 'dismiss', '×') as HTMLButtonElement;
    dismiss.type = 'button';
    dismiss.title = 'Hide SkillAudit on this page';
    dismiss.addEventListener('click', () => {
      this.dismissed = true;
      this.remove();
    });
    const head = element('div', 'head');
    head.append(element('span', 'brand', 'SkillAudit'), element('span', 'name', this.name), dismiss);
    card.append(head, ...lines);
    if (controls.length) {
      const row = element('div', 'actions');
      row.append(...controls);
      card.append(row);
    }
    this.root.replaceChildren(card);
    // The page may replace <body> (GitHub's navigation does); <html> survives it.
    if (!this.host.isConnected) document.documentElement.append(this.host);
  }

  remove(): void {
    this.host.remove();
  }
}
