import { fitMarkdown, markdownCode, markdownText } from "./markdown-text.ts";
import { renderProofPieces } from "./proof-markdown.ts";
import type { ProofModel } from "./proof-model.ts";

/** GitHub Actions keeps at most this many bytes of one step's summary. */
const STEP_SUMMARY_LIMIT = 1024 * 1024;

export interface RerunSummaryInput {
  /** One proof model per playbook the re-run covered, with its re-run results. */
  proof: readonly ProofModel[];
  sandbox: { sandboxed: true } | { sandboxed: false; why: string };
  forAPerson: readonly string[];
  ok: boolean;
}

/**
 * The job summary of `playbook check --rerun` in GitHub Actions (docs/ci.md): the verdict, then per playbook the same
 * proof table as the pull request's body, each validation marked with what its re-run found. No longer than `limit`
 * UTF-8 bytes (what is left of the step's 1 MiB): cut after the last subtask that fits, with a note.
 */
export function renderJobSummary(
  input: RerunSummaryInput,
  limit = STEP_SUMMARY_LIMIT,
): string {
  const validations = input.proof.flatMap((m) =>
    m.phases.flatMap((p) =>
      p.subtasks.flatMap((s) => s.validations.filter((v) => v.rerun !== null)),
    ),
  );
  const disagree = validations.filter((v) => v.rerun?.problem !== null).length;
  const head = ["## playbook check --rerun", ""];
  if (!input.sandbox.sandboxed)
    head.push(
      `⚠️ **Not sandboxed**: ${markdownText(input.sandbox.why, 500)}. The validations ran with full access to the checkout.`,
      "",
    );
  if (input.forAPerson.length > 0)
    head.push(
      `❌ This pull request changes what CI cannot judge: ${input.forAPerson
        .slice(0, 50)
        .map((p) => markdownCode(p))
        .join(
          ", ",
        )}${input.forAPerson.length > 50 ? ", …" : ""}. A person must review it and merge it; it never passes this check.`,
      "",
    );
  head.push(
    validations.length === 0
      ? "No checked subtask has an automated validation to run again."
      : disagree === 0
        ? `✅ **${validations.length} of ${validations.length} validations re-proved**: each ran again and agrees with its evidence.`
        : `❌ **${disagree} of ${validations.length} validations disagree with their evidence.**`,
    "",
  );
  const pieces = [
    { text: head.join("\n") },
    ...input.proof.flatMap((model) => [
      { text: `## ${markdownCode(model.playbook)}\n` },
      ...renderProofPieces(model, 3),
    ]),
  ];
  return `${fitMarkdown(
    pieces,
    limit - 1,
    utf8Length,
    (hidden) =>
      `**Cut here**: GitHub Actions keeps at most 1 MiB of a step's summary, so ${hidden} more subtask${hidden === 1 ? "" : "s"} and what follows them are not shown. The job's log lists every validation that ran again.`,
  )}\n`;
}

/** How many bytes `text` takes in UTF-8. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
