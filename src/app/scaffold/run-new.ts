import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeTextAtomic } from "../../adapters/atomic-write.ts";
import {
  branchExists,
  createAndSwitchBranch,
  hasCommits,
  isGitRepository,
  readChangedFiles,
} from "../../adapters/git-facts.ts";
import type { StateSummary } from "../../core/model/summary.ts";
import { setStateField } from "../../core/edit/state-writers.ts";
import { PlaybookError } from "../../core/errors.ts";
import { summarizeDocument } from "../../core/parse/summarize-document.ts";
import { rolesFor } from "../../core/scaffold/answers.ts";
import { MANIFEST_FILE, parseManifest } from "../../core/scaffold/manifest.ts";
import {
  toChecksCommand,
  toQuotedValidation,
} from "../../core/scaffold/project-checks.ts";
import { toIsoTime } from "../../core/time/iso-time.ts";
import { createRenderer } from "../../render/render-template.ts";
import { writeStateEdit } from "../workspace/write-state-field.ts";
import { locateHook } from "./locate-hook.ts";

export interface NewPlaybook {
  playbook: string;
  branch: string;
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * `playbook new <name>`: `plan/playbook-<name>.md` from the skeleton (in the language init was run with), branch
 * `feat/<name>` created and checked out, and state.md pointing at both. Refuses, changing nothing, while another
 * playbook is active, when the file or the branch already exists, outside a git repository, in one without commits,
 * and while other changes are uncommitted (they would move to the task's branch).
 */
export function runNew(
  root: string,
  name: string,
  deps: { packageRoot: string; now: () => Date },
): NewPlaybook {
  if (!NAME.test(name) || name.length > 60)
    throw new PlaybookError(
      "E_USAGE",
      `Unexpected playbook name "${name}", expected lowercase words joined by hyphens (at most 60 characters).`,
      { hint: "For example: `playbook new login-form`." },
    );
  const statePath = join(root, "state.md");
  if (!existsSync(statePath))
    throw new PlaybookError("E_CONFIG", "There is no state.md here.", {
      hint: "Run `playbook init` first (or pass the project with --cwd).",
    });
  const state = summarizeDocument(
    "state",
    readFileSync(statePath, "utf8"),
    "state.md",
  ) as StateSummary;
  const active = state.playbook.active;
  if (active !== null)
    throw new PlaybookError(
      "E_CONFIG",
      `${active} is the active playbook; one task runs at a time.`,
      {
        hint: "Finish it (the archive runs when its last box is ticked), or set `active: null` in state.md to put it aside.",
      },
    );
  const playbook = `plan/playbook-${name}.md`;
  const branch = `feat/${name}`;
  if (existsSync(join(root, playbook)))
    throw new PlaybookError("E_CONFIG", `${playbook} already exists.`, {
      hint: "Pick another name, or make it the active playbook in state.md.",
    });
  if (!isGitRepository(root))
    throw new PlaybookError("E_CONFIG", `${root} is not a git repository.`, {
      hint: "Run `git init` (and make a first commit), then `playbook new` again.",
    });
  if (!hasCommits(root))
    throw new PlaybookError(
      "E_CONFIG",
      `This repository has no commits yet, so ${branch} would have nothing to start from.`,
      {
        hint: 'Commit the project first (`git add -A && git commit -m "Initial commit"`), then run `playbook new` again.',
      },
    );
  const pending = readChangedFiles(root)
    .map((line) =>
      line
        .slice(3)
        .replace(/^.* -> /, "")
        .replace(/^"|"$/g, ""),
    )
    .filter((path) => !isPlaybookBookkeeping(path));
  if (pending.length > 0)
    throw new PlaybookError(
      "E_CONFIG",
      `There are uncommitted changes (${pending.slice(0, 3).join(", ")}${pending.length > 3 ? ` and ${pending.length - 3} more` : ""}), which would move to ${branch} with the new task.`,
      {
        hint: 'Commit them first (playbook\'s own setup belongs on the default branch: `git add -A && git commit -m "Set up playbook"`) or stash them, then run `playbook new` again.',
      },
    );
  if (branchExists(root, branch))
    throw new PlaybookError(
      "E_CONFIG",
      `The branch ${branch} already exists.`,
      {
        hint: "Pick another name, or delete the old branch if it is finished.",
      },
    );
  const manifest = parseManifest(readOrNull(join(root, MANIFEST_FILE)));
  const answers = manifest.status === "ok" ? manifest.manifest.answers : null;
  const lang = answers?.lang ?? "en";
  const source = `templates/${lang}/playbook-skeleton.md.hbs`;
  const text = createRenderer()(
    source,
    readFileSync(join(deps.packageRoot, source), "utf8"),
    {
      name,
      branch,
      date: toIsoTime(deps.now()).slice(0, 10),
      worker: rolesFor(answers?.toolstack ?? "A").worker,
      cli: locateHook(root, deps.packageRoot).cli,
      consistency: toQuotedValidation(
        toChecksCommand(answers?.testCommand ?? "", answers?.lintCommand ?? ""),
      ),
    },
  );
  const switched = createAndSwitchBranch(root, branch);
  if (!switched.ok)
    throw new PlaybookError(
      "E_CONFIG",
      `git could not create ${branch}: ${switched.message}`,
      {
        hint: "Fix what git says, then run `playbook new` again. Nothing was written.",
      },
    );
  mkdirSync(dirname(join(root, playbook)), { recursive: true });
  writeTextAtomic(join(root, playbook), text);
  for (const [section, key, value] of [
    ["playbook", "active", playbook],
    ["playbook", "branch", branch],
    ["goal", "phase", "p1"],
    ["goal", "status", "in_progress"],
  ] as const) {
    const problem = writeStateEdit(root, (current) =>
      setStateField(current, section, key, value),
    );
    if (problem)
      throw new PlaybookError(
        "E_CONFIG",
        `${playbook} and ${branch} were created, but state.md could not be updated: ${problem}`,
        {
          hint: `Fix state.md (\`playbook lint\`), then set \`${key}: ${value}\` yourself.`,
          location: { file: "state.md" },
        },
      );
  }
  return { playbook, branch };
}

/** state.md's stamps and playbook's runtime files change by themselves; they are not the user's pending work. */
function isPlaybookBookkeeping(path: string): boolean {
  return path === "state.md" || path.startsWith(".claude/playbook/");
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
