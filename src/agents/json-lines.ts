// Harnesses print one JSON event per line, mixed at times with plain log lines: keep the objects, skip the rest.

export function parseJsonLines<T>(text: string): T[] {
  const events: T[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    try {
      events.push(JSON.parse(trimmed) as T);
    } catch {
      // A line cut by the output bound or a log line that happens to start with a brace.
    }
  }
  return events;
}

/** Tool results arrive as a string or as content blocks; the trajectory keeps their text. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) => (typeof part === 'string' ? part : ((part as { text?: unknown })?.text ?? '')))
      .filter((s): s is string => typeof s === 'string' && s.length > 0)
      .join('\n');
  if (content === null || content === undefined) return '';
  return JSON.stringify(content);
}
