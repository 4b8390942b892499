import type { PlaybookSummary } from "../model/summary.ts";
import type { RecordSet } from "../records/record.ts";

const TITLE_LENGTH = 72;

/**
 * The pull request's title (the goal summary) and body: goal, done-when, every phase with its subtasks and the
 * proof recorded for them (critic evidence, verified commands), and the final tasks.
 */
export function renderPullRequest(
  path: string,
  archivePath: string,
  playbook: PlaybookSummary,
  records: RecordSet,
): { title: string; body: string } {
  const name = path.replace(/^.*\/playbook-/, "").replace(/\.md$/, "");
  const summary = (playbook.goal.summary ?? "").replace(/\s+/g, " ").trim();
  const title =
    summary === "" ? `Playbook ${name}` : cut(summary, TITLE_LENGTH);
  const lines = [
    `Playbook \`${path}\` (archived to \`${archivePath}\`).`,
    "",
    "## Goal",
    "",
    summary || "(no summary)",
  ];
  if (playbook.goal.doneWhen.length > 0)
    lines.push(
      "",
      "Done when:",
      ...playbook.goal.doneWhen.map((d) => `- ${d}`),
    );
  lines.push("", "## Phases", "");
  for (const phase of playbook.phases) {
    const critic = records.latest({
      kind: "critic",
      playbook: path,
      target: phase.id,
    });
    const evidence =
      typeof critic?.detail["evidence"] === "string"
        ? `: ${cut(critic.detail["evidence"], 200)}`
        : "";
    lines.push(
      `### ${phase.id}: ${phase.name}`,
      "",
      critic ? `Critic: ${critic.verdict}${evidence}` : "Critic: no verdict",
      "",
    );
    for (const subtask of phase.subtasks) {
      const proof = (["technical", "consistency", "completeness"] as const)
        .map((name) => {
          const record = records.latest({
            kind: "evidence",
            playbook: path,
            target: subtask.id,
            validation: name,
          });
          const command = record?.detail["command"];
          return record && typeof command === "string"
            ? `\`${cut(command, 80)}\` ${record.verdict}`
            : null;
        })
        .filter((p): p is string => p !== null);
      const confirmed = records.latest({
        kind: "confirmation",
        playbook: path,
        target: subtask.id,
      })
        ? ["confirmed by the user"]
        : [];
      const shown = [...proof, ...confirmed];
      lines.push(
        `- [${subtask.checked ? "x" : " "}] **${subtask.id}**: ${subtask.criterion}${shown.length > 0 ? ` (${shown.join("; ")})` : ""}`,
      );
    }
    lines.push("");
  }
  if (playbook.finalTasks.length > 0) {
    lines.push("## Final tasks", "");
    for (const task of playbook.finalTasks)
      lines.push(
        `- [${task.checked ? "x" : " "}] **${task.id}**: ${task.text}`,
      );
    lines.push("");
  }
  lines.push("Opened and merged by the playbook archive workflow.");
  return { title, body: lines.join("\n") };
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
