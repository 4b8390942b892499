import type { LanguagePatterns } from "./language-patterns.ts";

/** Verbs that, said as an instruction, ask for a change to the repository. */
const WORK_VERBS = new Set([
  "add",
  "address",
  "adapt",
  "adjust",
  "allow",
  "alter",
  "annotate",
  "append",
  "apply",
  "bootstrap",
  "bring",
  "bump",
  "catch",
  "change",
  "clean",
  "cleanup",
  "combine",
  "comment",
  "complete",
  "consolidate",
  "continue",
  "convert",
  "correct",
  "cover",
  "create",
  "debug",
  "decrease",
  "dedupe",
  "deduplicate",
  "delete",
  "deprecate",
  "disable",
  "document",
  "downgrade",
  "draft",
  "drop",
  "edit",
  "enable",
  "enhance",
  "ensure",
  "extend",
  "extract",
  "fill",
  "finish",
  "fix",
  "format",
  "generate",
  "handle",
  "harden",
  "implement",
  "improve",
  "include",
  "increase",
  "init",
  "initialise",
  "initialize",
  "inline",
  "insert",
  "install",
  "integrate",
  "internationalize",
  "introduce",
  "limit",
  "localise",
  "localize",
  "make",
  "memoize",
  "merge",
  "migrate",
  "mock",
  "modify",
  "modularize",
  "move",
  "optimise",
  "optimize",
  "parallelize",
  "patch",
  "pin",
  "polish",
  "port",
  "prepend",
  "prevent",
  "proceed",
  "prune",
  "purge",
  "put",
  "raise",
  "redo",
  "reduce",
  "refactor",
  "remove",
  "rename",
  "reorganise",
  "reorganize",
  "repair",
  "replace",
  "resolve",
  "restore",
  "restructure",
  "resume",
  "revert",
  "reword",
  "rework",
  "rewrite",
  "rollback",
  "scaffold",
  "separate",
  "set",
  "setup",
  "shorten",
  "simplify",
  "solve",
  "sort",
  "speed",
  "split",
  "strip",
  "stub",
  "support",
  "swap",
  "switch",
  "tidy",
  "translate",
  "trim",
  "turn",
  "tweak",
  "undo",
  "unify",
  "uninstall",
  "unpin",
  "update",
  "upgrade",
  "wire",
  "write",
]);

/** Long verbs whose one-letter typos (`implment`, `refacor`) still count. */
const FUZZY_VERBS = [...WORK_VERBS].filter((verb) => verb.length >= 6);
/** Real words one letter away from a verb, with the same first and last letter. */
const NOT_TYPOS = new Set(["present", "chance", "charge", "crate", "reactor"]);

const SENTENCES = /(?<=[.!?;])\s+|(?<=[!?;])(?=[^\s!?;])|\n+|\s[-—–]+\s|[—–]/;
const CLAUSES =
  /\s*(?:[,:()]|\s-\s|\b(?:and then|and|then|but|or|so|plus|also)\b)\s*/;
const REPORTED =
  /\b(?:wrote|writes|said|says|asked|asks|commented|replied|suggested|told (?:me|us))\s*:[\s\S]*$/;
/** "Update: tests pass now" starts with a one-word heading, not an order. */
const HEADING = /^\s*[a-z]+\s*:/;
const FILLER_REGEX =
  /^(?:ok(?:ay)?|k|so|now|then|also|just|and|but|hey|hi|hello|yes|yeah|yep|yup|sure|alright|all right|great|cool|nice|perfect|good|sounds good|lgtm|thanks|thank you|thx|claude|first|firstly|next|finally|lastly|actually|right|well|oh|ah|hmm+|btw|quickly|maybe|again|instead|still|only|simply|as well)\b[\s,]*/;
const STRONG_LEAD_REGEX =
  /^(?:please|pls|plz|kindly|(?:can|could|would|will|won'?t|wouldn'?t|couldn'?t|can'?t) (?:you|u|ya|we)(?: please| pls)?|would you mind|(?:i|we)(?:'d| would) like (?:you|u) to|(?:i|we) (?:want|need) (?:you|u) to|(?:i'?d|i would|we'?d|we would) (?:love|like|appreciate) (?:it )?if (?:you|u) could|it(?:'d| would) be (?:great|nice|good|cool|awesome|helpful) if (?:you|u) could|how about (?:you|u)|you (?:should|need to|must|have to|can)|go ahead and|go ahead|feel free to|help (?:me|us)|make sure to|let'?s|let us|(?:i|we)(?:'d| would) like to|(?:i|we) (?:want|need|have) to|we (?:should|must)|time to|try to|remember to|don'?t forget to)\b[\s,]*/;
const NEGATION =
  /^(?:don'?t|dont|do not|never|no need to|without|not|stop|avoid|refrain from)\b/;
const QUESTION_FRAME_REGEX =
  /^(?:what|what'?s|why|why'?s|how|how'?s|where|where'?s|which|who|who'?s|whose|whom|is|isn'?t|are|aren'?t|was|were|am|do|does|doesn'?t|did|didn'?t|should|shouldn'?t|shall|would|could|can|will|won'?t|may|might|must|have|has|hasn'?t|haven'?t|had|any|hypothetically|suppose|supposing|imagine|in theory|theoretically|i'?m curious|just curious|curious|i wonder|wondering|quick question|question)\b/;
const SUBORDINATE =
  /^(?:if|when|whenever|once|after|before|because|since|although|though|while|unless|until|as soon as|in case|whether|even if)\b/;
const DO_IMPERATIVE =
  /^do (?:it|this|that|so|them|these|those|both|all|the same|the rest|the remaining|the other|the following|the \w+ (?:step|part|change|changes|refactor|migration|fix|update|cleanup))\b/;
const WANT_OUTCOME_REGEX =
  /^(?:i|we) (?:want|need|would like|'d like) (?:the|this|that|it|our|my|all|each|every)\b[^?]*?\bto\b/;
const NEED_THING =
  /^(?:we (?:need|want) (?:a|an|some|proper|better)|it(?:'d| would) be (?:great|nice|good|cool|awesome|helpful) to have)\b/;
/** A verb followed by these is a noun: "make sense?", "change of plans", "update looks good". */
const NOUN_USE =
  /^\s+(?:of|is|are|was|were|looks?|seems?|sense|has|had|have|works?|worked|does|did|doesn'?t|didn'?t|can|could|would|should|will|question|questions|request|requests)\b/;
const SPECIAL_PHRASES = /^(?:get rid of|use\b.*\binstead\b)/;
const QUESTION_CUE =
  /\?|\b(?:explain|describe|tell me|show me|walk me through|summari[sz]e|list|review|check|look at|find|search|what|why|how|where|which|who|when|is there|does|do you)\b/;

/**
 * An anchored alternation behind a Set of the first words it can start with. V8 compiles a regular expression on
 * first use (about 0.3-1.8 ms for these in a fresh hook process); a clause that starts with none of the words skips it.
 */
interface GatedRegExp {
  readonly regex: RegExp;
  exec(text: string): RegExpExecArray | null;
  test(text: string): boolean;
}

function gated(firstWords: string, regex: RegExp): GatedRegExp {
  const words = new Set(firstWords.split(" "));
  // `\b` ends a word at an apostrophe, so both `won` of "won't" and the whole contraction are candidates.
  const opens = (text: string) => {
    const word = /^([a-z]+)(?:'[a-z]+)?/.exec(text);
    if (word === null) return false;
    const letters = word[1] ?? "";
    return words.has(letters) || words.has(word[0]) || /^hm+$/.test(letters);
  };
  return {
    regex,
    exec: (text) => (opens(text) ? regex.exec(text) : null),
    test: (text) => opens(text) && regex.test(text),
  };
}

const FILLER = gated(
  "ok okay k so now then also just and but hey hi hello yes yeah yep yup sure alright all great cool nice perfect good sounds lgtm thanks thank thx claude first firstly next finally lastly actually right well oh ah hmm btw quickly maybe again instead still only simply as",
  FILLER_REGEX,
);
const STRONG_LEAD = gated(
  "please pls plz kindly can could would will won't wont wouldn't wouldnt couldn't couldnt can't cant i i'd id we we'd wed it it'd how you go feel help make let's lets let time try remember don't dont",
  STRONG_LEAD_REGEX,
);
const QUESTION_FRAME = gated(
  "what what's whats why why's whys how how's hows where where's wheres which who who's whos whose whom is isn't isnt are aren't arent was were am do does doesn't doesnt did didn't didnt should shouldn't shouldnt shall would could can will won't wont may might must have has hasn't hasnt haven't havent had any hypothetically suppose supposing imagine in theoretically i'm im just curious i wondering quick question",
  QUESTION_FRAME_REGEX,
);
const WANT_OUTCOME = gated("i we", WANT_OUTCOME_REGEX);

/** The four gated patterns with their plain regular expressions, for the test that they agree. */
export const GATED_PATTERNS = {
  FILLER,
  STRONG_LEAD,
  QUESTION_FRAME,
  WANT_OUTCOME,
};

/** English: a request is an imperative work verb at the start of a clause, after fillers and polite leads. */
export const enPatterns: LanguagePatterns = {
  findWork(prose) {
    for (const sentence of prose.toLowerCase().split(SENTENCES)) {
      const found = findInSentence(
        sentence.replace(REPORTED, "").replace(HEADING, ""),
      );
      if (found !== null) return found;
    }
    return null;
  },
  findQuestion(prose) {
    return QUESTION_CUE.exec(prose.toLowerCase())?.[0] ?? null;
  },
};

function findInSentence(sentence: string): string | null {
  // A question's later clauses ("how do I add X and register it?") stay part of the question unless a polite
  // lead starts a new request ("why does it fail, can you fix it?"); a bare verb before a question in the same
  // sentence is a topic, not an order ("document structure looks odd, why is that?").
  const clauses = sentence.split(CLAUSES).map((c) => dropLeads(c.trim()));
  const asks = sentence.trimEnd().endsWith("?");
  let framed = false;
  let found: string | null = null;
  for (const { rest, strong } of clauses) {
    if (rest === "") continue;
    if (!strong && QUESTION_FRAME.test(rest) && !DO_IMPERATIVE.test(rest)) {
      if (found !== null && asks) return null;
      framed = true;
      continue;
    }
    if (found !== null) continue;
    if ((framed && !strong) || NEGATION.test(rest) || SUBORDINATE.test(rest))
      continue;
    found = workAtStart(rest);
    if (found !== null && strong) return found;
  }
  return found;
}

function dropLeads(clause: string): { rest: string; strong: boolean } {
  let rest = clause;
  let strong = false;
  for (let i = 0; i < 6; i++) {
    const filler = FILLER.exec(rest);
    if (filler !== null && filler[0] !== "") {
      rest = rest.slice(filler[0].length);
      continue;
    }
    const lead = STRONG_LEAD.exec(rest);
    if (lead !== null && lead[0] !== "") {
      rest = rest.slice(lead[0].length);
      strong = true;
      continue;
    }
    break;
  }
  return { rest, strong };
}

function workAtStart(rest: string): string | null {
  const phrase =
    DO_IMPERATIVE.exec(rest) ??
    WANT_OUTCOME.exec(rest) ??
    NEED_THING.exec(rest) ??
    SPECIAL_PHRASES.exec(rest);
  if (phrase !== null) return phrase[0];
  const word = /^[a-z]+/.exec(rest)?.[0];
  if (word === undefined) return null;
  if (NOUN_USE.test(rest.slice(word.length))) return null;
  if (WORK_VERBS.has(word)) return word;
  return isTypoOfVerb(word) ? word : null;
}

// Typos keep the first and last letter; that rule also keeps out real words such as unable, remote, online.
function isTypoOfVerb(word: string): boolean {
  if (word.length < 5 || /(?:ed|ing|s)$/.test(word) || NOT_TYPOS.has(word))
    return false;
  return FUZZY_VERBS.some(
    (verb) =>
      verb[0] === word[0] &&
      verb.at(-1) === word.at(-1) &&
      isOneEditAway(word, verb),
  );
}

/** One insertion, deletion, substitution or swap of neighbours turns `a` into `b`. */
function isOneEditAway(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return (
      a[i] === b[i + 1] &&
      a[i + 1] === b[i] &&
      a.slice(i + 2) === b.slice(i + 2)
    );
  }
  return a.length > b.length
    ? a.slice(i + 1) === b.slice(i)
    : a.slice(i) === b.slice(i + 1);
}
