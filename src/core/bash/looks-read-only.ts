/**
 * A first guess, from the raw text, that a shell line only reads: one pipeline of a few common read-only programs
 * with no redirect, variable, substitution, list or subshell. Only a guess: the hook starts git's listing for a
 * snapshot early when it is false, and `isProvablyReadOnly` decides on the parsed line either way.
 */
export function looksReadOnly(command: string): boolean {
  return /^\s*(?:(?:git\s+(?:status|diff|log|show|branch|rev-parse|ls-files)|ls|cat|head|tail|wc|grep|rg|pwd|echo|find|jq)\b[^;&<>$`(){}\n\\]*?(?:\|\s*|$))+$/.test(
    command,
  );
}
