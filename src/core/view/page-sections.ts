import { htmlText } from "../text/html-text.ts";
import type {
  ArchivedPlaybook,
  ArchiveJournalView,
  WorktreeView,
} from "./page-parts.ts";

/** A link to a pull request: only an http(s) address becomes a link, so a recorded URL cannot run script. */
function prLink(pr: { number: number; url: string } | null): string {
  if (pr === null) return "";
  const text = `#${pr.number}`;
  return /^https?:\/\//i.test(pr.url)
    ? `<a href="${htmlText(pr.url)}" rel="noreferrer">${text}</a>`
    : text;
}

const ARCHIVE_STATUS: Record<string, string> = {
  running: "running",
  partial: "stopped",
  pending: "waiting for its merge",
  success: "merged",
};

/** An archive that has not finished: each step with its outcome, where it stopped and what to do next. */
export function archiveJournalSection(
  archive: { journal: ArchiveJournalView } | { problem: string } | null,
): string {
  if (archive === null) return "";
  if ("problem" in archive)
    return `<p class="banner archive" data-archive="unreadable">Unfinished archive: ${htmlText(archive.problem)}. Run \`playbook archive --resume\` to see what it needs.</p>`;
  const j = archive.journal;
  const steps = j.steps.map(
    (s) =>
      `<tr data-step="${s.id}" class="${s.status.replace(" ", "-")}"><td>${s.id}</td><td>${s.status}</td><td>${htmlText(s.at ?? "")}</td><td>${htmlText(s.detail)}</td></tr>`,
  );
  return `<section class="banner archive journal" data-archive="${j.status}">
<h3>Unfinished archive of ${htmlText(j.playbook)} on ${htmlText(j.branch)}: ${ARCHIVE_STATUS[j.status] ?? j.status}${j.pr ? ` (pull request ${prLink(j.pr)})` : ""}</h3>
${j.pending ? `<p data-pending>Waiting for ${htmlText(j.pending.what)}. Next: ${htmlText(j.pending.next)}</p>` : ""}
${j.next ? `<p data-next>Next: ${htmlText(j.next)}</p>` : ""}
<table><thead><tr><th>step</th><th>outcome</th><th>when</th><th>detail</th></tr></thead><tbody>
${steps.join("\n")}
</tbody></table></section>`;
}

/** The repository's working trees, each with its playbook and how far its claims and its proof got. */
export function worktreesSection(worktrees: WorktreeView[]): string {
  if (worktrees.length === 0) return "";
  const rows = worktrees.map((w) => {
    const p = w.progress;
    const progress = p
      ? `${p.ticked}/${p.subtasks} ticked, ${p.proven}/${p.subtasks} proven${p.unbacked > 0 ? `, <span class="unbacked">${p.unbacked} claimed, not proven</span>` : ""}`
      : "";
    const notes = [
      w.locked ? "post-loop lock set" : "",
      w.archive ? `archive ${ARCHIVE_STATUS[w.archive] ?? w.archive}` : "",
    ].filter((n) => n !== "");
    return `<tr data-worktree="${htmlText(w.path)}"${w.here ? ' class="here" data-here' : ""}><td>${htmlText(w.path)}${w.here ? " <small>(this page)</small>" : ""}</td><td>${htmlText(w.branch ?? "detached")}</td><td>${w.playbook ? htmlText(w.playbook) : "<i>no active playbook</i>"}</td><td class="progress">${progress}</td><td>${htmlText(notes.join("; "))}</td></tr>`;
  });
  return `<section class="worktrees" data-worktrees="${worktrees.length}"><h3>Working trees of this repository</h3>
<table><thead><tr><th>folder</th><th>branch</th><th>playbook</th><th>progress</th><th>notes</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table></section>`;
}

/** The archived playbooks, newest first, with the pull request each was handed over in. */
export function archivedSection(
  archived: ArchivedPlaybook[],
  more: number,
): string {
  if (archived.length === 0) return "";
  const rows = archived.map(
    (a) =>
      `<tr data-archived="${htmlText(a.archivePath)}"><td>${htmlText(a.archivePath)}</td><td>${htmlText(a.title ?? "")}</td><td class="pr">${a.pr ? prLink(a.pr) : a.status === null ? "<i>not recorded here</i>" : "<i>none (local)</i>"}</td><td class="status">${a.status === null ? "" : (ARCHIVE_STATUS[a.status] ?? a.status)}</td><td>${htmlText(a.at ?? "")}</td><td>${a.worktree ? htmlText(a.worktree) : ""}</td></tr>`,
  );
  return `<section class="archived" data-archived-count="${archived.length}"><h3>Archived playbooks</h3>
<table><thead><tr><th>playbook</th><th>goal</th><th>pull request</th><th>archive</th><th>when</th><th>archived in</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table>${more > 0 ? `<p>and ${more} older.</p>` : ""}</section>`;
}
