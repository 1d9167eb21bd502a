import { clip, revealSegments, safeHttpUrl } from './format.js';

// The preact pieces the report page and the batch dashboard share (both bundled by vite; no node: imports).
// The only ways skill text reaches the page: as text nodes (never as markup), with invisible characters shown
// as visible markers, and as a link only when it is an http(s) URL.

/** Untrusted text; invisible and bidi characters appear as ⟨U+…⟩ markers. @param {{ value: string, max?: number }} props */
export function Txt({ value, max = 4000 }) {
  return (
    <>
      {revealSegments(clip(value, max)).map((s, i) =>
        s.hidden ? (
          <mark class="hidden-char" key={i} title="Invisible or control character in the skill's text">
            {s.text}
          </mark>
        ) : (
          s.text
        ),
      )}
    </>
  );
}

/** Untrusted text in monospace. @param {{ value: string, max?: number }} props */
export function Code({ value, max }) {
  return (
    <code>
      <Txt value={value} max={max} />
    </code>
  );
}

/** A link only for http(s) URLs, opened without referrer or opener; anything else stays text. @param {{ value: string }} props */
export function MaybeLink({ value }) {
  const href = safeHttpUrl(value);
  if (!href) return <Code value={value} />;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      <Txt value={value} />
    </a>
  );
}

/** Quoted code with the file's line numbers. @param {{ text: string, firstLine?: number, maxLines?: number }} props */
export function CodeBlock({ text, firstLine = 1, maxLines = 60 }) {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const shown = lines.slice(0, maxLines);
  const width = String(firstLine + shown.length - 1).length;
  return (
    <pre class="code">
      {shown.map((line, i) => (
        <div class="code-line" key={i}>
          <span class="ln" aria-hidden="true">
            {String(firstLine + i).padStart(width, ' ')}
          </span>
          <span class="src">
            <Txt value={line} max={2000} />
          </span>
        </div>
      ))}
      {lines.length > maxLines ? <div class="code-more">… {lines.length - maxLines} more lines</div> : null}
    </pre>
  );
}

/** A section that did not run, with the reason. @param {{ reason: string }} props */
export function NotRun({ reason }) {
  return (
    <p class="not-run">
      <span class="chip chip-muted">not run</span> <Txt value={reason} />
    </p>
  );
}

/** @param {{ id: string, title: string, aside?: import('preact').ComponentChildren, children: import('preact').ComponentChildren }} props */
export function Section({ id, title, aside, children }) {
  return (
    <section id={id} class="section">
      <header class="section-head">
        <h2>{title}</h2>
        {aside ? <div class="section-aside">{aside}</div> : null}
      </header>
      {children}
    </section>
  );
}

/**
 * The masthead's links to the page's sections.
 * @param {{ sections: readonly (readonly string[])[] }} props [id, label] pairs
 */
export function Toc({ sections }) {
  return (
    <nav class="toc" aria-label="Sections">
      {sections.map(([id, label]) => (
        <a href={`#${id}`} key={id}>
          {label}
        </a>
      ))}
    </nav>
  );
}

/** A headline number with its label and a line of detail. @param {{ label: string, value: string, tone: string, detail: import('preact').ComponentChildren }} props */
export function Tile({ label, value, tone, detail }) {
  return (
    <div class={`tile tone-${tone}`}>
      <div class="tile-label">{label}</div>
      <div class="tile-value">{value}</div>
      <div class="tile-detail">{detail}</div>
    </div>
  );
}
