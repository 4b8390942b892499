/** Deepest nesting analysed (`bash -c`, `eval`, `$(...)`, wrappers): deeper lines are refused, not guessed. */
export const MAX_NESTING = 8;

/** Longest command line analysed, in UTF-16 code units (about 1 MB of ASCII). */
export const MAX_COMMAND_LENGTH = 1024 * 1024;
