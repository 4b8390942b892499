import {
  markdownCode,
  markdownText,
  type MarkdownPiece,
} from "./markdown-text.ts";
import type {
  ProofApproval,
  ProofCritic,
  ProofModel,
  ProofRow,
  ProofValidation,
} from "./proof-model.ts";

/** How many files of each list the pieces name; the rest is counted. */
const FILES_SHOWN = 100;

/**
 * The proof of one playbook as GitHub markdown pieces (for {@link fitMarkdown}): the reviewer's approval of the plan,
 * then per phase the critic's verdict and a table with one line per validation (the subtask, its criterion, the
 * command or check, the result, the output's digest, the tree it ran on, when, and with a re-run what it found),
 * the final tasks and, from the archive, the files it committed and left alone. `level` is the heading level of
 * its sections (phases one deeper). Every text the agent wrote is escaped (markdown-text.ts).
 */
export function renderProofPieces(
  model: ProofModel,
  level: number,
): MarkdownPiece[] {
  const h = "#".repeat(level);
  const pieces: MarkdownPiece[] = [
    {
      text: [
        `${h} Plan approval`,
        "",
        approvalLine(model.review),
        "",
        `${h} Proof`,
        "",
        "Each automated validation's evidence names the digest of its output and the working tree it ran on (short hashes: the records under `.claude/playbook/records/` hold them in full).",
        "",
      ].join("\n"),
    },
  ];
  for (const phase of model.phases) {
    pieces.push({
      text: [
        `${h}# ${markdownText(phase.id, 40)}: ${markdownText(phase.name, 120)} (${phase.status})`,
        "",
        criticLine(phase.critic),
        "",
        ...tableHead(model.rerun),
      ].join("\n"),
    });
    for (const row of phase.subtasks)
      pieces.push({ text: rowLines(row, model.rerun), subtask: row.id });
    pieces.push({ text: "" });
  }
  if (model.finalTasks.length > 0)
    pieces.push({
      text: [
        `${h} Final tasks`,
        "",
        ...model.finalTasks.map(
          (t) =>
            `- ${t.checked ? "☑" : "☐"} **${markdownText(t.id, 40)}**: ${markdownText(t.text)}`,
        ),
        "",
      ].join("\n"),
    });
  if (model.files)
    pieces.push({
      text: [
        `${h} Files`,
        "",
        fileLine("Committed", model.files.committed),
        "",
        fileLine("Left alone (not committed)", model.files.leftAlone),
        "",
      ].join("\n"),
    });
  return pieces;
}

function approvalLine(review: ProofApproval): string {
  const by = review.by === null ? "" : ` (${markdownCode(review.by, 40)})`;
  const when = review.at === null ? "" : ` at ${timeOf(review.at)}`;
  const plan = review.planHash === null ? "" : shortHash(review.planHash);
  const now = shortHash(review.currentPlanHash);
  switch (review.state) {
    case "approved":
      return `✅ The reviewer${by} approved plan ${plan}${when}: the plan as it is now.`;
    case "rejected":
      return `❌ The reviewer${by} rejected plan ${plan}${when}, the plan as it is now: no proof below counts.`;
    case "stale":
      return `⚠️ The reviewer${by} ${review.verdict === "reject" ? "rejected" : "approved"} plan ${plan}${when}; the plan changed since (now ${now}): no proof below counts for it.`;
    case "none":
      return `❌ No reviewer approved plan ${now}: no proof below counts.`;
  }
}

function criticLine(critic: ProofCritic): string {
  const by = critic.by === null ? "" : ` by ${markdownCode(critic.by, 40)}`;
  const when = critic.at === null ? "" : ` at ${timeOf(critic.at)}`;
  const evidence =
    critic.evidence === null ? "" : `: ${markdownText(critic.evidence)}`;
  switch (critic.state) {
    case "PASS":
      return `Critic: ✅ PASS${by}${when}${evidence}`;
    case "FAIL":
      return `Critic: ❌ FAIL${by}${when}${evidence}`;
    case "stale":
      return `Critic: ⚠️ its verdict${by}${when} is on an earlier version of the phase${evidence}`;
    case "none":
      return "Critic: no verdict";
  }
}

function tableHead(rerun: boolean): string[] {
  const columns = [
    "subtask",
    "criterion",
    "validation",
    "command or check",
    "result",
    "output",
    "tree",
    "at",
    ...(rerun ? ["re-run"] : []),
  ];
  return [
    `| ${columns.join(" | ")} |`,
    `| ${columns.map(() => "---").join(" | ")} |`,
  ];
}

/** One table line per validation; the subtask and its criterion on the first. */
function rowLines(row: ProofRow, rerun: boolean): string {
  const lines = (row.validations.length > 0 ? row.validations : [null]).map(
    (validation, index) => {
      const first = index === 0;
      const evidence = validation?.evidence ?? null;
      const cells = [
        first
          ? `${row.checked ? "☑" : "☐"} **${markdownText(row.id, 40)}**`
          : "",
        first ? markdownText(row.criterion) : "",
        validation ? `${validation.name} (${validation.kind})` : "none",
        validation
          ? validation.kind === "manual"
            ? markdownText(validation.command, 200)
            : markdownCode(validation.command)
          : "",
        validation ? resultOf(validation, row) : "",
        evidence?.outputDigest ? shortHash(evidence.outputDigest) : "",
        evidence?.tree ? shortHash(evidence.tree) : "",
        evidence ? timeOf(evidence.at) : "",
        ...(rerun ? [validation ? rerunOf(validation, row) : ""] : []),
      ];
      return `| ${cells.join(" | ")} |`;
    },
  );
  return lines.join("\n");
}

const WHY: Record<Exclude<ProofValidation["status"], "proven">, string> = {
  none: "no record",
  stale: "of an earlier version of the subtask",
  failed: "failed",
  code: "of other code",
  untied: "names no code",
  unreadable: "git could not read the tree",
};

function resultOf(validation: ProofValidation, row: ProofRow): string {
  const parts: string[] = [];
  const { evidence } = validation;
  if (evidence)
    parts.push(
      `${evidence.verdict === "PASS" ? "PASS" : "FAIL"}${evidence.exitCode === null ? "" : `, exit ${evidence.exitCode}`}${evidence.sandboxed === false ? ", not sandboxed" : ""} by ${markdownCode(evidence.by, 40)}`,
    );
  if (validation.kind !== "automated" && row.confirmation)
    parts.push(
      `confirmed by ${markdownCode(row.confirmation.by, 40)} at ${timeOf(row.confirmation.at)}${row.confirmation.current ? "" : " (an earlier version)"}`,
    );
  const mark = validation.status === "proven" ? "✅" : "❌";
  // A failed verdict says it already.
  const why =
    validation.status === "proven" || validation.status === "failed"
      ? ""
      : ` (${WHY[validation.status]})`;
  return `${mark} ${parts.length > 0 ? parts.join("; ") : "no record"}${parts.length > 0 ? why : ""}`;
}

function rerunOf(validation: ProofValidation, row: ProofRow): string {
  if (!validation.rerun)
    return validation.kind === "manual"
      ? "— (a person's check)"
      : row.checked
        ? "not re-run"
        : "not re-run (not checked)";
  return validation.rerun.problem === null
    ? "✅ re-proved"
    : `❌ ${validation.rerun.verdict}: ${markdownText(validation.rerun.problem, 200)}`;
}

function fileLine(label: string, files: readonly string[]): string {
  if (files.length === 0) return `${label}: none.`;
  const shown = files.slice(0, FILES_SHOWN).map((f) => markdownCode(f, 200));
  const more =
    files.length > FILES_SHOWN
      ? `, and ${files.length - FILES_SHOWN} more`
      : "";
  return `${label} (${files.length}): ${shown.join(", ")}${more}.`;
}

/** `sha256:0123…` as its first 12 hex digits, in a code span; anything else as a cut code span. */
function shortHash(hash: string): string {
  const hex = /^sha256:([0-9a-f]{12})[0-9a-f]*$/.exec(hash)?.[1];
  return markdownCode(hex ?? hash, 24);
}

/** An ISO time as `2026-11-27 10:00 UTC`; anything else as escaped text. */
function timeOf(at: string): string {
  const iso = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?Z$/.exec(
    at,
  );
  return iso ? `${iso[1] ?? ""} ${iso[2] ?? ""} UTC` : markdownText(at, 40);
}
