import type { JsonObject } from "./openapi.ts";
import { apiRepo, htmlRepo } from "./payloads.ts";
import { error, type Reply } from "./replies.ts";
import type { ServerState } from "./server-state.ts";

/** repos/get-branch-rules: the active rules of the repository's rulesets that apply to `branch`, as `setBranchRules` set them. */
export function branchRules(
  state: ServerState,
  branch: string,
): Promise<Reply> {
  return Promise.resolve({
    status: 200,
    body: state.branchRules.get(branch) ?? [],
  });
}

/** repos/get-content for a file: its bytes in base64 at `ref` (default: the default branch), or 404 as GitHub says it. */
export async function fileContent(
  state: ServerState,
  path: string,
  query: Record<string, string>,
): Promise<Reply> {
  const ref = query["ref"] ?? state.defaultBranch;
  const commit = await state.git.resolveCommit(ref);
  const blob = commit ? await state.git.readBlob(commit, path) : undefined;
  if (!blob) return error(404, "Not Found");
  const api = `${apiRepo(state)}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const git = `${apiRepo(state)}/git/blobs/${blob.sha}`;
  const html = `${htmlRepo(state)}/blob/${ref}/${path}`;
  const body: JsonObject = {
    type: "file",
    encoding: "base64",
    size: blob.content.length,
    name: path.split("/").at(-1) ?? path,
    path,
    content: blob.content.toString("base64"),
    sha: blob.sha,
    url: api,
    git_url: git,
    html_url: html,
    download_url: `${state.url}/raw/${state.owner}/${state.repo}/${ref}/${path}`,
    _links: { git, html, self: api },
  };
  return { status: 200, body };
}
