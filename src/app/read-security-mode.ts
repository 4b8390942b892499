import type { SecurityMode } from "../core/model/state.ts";
import { readConfig } from "./read-config.ts";

/** The project's security mode (`security` in `.claude/playbook.json`; strict when unset or unreadable). */
export function readSecurityMode(root: string): SecurityMode {
  return readConfig(root).config.security;
}
