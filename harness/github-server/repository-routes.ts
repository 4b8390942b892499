import { isPlainRefName } from "./bare-repository.ts";
import { fullRepositoryView } from "./payloads.ts";
import { DOCS_URL, type Reply } from "./replies.ts";
import type { ServerState } from "./server-state.ts";

export function getRepository(state: ServerState): Promise<Reply> {
  return Promise.resolve({ status: 200, body: fullRepositoryView(state) });
}

export async function deleteRef(
  state: ServerState,
  ref: string,
): Promise<Reply> {
  const full = ref.startsWith("refs/") ? ref : `refs/${ref}`;
  const sha = isPlainRefName(full)
    ? await state.git.resolveFullRef(full)
    : undefined;
  if (!sha || !(await state.git.deleteRef(full, sha)))
    return {
      status: 422,
      body: {
        message: "Reference does not exist",
        documentation_url: DOCS_URL,
      },
    };
  return { status: 204 };
}
