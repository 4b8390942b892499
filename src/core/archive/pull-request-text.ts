import type { PlaybookSummary } from "../model/summary.ts";
import {
  cut,
  fitMarkdown,
  markdownCode,
  markdownText,
} from "../records/markdown-text.ts";
import { renderProofPieces } from "../records/proof-markdown.ts";
import { toProofModel } from "../records/proof-model.ts";
import type { RecordSet } from "../records/record.ts";

const TITLE_LENGTH = 72;

/** GitHub refuses a pull request body longer than this many characters. */
export const PULL_REQUEST_BODY_LIMIT = 65_536;

/**
 * The pull request's title (the goal summary) and body: the goal, the reviewer's approval with the plan hash, per
 * phase the critic's verdict and each subtask's validations with the evidence behind them (command, result, output
 * digest, tree, time), the final tasks, and the files the archive committed and left alone. A body over GitHub's
 * limit is cut after the last subtask that fits, with a note.
 */
export function renderPullRequest(
  path: string,
  archivePath: string,
  playbook: PlaybookSummary,
  records: RecordSet,
  files?: { committed: string[]; leftAlone: string[] },
): { title: string; body: string } {
  const name = path.replace(/^.*\/playbook-/, "").replace(/\.md$/, "");
  const summary = (playbook.goal.summary ?? "").replace(/\s+/g, " ").trim();
  const title =
    summary === "" ? `Playbook ${name}` : cut(summary, TITLE_LENGTH);
  const model = toProofModel({
    path,
    playbook,
    records,
    ...(files ? { files } : {}),
  });
  const head = [
    `Playbook ${markdownCode(path)} (archived to ${markdownCode(archivePath)}).`,
    "",
    `**Goal**: ${summary === "" ? "(no summary)" : markdownText(summary, 1000)}`,
  ];
  if (model.goal.doneWhen.length > 0)
    head.push(
      "",
      "**Done when**:",
      ...model.goal.doneWhen.map((d) => `- ${markdownText(d, 500)}`),
    );
  head.push("");
  const body = fitMarkdown(
    [
      { text: head.join("\n") },
      ...renderProofPieces(model, 2),
      { text: "Opened by the playbook archive workflow." },
    ],
    PULL_REQUEST_BODY_LIMIT,
    (text) => text.length,
    (hidden) =>
      `**Cut here**: GitHub takes at most 65,536 characters in a pull request body, so ${hidden} more subtask${hidden === 1 ? "" : "s"} and what follows them are not shown. The archived playbook and its records under \`.claude/playbook/records/\` hold all of it.`,
  );
  return { title, body };
}
