/** What the end of a session transcript says about why the agent stopped. */
export interface TranscriptSignals {
  /** Share of the context window the last request used, 0-100; null when the transcript does not say. */
  contextPercent: number | null;
  /** The user pressed Escape (or the request was otherwise interrupted) after the last answer began. */
  interrupted: boolean;
  /** The turn ended on an API error (rate limit, overload, prompt too long). */
  apiError: string | null;
}

const STANDARD_WINDOW = 200_000;
const LARGE_WINDOW = 1_000_000;

/**
 * Reads the signals from the last lines of a transcript (JSONL, one content block per line, written by Claude Code
 * as it goes). Unparsable lines are skipped; nothing here throws. `lastMessage` is the Stop payload's
 * `last_assistant_message`, which is current even when the transcript lags behind.
 */
export function readTranscriptSignals(
  tail: string,
  lastMessage: string,
): TranscriptSignals {
  const signals: TranscriptSignals = {
    contextPercent: null,
    interrupted: false,
    apiError: apiErrorIn(lastMessage),
  };
  const lines = tail.split("\n");
  let sawAssistant = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]?.trim();
    if (!line?.startsWith("{")) continue;
    let entry: TranscriptLine;
    try {
      entry = JSON.parse(line) as TranscriptLine;
    } catch {
      continue;
    }
    if (entry.isSidechain === true) continue;
    if (entry.type === "user" && !sawAssistant && isInterruption(entry))
      signals.interrupted = true;
    if (entry.type !== "assistant") continue;
    sawAssistant = true;
    if (entry.isApiErrorMessage === true && signals.apiError === null)
      signals.apiError = textOf(entry).slice(0, 200) || "API error";
    const usage = entry.message?.usage;
    if (usage) {
      const used =
        (usage.input_tokens ?? 0) +
        (usage.cache_creation_input_tokens ?? 0) +
        (usage.cache_read_input_tokens ?? 0) +
        (usage.output_tokens ?? 0);
      const model = entry.message?.model ?? "";
      const window =
        /\[1m\]|-1m\b/i.test(model) || used > STANDARD_WINDOW
          ? LARGE_WINDOW
          : STANDARD_WINDOW;
      signals.contextPercent = Math.min(100, Math.round((used / window) * 100));
      break;
    }
  }
  return signals;
}

interface TranscriptLine {
  type?: string;
  isSidechain?: boolean;
  isApiErrorMessage?: boolean;
  message?: {
    model?: string;
    content?: unknown;
    usage?: {
      input_tokens?: number;
      output_tokens?: number;
      cache_creation_input_tokens?: number;
      cache_read_input_tokens?: number;
    };
  };
}

function textOf(entry: TranscriptLine): string {
  const content = entry.message?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) =>
      typeof block === "object" &&
      block !== null &&
      "text" in block &&
      typeof block.text === "string"
        ? block.text
        : "",
    )
    .join(" ");
}

function isInterruption(entry: TranscriptLine): boolean {
  return /^\[Request interrupted by user/.test(textOf(entry).trim());
}

function apiErrorIn(message: string): string | null {
  const match =
    /^(API Error[^\n]*|Prompt is too long[^\n]*|Context (?:window|limit)[^\n]*exceeded[^\n]*)/im.exec(
      message.trim(),
    );
  return match?.[1]?.slice(0, 200) ?? null;
}
