export type ErrorCode = "E_USAGE" | "E_NOT_FOUND" | "E_WRITE" | "E_CONFIG";

/** An operational failure the user can act on: one line of message plus a hint that says what to do next. */
export class PlaybookError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  constructor(
    code: ErrorCode,
    message: string,
    options: { hint?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
  }
}
