// Server-sent events as the vendors write them, and the text splitting that makes streams realistic.

export interface SseEvent {
  /** The `event:` line; Chat Completions sends data lines only. */
  event?: string;
  data: string;
}

export function sse(event: string | undefined, data: unknown): SseEvent {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return event === undefined ? { data: text } : { event, data: text };
}

export function encodeSse(e: SseEvent): string {
  return `${e.event === undefined ? '' : `event: ${e.event}\n`}data: ${e.data}\n\n`;
}

/** Splits text into pieces so clients must concatenate deltas (never an empty list). */
export function pieces(text: string, size = 12): string[] {
  if (text.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Assistant turns already in a conversation: runs of consecutive assistant-side items count once. */
export function countTurns(items: readonly unknown[], isAssistant: (item: unknown) => boolean): number {
  let turns = 0;
  let inTurn = false;
  for (const item of items) {
    const assistant = isAssistant(item);
    if (assistant && !inTurn) turns++;
    inTurn = assistant;
  }
  return turns;
}

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join('\n');
  }
  return '';
}
