// Work-list loops whose body refills the list they drain: only the data ends them. A crawler that queues
// every link it finds runs as long as the site is large; a retry loop that re-runs until nothing fails never
// ends on a real failure. Shared by the Python and JavaScript extractors (they pass the loop's source text).

/** Conditions that run while a collection is non-empty: `queue`, `len(q) > 0`, `q.length`, `q.size > 0`. */
const SIZE_CONDITION = [
  /^\(?\s*len\((\w+)\)\s*(?:>|!=|>=\s*1)\s*0?\s*\)?$/,
  /^\(?\s*(\w+)\.(?:length|size)\s*(?:>|!==?|>=\s*1)?\s*0?\s*\)?$/,
];
const TRUTHY_CONDITION = /^\(?\s*(\w+)\s*\)?$/;

/** `if not queue: break`, `if (!queue.length) break;`, `if (queue.length === 0) break;` in an infinite loop. */
const EMPTY_BREAK = [
  /\bif\s+not\s+(\w+)\s*:\s*break\b/,
  /\bif\s+len\((\w+)\)\s*==\s*0\s*:\s*break\b/,
  /\bif\s*\(\s*!\s*(\w+)(?:\.(?:length|size))?\s*\)\s*\{?\s*break\b/,
  /\bif\s*\(\s*(\w+)\.(?:length|size)\s*===?\s*0\s*\)\s*\{?\s*break\b/,
];

/** A comparison with a limit, a counter or a clock: the author bounded the loop. */
const LIMIT =
  /\b\w*(?:max|limit|budget|deadline|cap|attempts?|tries|retries|remaining)\w*\s*(?:[<>]=?|==)|(?:[<>]=?|==)\s*\w*(?:max|limit|budget|deadline|cap|attempts?|tries|retries)\w*|\b(?:time\.(?:time|monotonic)\(\)|Date\.now\(\)|performance\.now\(\))\s*[<>]/i;

export type Refill = 'queued' | 'reassigned' | 'drained';

/**
 * How the loop's collection changes inside its body, or null when it is not a work-list loop or compares
 * against a limit. `queued`: items appended (a crawl when the items come from the network, a finite walk
 * otherwise); `reassigned`: the whole list replaced by a re-run's result (only for explicit size conditions,
 * so `while url: url = next` paging is not one); `drained`: items only taken out, so the list runs dry.
 */
export function refilledWorklist(condText: string, bodyText: string, infinite: boolean): Refill | null {
  const cond = condText.trim();
  if (LIMIT.test(cond) || LIMIT.test(bodyText)) return null;
  let name: string | undefined;
  let sized = false;
  if (infinite) name = EMPTY_BREAK.map((re) => re.exec(bodyText)?.[1]).find(Boolean);
  else {
    name = SIZE_CONDITION.map((re) => re.exec(cond)?.[1]).find(Boolean);
    sized = !!name;
    name ??= TRUTHY_CONDITION.exec(cond)?.[1];
  }
  if (!name || /^(true|false|True|False|1|0)$/.test(name)) return null;
  // `name` is a bare identifier (\w+), safe to embed in a pattern.
  const n = name;
  if (
    new RegExp(`\\b${n}\\s*\\.\\s*(?:append|appendleft|extend|push|unshift|add|insert|put)\\s*\\(`).test(
      bodyText,
    )
  )
    return 'queued';
  if (sized && new RegExp(`(?:^|[^.\\w])${n}\\s*=(?!=)`, 'm').test(bodyText)) return 'reassigned';
  if (new RegExp(`\\b${n}\\s*\\.\\s*(?:pop|popleft|shift|splice|get_nowait)\\s*\\(`).test(bodyText))
    return 'drained';
  return null;
}
