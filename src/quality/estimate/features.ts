import { contentTerms } from '../terms.js';
import { countTerms, type TermCounts } from './tfidf.js';

// What each retrieval method counts. The primary method (seed 001's "TF-IDF retrieval") counts content terms
// of the name, description and body, the shorter fields weighted up because they say what the skill is for;
// the second method counts character 3-5-grams of the name and description only, a different representation
// (no tokeniser, no stemmer, robust to compounds and misspellings) used as the comparison in Table 6.

/** The text of a skill that retrieval reads. */
export interface RetrievalText {
  name: string;
  description: string;
  body: string;
}

export type RetrievalMethodId = 'tfidf-knn' | 'char-ngram-knn';

export interface RetrievalMethod {
  id: RetrievalMethodId;
  name: string;
  features(text: RetrievalText): TermCounts;
}

/** A name term counts three times, a description term twice, a body term once. */
export const FIELD_WEIGHTS = { name: 3, description: 2, body: 1 } as const;

export const CHAR_GRAM_SIZES: readonly number[] = [3, 4, 5];

function wordFeatures(text: RetrievalText): TermCounts {
  const counts = new Map<string, number>();
  for (const field of ['name', 'description', 'body'] as const) {
    countTerms(contentTerms(text[field]), counts, FIELD_WEIGHTS[field]);
  }
  return counts;
}

function charGramFeatures(text: RetrievalText): TermCounts {
  // Runs of letters and digits only, each padded with a space so that grams mark word starts and ends.
  const words = `${text.name} ${text.description}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const counts = new Map<string, number>();
  for (const word of words) {
    const chars = [...` ${word} `];
    for (const n of CHAR_GRAM_SIZES) {
      for (let i = 0; i + n <= chars.length; i++) {
        const gram = chars.slice(i, i + n).join('');
        counts.set(gram, (counts.get(gram) ?? 0) + 1);
      }
    }
  }
  return counts;
}

export const RETRIEVAL_METHODS: Readonly<Record<RetrievalMethodId, RetrievalMethod>> = {
  'tfidf-knn': { id: 'tfidf-knn', name: 'word-overlap retrieval (default)', features: wordFeatures },
  'char-ngram-knn': { id: 'char-ngram-knn', name: 'Character n-gram retrieval', features: charGramFeatures },
};
