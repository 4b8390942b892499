import { describe, expect, it } from "vitest";
import { readTranscriptSignals } from "../../../../src/core/session/transcript-signals.ts";

const assistant = (
  usage: Record<string, number>,
  model = "claude-sonnet-4-5",
  extra = {},
) =>
  JSON.stringify({
    type: "assistant",
    message: { model, content: [{ type: "text", text: "ok" }], usage },
    ...extra,
  });
const user = (text: string) =>
  JSON.stringify({
    type: "user",
    message: { content: [{ type: "text", text }] },
  });

describe("readTranscriptSignals", () => {
  it("reads the context share from the last request's usage", () => {
    const tail = [
      assistant({ input_tokens: 1000 }),
      user("go on"),
      assistant({
        input_tokens: 5000,
        cache_read_input_tokens: 150_000,
        cache_creation_input_tokens: 20_000,
        output_tokens: 2000,
      }),
    ].join("\n");
    expect(readTranscriptSignals(tail, "")).toEqual({
      contextPercent: 89,
      interrupted: false,
      apiError: null,
    });
  });

  it("uses the 1M window for [1m] models and for usage beyond 200k", () => {
    expect(
      readTranscriptSignals(
        assistant({ input_tokens: 300_000 }, "claude-sonnet-4-5[1m]"),
        "",
      ).contextPercent,
    ).toBe(30);
    expect(
      readTranscriptSignals(assistant({ input_tokens: 500_000 }), "")
        .contextPercent,
    ).toBe(50);
  });

  it("sees an interruption after the last answer, not an older one", () => {
    expect(
      readTranscriptSignals(
        [
          assistant({ input_tokens: 1 }),
          user("[Request interrupted by user]"),
        ].join("\n"),
        "",
      ).interrupted,
    ).toBe(true);
    expect(
      readTranscriptSignals(
        [
          user("[Request interrupted by user]"),
          assistant({ input_tokens: 1 }),
        ].join("\n"),
        "",
      ).interrupted,
    ).toBe(false);
  });

  it("sees API errors in the message or the transcript", () => {
    expect(
      readTranscriptSignals("", "API Error: 529 Overloaded").apiError,
    ).toBe("API Error: 529 Overloaded");
    expect(readTranscriptSignals("", "Prompt is too long").apiError).toBe(
      "Prompt is too long",
    );
    expect(
      readTranscriptSignals(
        assistant({ input_tokens: 1 }, "x", { isApiErrorMessage: true }),
        "",
      ).apiError,
    ).toBe("ok");
  });

  it("skips subagent lines and garbage, and says nothing it does not know", () => {
    const tail = [
      "not json",
      '{"broken":',
      JSON.stringify({
        type: "assistant",
        isSidechain: true,
        message: { usage: { input_tokens: 199_000 } },
      }),
    ].join("\n");
    expect(readTranscriptSignals(tail, "all done")).toEqual({
      contextPercent: null,
      interrupted: false,
      apiError: null,
    });
  });
});
