/** A realistic playbook of `phases` x `perPhase` subtasks, each with three validations; deterministic. */
export function renderLargePlaybook(phases: number, perPhase: number): string {
  const lines: string[] = [
    "## meta",
    "```yaml",
    "project: large-migration",
    "branch: feat/large-migration",
    "created: 2026-11-21",
    "issue: null",
    "reviewed: false",
    "roles: {worker: claudecode}",
    "```",
    "",
    "## goal",
    "```yaml",
    "summary: Every module compiles against the new storage API",
    "done_when:",
    '  - "npm test exits 0"',
    '  - "npx tsc --noEmit exits 0"',
    "```",
    "",
    "## context",
    "Who: the storage team. What: move every module to the new storage API. Why: the old one is removed in v3.",
    "",
    "## phases",
    "",
  ];
  for (let p = 1; p <= phases; p++) {
    lines.push(`### p${p}: Migrate module ${p}`);
    lines.push(`**goal**: module ${p} reads and writes through \`StorageV2\``);
    lines.push(`**depends_on**: [${p > 1 ? `p${p - 1}` : ""}]`);
    lines.push("", "#### subtasks");
    for (let s = 1; s <= perPhase; s++) {
      const id = `p${p}.${s}`;
      lines.push(
        `- [${p === 1 && s <= perPhase / 2 ? "x" : " "}] **${id}**: \`src/module-${p}/part-${s}.ts\` calls \`StorageV2.write\``,
      );
      lines.push("  - executor: claudecode");
      lines.push("  - validations:");
      lines.push(
        `    - technical: "automated - npx vitest run test/module-${p}/part-${s}.test.ts"`,
      );
      lines.push('    - consistency: "automated - npx tsc --noEmit"');
      lines.push(
        `    - completeness: "manual - part ${s} of module ${p} has no call to StorageV1"`,
      );
      lines.push(`  - depends_on: [${s > 1 ? `p${p}.${s - 1}` : ""}]`);
    }
    lines.push(
      "",
      `**status**: ${p === 1 ? "in_progress" : "pending"}`,
      "**max_iterations**: 5",
      "",
      "---",
      "",
    );
  }
  lines.push(
    "## final_tasks",
    "- [ ] **ft1**: CHANGELOG.md lists the migration",
    "",
  );
  return lines.join("\n");
}
