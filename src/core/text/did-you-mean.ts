import { distance } from "fastest-levenshtein";

/**
 * The candidate `word` most likely misspells, or null when none is close: at most a third of the word's length in
 * edits (at least one, at most three), compared without case. A typo gets a suggestion; an unrelated word does not.
 */
export function didYouMean(
  word: string,
  candidates: readonly string[],
): string | null {
  const typed = word.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(typed, candidate.toLowerCase());
    if (d > 0 && d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
