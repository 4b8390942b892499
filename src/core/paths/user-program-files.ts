/**
 * Files in the user's folder that configure programs a trusted process runs outside the sandbox: git's configuration
 * (filters, `core.sshCommand`, credential helpers, signing programs), ssh's, the shell's start files, npm's, and the
 * folders users put on `PATH`. The agent's shell cannot write the user's folder (the sandbox lets it write the
 * project and a temporary folder), but Claude Code's Write and Edit tools are not sandboxed. The hook refuses every
 * file-tool write outside the project and the temporary folders (`protected` guard); these rules make Claude Code
 * refuse the most dangerous ones before the hook runs, even with the hook switched off.
 */
const HOME_FILES = [
  ".gitconfig",
  ".git-credentials",
  ".npmrc",
  ".netrc",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
];
const HOME_FOLDERS = [".config", ".ssh", ".gnupg", ".local/bin", "bin"];

/** `permissions.deny` rules for them, as Claude Code reads `~/` patterns. */
export function userProgramDenyRules(): string[] {
  return [
    ...HOME_FILES.map((f) => `Edit(~/${f})`),
    ...HOME_FOLDERS.map((f) => `Edit(~/${f}/**)`),
  ];
}
