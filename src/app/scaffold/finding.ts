/** One line of `playbook doctor`: what it found in an area, and what to do about it. */
export interface Finding {
  level: "ok" | "warn" | "error";
  area: string;
  message: string;
  /** What to do about it; null when nothing needs doing. */
  fix: string | null;
}
