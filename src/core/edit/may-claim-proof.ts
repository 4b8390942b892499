/**
 * Whether a file tool's call could tick a box, set a validation to PASS or finish a phase: a markdown file whose new
 * text has `[x]`, `PASS` or `done`. Only a hint, read before anything is parsed, so the hook can start reading the
 * working tree's fingerprint early; whether the call claims proof is decided on the parsed playbook.
 */
export function mayClaimProof(
  toolName: string | null,
  toolInput: Record<string, unknown>,
): boolean {
  const path = toolInput["file_path"];
  if (typeof path !== "string" || !/\.md$/i.test(path)) return false;
  const texts =
    toolName === "Write"
      ? [toolInput["content"]]
      : toolName === "Edit"
        ? [toolInput["new_string"]]
        : toolName === "MultiEdit" && Array.isArray(toolInput["edits"])
          ? (toolInput["edits"] as Record<string, unknown>[]).map(
              (e) => e?.["new_string"],
            )
          : [];
  return texts.some(
    (text) => typeof text === "string" && /\[[xX]\]|PASS|done/.test(text),
  );
}
