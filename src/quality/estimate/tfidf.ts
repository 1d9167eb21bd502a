// A small TF-IDF index with cosine similarity over sparse term counts, shared by both retrieval methods (they
// differ in what they count, not in how it is weighted). Sublinear tf (1 + ln tf) keeps a term repeated twenty
// times in a long body from drowning the rest; smoothed idf ln((1 + N) / (1 + df)) + 1 keeps every weight
// positive. Documents are searched through an inverted index, so a query touches only the postings of its own
// terms: the cost grows with the matching documents, not with the size of the reference set.

export type TermCounts = ReadonlyMap<string, number>;

interface Posting {
  doc: number;
  weight: number;
}

export function countTerms(
  terms: Iterable<string>,
  into = new Map<string, number>(),
  times = 1,
): Map<string, number> {
  for (const t of terms) into.set(t, (into.get(t) ?? 0) + times);
  return into;
}

export class TfIdfIndex {
  readonly size: number;
  private readonly df = new Map<string, number>();
  private readonly postings = new Map<string, Posting[]>();

  constructor(docs: readonly TermCounts[]) {
    this.size = docs.length;
    for (const doc of docs) for (const term of doc.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    docs.forEach((doc, i) => {
      for (const [term, weight] of this.unitVector(doc)) {
        const list = this.postings.get(term);
        if (list) list.push({ doc: i, weight });
        else this.postings.set(term, [{ doc: i, weight }]);
      }
    });
  }

  idf(term: string): number {
    return Math.log((1 + this.size) / (1 + (this.df.get(term) ?? 0))) + 1;
  }

  /**
   * Cosine similarity of `query` with every indexed document (0 for documents sharing no term). Query terms the
   * index has never seen count in the query's norm: a query mostly about something else is not a close match.
   */
  similarities(query: TermCounts): Float64Array {
    const scores = new Float64Array(this.size);
    for (const [term, weight] of this.unitVector(query)) {
      for (const p of this.postings.get(term) ?? []) scores[p.doc]! += weight * p.weight;
    }
    return scores;
  }

  private unitVector(counts: TermCounts): [string, number][] {
    const weighted: [string, number][] = [];
    let norm = 0;
    for (const [term, count] of counts) {
      if (count <= 0) continue;
      const w = (1 + Math.log(count)) * this.idf(term);
      weighted.push([term, w]);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    return norm === 0 ? [] : weighted.map(([t, w]) => [t, w / norm]);
  }
}
