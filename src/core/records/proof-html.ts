import { htmlText } from "../text/html-text.ts";
import type {
  ArchivedPlaybook,
  ArchiveJournalView,
  WorktreeView,
} from "../view/page-parts.ts";
import {
  archivedSection,
  archiveJournalSection,
  worktreesSection,
} from "../view/page-sections.ts";
import { isRowProven } from "../view/proof-progress.ts";
import type { PlanChange } from "./plan-outline.ts";
import type {
  ProofApproval,
  ProofCritic,
  ProofModel,
  ProofRow,
  ProofValidation,
} from "./proof-model.ts";

/**
 * What the page shows beside the proof: the project, the lock, an unfinished archive with its journal, the archived
 * playbooks and the repository's other working trees.
 */
export interface ProofPage {
  project: string;
  /** The active playbook's proof; null when no playbook is active. */
  proof: ProofModel | null;
  lock: { playbook: string | null; at: string | null } | null;
  /** An archive that has not finished, with its journal; or why its journal cannot be read. */
  archive: { journal: ArchiveJournalView } | { problem: string } | null;
  /** When the page was made (ISO time). */
  at: string;
  /**
   * What changed in the plan since the reviewer's latest verdict (criteria, validations, subtasks); null when that
   * verdict kept no outline of the plan.
   */
  planChanges: PlanChange[] | null;
  /** The latest calls the hook refused, newest first (its block-reasons log). */
  blocks: { at: string; tool: string; guard: string; reason: string }[];
  /** The newest archived playbooks, with their pull requests. */
  archived: ArchivedPlaybook[];
  /** How many older archived playbooks the page leaves out. */
  archivedMore: number;
  /** Every working tree of the repository, this one first; empty when it has only this one. */
  worktrees: WorktreeView[];
}

const short = (hash: string | null) =>
  hash === null ? "" : hash.replace(/^sha256:/, "").slice(0, 12);

/** A hash as a code span, or nothing (an empty span would show as a blank box). */
const codeOf = (hash: string | null) =>
  hash ? `<code>${htmlText(short(hash))}</code>` : "";

const STATUS_WORDS: Record<ProofValidation["status"], string> = {
  proven: "proven",
  none: "no evidence",
  stale: "stale: the subtask changed since",
  failed: "failed",
  code: "stale: the code changed since",
  untied: "not tied to a tree",
  unreadable: "git cannot read the tree",
};

/**
 * The proof of the active playbook as one self-contained HTML page (`playbook report --html`, the body of
 * `playbook view`): per subtask the claim (its box) beside the proof (each validation's command, result, output
 * digest, who, when, on which tree) and whether that proof is current or stale, and why; the reviewer's approval with
 * the plan hash; the critic's verdict per phase; the lock and an unfinished archive. No outside resource; a script
 * only in the live page (`live`), allowed by its nonce.
 */
export function renderProofPage(
  page: ProofPage,
  live?: { nonce: string },
): string {
  const body = renderProofBody(page);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>playbook: ${htmlText(page.project)}</title>
<style>${STYLE}</style>
</head>
<body>
<main id="view">
${body}
</main>
${live ? `<script nonce="${htmlText(live.nonce)}">${LIVE_SCRIPT}</script>` : ""}
</body>
</html>
`;
}

/**
 * The live page's one script (\`playbook view\`): on each change the server announces, it fetches the page's main
 * part again and puts it in place, without a reload. It sends nothing but the token the URL already holds.
 */
const LIVE_SCRIPT = `
const token = new URLSearchParams(location.search).get("token") || "";
const q = "?token=" + encodeURIComponent(token);
let updates = 0;
const events = new EventSource("/events" + q);
events.addEventListener("change", async () => {
  const reply = await fetch("/fragment" + q, { cache: "no-store" });
  if (!reply.ok) return;
  document.getElementById("view").innerHTML = await reply.text();
  document.body.dataset.updates = String(++updates);
});
`;

/** The part of the page inside \`<main>\`: what a live update replaces. */
export function renderProofBody(page: ProofPage): string {
  return [
    `<header><h1>playbook: ${htmlText(page.project)}</h1><p class="at">as of <time>${htmlText(page.at)}</time></p></header>`,
    page.lock
      ? `<p class="banner lock" data-lock>Post-loop lock: set${page.lock.at ? ` at ${htmlText(page.lock.at)}` : ""}${page.lock.playbook ? ` after ${htmlText(page.lock.playbook)}` : ""}. Code changes wait for the next task.</p>`
      : "",
    archiveJournalSection(page.archive),
    page.proof === null
      ? `<p class="empty">No active playbook.</p>`
      : proofSection(page.proof, page.planChanges),
    blockSection(page.blocks),
    worktreesSection(page.worktrees),
    archivedSection(page.archived, page.archivedMore),
  ].join("\n");
}

function proofSection(model: ProofModel, changes: PlanChange[] | null): string {
  return [
    `<section class="playbook" data-playbook="${htmlText(model.playbook)}">`,
    `<h2>${htmlText(model.playbook)}</h2>`,
    model.goal.summary
      ? `<p class="goal">${htmlText(model.goal.summary)}</p>`
      : "",
    approval(model.review),
    planChanges(model.review, changes),
    ...model.phases.map(
      (phase) => `<section class="phase" data-phase="${htmlText(phase.id)}">
<h3>${htmlText(phase.id)}: ${htmlText(phase.name)} <span class="status">${htmlText(phase.status)}</span></h3>
${critic(phase.critic)}
<table>
<thead><tr><th>claim</th><th>subtask</th><th>validation</th><th>command</th><th>proof</th><th>exit</th><th>output</th><th>tree</th><th>by</th><th>when</th></tr></thead>
<tbody>
${phase.subtasks.map(rows).join("\n")}
</tbody>
</table>
</section>`,
    ),
    model.finalTasks.length > 0
      ? `<section class="final"><h3>Final tasks</h3><ul>${model.finalTasks.map((t) => `<li data-final="${htmlText(t.id)}">${t.checked ? "☑" : "☐"} ${htmlText(t.id)}: ${htmlText(t.text)}</li>`).join("")}</ul></section>`
      : "",
    `</section>`,
  ].join("\n");
}

/** The plan as approved against the plan now: what changed is what makes proof stale. */
function planChanges(
  review: ProofApproval,
  changes: PlanChange[] | null,
): string {
  if (review.verdict === null) return "";
  if (changes === null)
    return `<p class="changes" data-changes="unknown">The verdict kept no outline of the plan it judged: what changed since cannot be shown.</p>`;
  if (changes.length === 0)
    return `<p class="changes" data-changes="0">No criterion or validation changed since the verdict.</p>`;
  const cell = (text: string | null) =>
    text === null ? "<i>none</i>" : htmlText(text);
  return `<section class="changes" data-changes="${changes.length}"><h3>Changed since the verdict</h3>
<table><thead><tr><th>where</th><th>what</th><th>as approved</th><th>now</th></tr></thead><tbody>
${changes.map((c) => `<tr data-change="${htmlText(c.target)}"><td>${htmlText(c.target)}</td><td>${c.what === "validation" ? `validation ${htmlText(c.validation ?? "")}` : c.what}</td><td class="before">${cell(c.before)}</td><td class="after">${cell(c.after)}</td></tr>`).join("\n")}
</tbody></table></section>`;
}

/** What the agent was refused lately, and why: the hook's words, as the agent read them. */
function blockSection(blocks: ProofPage["blocks"]): string {
  if (blocks.length === 0) return "";
  const rows = blocks.map(
    (b) =>
      `<tr data-block="${htmlText(b.guard)}"><td>${htmlText(b.at)}</td><td>${htmlText(b.tool)}</td><td>${htmlText(b.guard)}</td><td>${htmlText(b.reason)}</td></tr>`,
  );
  return `<section class="blocks" data-blocks="${blocks.length}"><h3>Recently refused</h3>
<table><thead><tr><th>when</th><th>tool</th><th>guard</th><th>why</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table></section>`;
}

function approval(review: ProofApproval): string {
  const what =
    review.state === "approved"
      ? `approved by ${htmlText(review.by ?? "")} at ${htmlText(review.at ?? "")}`
      : review.state === "rejected"
        ? `rejected by ${htmlText(review.by ?? "")} at ${htmlText(review.at ?? "")}`
        : review.state === "stale"
          ? `stale: ${htmlText(review.by ?? "")} judged an earlier plan (${short(review.planHash)}) at ${htmlText(review.at ?? "")}`
          : "not reviewed";
  return `<p class="approval ${review.state}" data-approval="${review.state}">Plan ${what}; the plan now: <code>${short(review.currentPlanHash)}</code>${review.planHash && review.planHash !== review.currentPlanHash ? `, approved: <code>${short(review.planHash)}</code>` : ""}</p>`;
}

function critic(c: ProofCritic): string {
  const what =
    c.state === "none"
      ? "no verdict"
      : c.state === "stale"
        ? `stale verdict by ${htmlText(c.by ?? "")} at ${htmlText(c.at ?? "")}`
        : `${c.state} by ${htmlText(c.by ?? "")} at ${htmlText(c.at ?? "")}`;
  return `<p class="critic ${c.state.toLowerCase()}" data-critic="${c.state}">Critic: ${what}${c.evidence ? `: ${htmlText(c.evidence)}` : ""}</p>`;
}

function rows(row: ProofRow): string {
  const lines = row.validations.length > 0 ? row.validations : [null];
  return lines
    .map((v, i) => {
      // A box checked while some validation is not proven now: the claim outruns its proof.
      const unbacked = row.checked && !isRowProven(row);
      const claim =
        i === 0
          ? `<td class="claim${unbacked ? " unbacked" : ""}" rowspan="${lines.length}"${unbacked ? ' data-unbacked title="checked without current proof"' : ""}>${row.checked ? "☑" : "☐"}${unbacked ? " <small>claimed, not proven</small>" : ""}</td><td class="subtask" rowspan="${lines.length}"><b>${htmlText(row.id)}</b> ${htmlText(row.criterion)}</td>`
          : "";
      if (v === null)
        return `<tr data-subtask="${htmlText(row.id)}">${claim}<td colspan="8">no validations</td></tr>`;
      const e = v.evidence;
      const state = v.kind === "manual" ? manualState(row) : v.status;
      return `<tr data-subtask="${htmlText(row.id)}" data-validation="${v.name}" data-status="${state}" class="${state}">${claim}<td>${v.name} <small>${v.kind}</small></td><td><code>${htmlText(v.command)}</code></td><td class="result">${htmlText(v.kind === "manual" ? manualWords(row) : STATUS_WORDS[v.status])}</td><td>${e?.exitCode ?? ""}</td><td>${codeOf(e?.outputDigest ?? null)}</td><td>${codeOf(e?.tree ?? null)}</td><td>${htmlText(e?.by ?? (v.kind === "manual" ? (row.confirmation?.by ?? "") : ""))}</td><td>${htmlText(e?.at ?? (v.kind === "manual" ? (row.confirmation?.at ?? "") : ""))}</td></tr>`;
    })
    .join("\n");
}

function manualState(row: ProofRow): string {
  if (row.confirmation === null) return "none";
  return row.confirmation.current ? "proven" : "stale";
}

function manualWords(row: ProofRow): string {
  if (row.confirmation === null) return "no confirmation";
  return row.confirmation.current
    ? "confirmed"
    : "stale: confirmed an earlier version";
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fff}
main{max-width:1200px;margin:0 auto;padding:16px 24px}
h1{font-size:20px;margin:0}h2{font-size:17px;margin:20px 0 4px}h3{font-size:15px;margin:16px 0 4px}
.at{color:#57606a;margin:2px 0 12px}
.banner{padding:8px 12px;border-radius:6px;margin:8px 0}
.lock{background:#fff8c5;border:1px solid #d4a72c}.archive{background:#ffebe9;border:1px solid #cf222e}
table{border-collapse:collapse;width:100%;margin:6px 0 12px}
th,td{border:1px solid #d0d7de;padding:4px 6px;vertical-align:top;text-align:left}
th{background:#f6f8fa;font-weight:600}
tr.proven .result{color:#1a7f37;font-weight:600}
tr.stale .result,tr.code .result{color:#9a6700;font-weight:600}
tr.failed .result{color:#cf222e;font-weight:600}
tr.none .result,tr.untied .result,tr.unreadable .result{color:#57606a}
.approval.approved,.critic.pass{color:#1a7f37}.approval.stale,.critic.stale{color:#9a6700}
.approval.rejected,.critic.fail{color:#cf222e}
.status{font-weight:400;color:#57606a}
.unbacked{background:#ffebe9;color:#cf222e}
.journal table{background:#fff}.journal .done{color:#1a7f37}.journal .failed{color:#cf222e;font-weight:600}.journal .not-yet{color:#57606a}
.worktrees .here td:first-child{font-weight:600}
code{font:12px ui-monospace,monospace;background:#f6f8fa;padding:0 3px;border-radius:3px}
`;
