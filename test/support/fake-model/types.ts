// Shared shapes of the scripted fake model server: what a script says, and the reply a protocol encoder writes.

/** Token usage as a harness sees it: `input` counts every prompt token, `cached` the part read from cache. */
export interface FakeUsage {
  input: number;
  cached: number;
  output: number;
}

export interface FakeToolCall {
  name: string;
  /** The tool input; sent as JSON arguments. */
  input: unknown;
  /** Fixed call id; generated from the turn and index when absent. */
  id?: string;
}

/** One scripted assistant turn: text, tool calls, or both. */
export interface FakeTurn {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** The answer to a structured-output request (json_schema format or a forced tool). */
  json?: unknown;
  usage?: Partial<FakeUsage>;
}

export type Protocol = 'anthropic' | 'responses' | 'chat';

/** What a script matcher sees of a request. */
export interface FakeRequestView {
  protocol: Protocol;
  // biome-ignore lint/suspicious/noExplicitAny: the parsed wire body is whatever the client sent.
  body: any;
  /** System prompt text: Anthropic `system` and system messages, Responses `instructions`, system/developer messages. */
  system: string;
  toolNames: string[];
  /** The whole request body as JSON text, for "does the request mention X" matchers. */
  raw: string;
  /** Assistant turns already in the conversation (consecutive assistant items count once). */
  assistantTurns: number;
  /** Set when the client asks for structured output: the forced tool name, or null for a json_schema format. */
  structured: { tool: string | null } | null;
}

export interface FakeScript {
  name: string;
  /** Chooses this script for a request; absent means "any request". Scripts are tried in order. */
  match?: (req: FakeRequestView) => boolean;
  /**
   * Also answer requests that carry no tools and ask for no structured output. Off by default: such requests
   * are harness side requests (titles, summaries) and get the server's side reply.
   */
  answersToolless?: boolean;
  turns: FakeTurn[];
}

/** The reply an encoder turns into protocol JSON or SSE. */
export interface Reply {
  id: string;
  model: string;
  text: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  usage: FakeUsage;
}
