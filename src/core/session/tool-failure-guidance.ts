/**
 * Recovery guidance for a failed file edit (SPEC §7.4), keyed on Claude Code's error text: an `old_string` that is
 * not in the file or matches more than once, a file that does not exist, was not read, or changed since it was read.
 * Null for other failures: their own message says enough.
 */
export function editFailureGuidance(
  tool: string,
  error: string,
  input: Record<string, unknown>,
): string | null {
  if (!["Edit", "MultiEdit", "Write", "NotebookEdit"].includes(tool))
    return null;
  const file =
    typeof input["file_path"] === "string"
      ? `\`${input["file_path"]}\``
      : "the file";
  const text = error.toLowerCase();
  if (
    /not found in (?:the )?file|string to replace not found|could not find|no match/.test(
      text,
    )
  )
    return `The ${tool} failed because \`old_string\` is not in ${file}. Read ${file} again (it may have changed, or the indentation, tabs or line endings differ), then copy \`old_string\` exactly from the Read output, without the line-number prefix.`;
  if (/found \d+ matches|multiple matches|more than one|not unique/.test(text))
    return `The ${tool} failed because \`old_string\` matches more than once in ${file}. Widen it with the neighbouring lines until it matches one place, or set \`replace_all: true\` if every occurrence should change.`;
  if (/has not been read|read it first|must read/.test(text))
    return `The ${tool} failed because ${file} was not Read in this session. Read it, then make the edit.`;
  if (/modified since|changed since|has been modified/.test(text))
    return `The ${tool} failed because ${file} changed after it was read (a formatter, a hook or the user). Read it again and redo the edit on the current text.`;
  if (/does not exist|no such file|enoent/.test(text))
    return `The ${tool} failed because ${file} does not exist. Check the path (Glob for the file name); to create a new file, use Write.`;
  return null;
}
