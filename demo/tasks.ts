/** A change the agent makes with one tool call. */
export type WorkItem =
  | { tool: "Write"; path: string; content: string }
  | { tool: "Edit"; path: string; old: string; new: string };

/** A task the user asks for, the playbook pm writes for it and the work each subtask needs. */
export interface SampleTask {
  name: string;
  prompt: string;
  playbook(date: string): string;
  work: Record<string, WorkItem[]>;
  /** The project's test command, which the critic reruns (`npm test` when absent). */
  testCommand?: string;
}

/** Where a task documents its function: a line in the shared README and CHANGELOG, or a page of its own. */
type Documentation = { readmeAfter: string } | "own-page";

/** The documentation subtask (p1.2) of a task: its criterion, validations, the files it changes and their work. */
function documentationOf(
  name: string,
  signature: string,
  example: [number, number, number],
  documentation: Documentation,
) {
  const [a, b, result] = example;
  if (documentation === "own-page")
    return {
      criterion: `\`docs/${name}.md\` documents \`${signature}\` with the example \`${name}(${a}, ${b})\` is \`${result}\``,
      technical: `grep -q '${signature}' docs/${name}.md`,
      completeness: `grep -q '${name}(${a}, ${b})' docs/${name}.md`,
      where: `\`docs/${name}.md\``,
      doneWhen: `docs/${name}.md documents ${signature}`,
      summary: "documented on its own page",
      ask: "and document it on a page of its own in docs/",
      work: [
        {
          tool: "Write" as const,
          path: `docs/${name}.md`,
          content: `# ${signature}\n\n\`${name}(${a}, ${b})\` is \`${result}\`.\n`,
        },
      ],
    };
  return {
    criterion: `README.md lists \`${signature}\` and CHANGELOG.md has a line for it under "Unreleased"`,
    technical: `grep -q '${signature}' README.md`,
    completeness: `grep -q '${name}' CHANGELOG.md`,
    where: "`README.md`, `CHANGELOG.md`",
    doneWhen: `README.md lists ${signature} and CHANGELOG.md mentions it under Unreleased`,
    summary: "listed in the README and the changelog",
    ask: "and list it in the README and the changelog",
    work: [
      {
        tool: "Edit" as const,
        path: "README.md",
        old: `${documentation.readmeAfter}\n`,
        new: `${documentation.readmeAfter}\n- \`${signature}\`\n`,
      },
      {
        tool: "Edit" as const,
        path: "CHANGELOG.md",
        old: "## Unreleased\n",
        new: `## Unreleased\n\n- Add \`${signature}\`.\n`,
      },
    ],
  };
}

function arithmeticTask(
  name: string,
  verb: string,
  symbol: string,
  example: [number, number, number],
  documentation: Documentation,
): SampleTask {
  const [a, b, result] = example;
  const signature = `${name}(a, b)`;
  const docs = documentationOf(name, signature, example, documentation);
  return {
    name,
    prompt: `Add a ${name} function to calc, with a test, ${docs.ask}.`,
    playbook: (date) => `## meta
\`\`\`yaml
project: ${name}
branch: feat/${name}
created: ${date}
reviewed: false
roles: {worker: claudecode}
\`\`\`

## goal
\`\`\`yaml
summary: calc exports ${signature}, tested and ${docs.summary}
done_when:
  - "npm test exits 0, including test/${name}.test.js"
  - "${docs.doneWhen}"
\`\`\`

## context
- **Who**: asked by Sam, the maintainer; used by everyone who imports calc.
- **What**: a \`${signature}\` function next to \`sum\` that ${verb}s two numbers. Other operations are out of scope.
- **When**: in this session, before the next release.
- **Where**: \`src/${name}.js\`, \`test/${name}.test.js\`, ${docs.where}.
- **Why**: users write \`a ${symbol} b\` by hand in every caller today.
- **How**: the same shape as \`src/sum.js\`, tested with \`node:test\` like \`test/sum.test.js\`.

Understanding check, confirmed by Sam on ${date}:
1. Should it check its arguments' types? No, it behaves like \`a ${symbol} b\`.

## phases

### p1: ${name}
**goal**: \`${signature}\` is exported, tested and documented
**depends_on**: []

#### subtasks
- [ ] **p1.1**: \`src/${name}.js\` exports \`${signature}\`, which returns \`a ${symbol} b\`, and \`test/${name}.test.js\` checks ${a} ${symbol} ${b} = ${result}
  - executor: claudecode
  - validations:
    - technical: "automated - node --test test/${name}.test.js"
    - consistency: "automated - npm test"
    - completeness: "automated - grep -q 'export function ${name}' src/${name}.js"
  - depends_on: []
- [ ] **p1.2**: ${docs.criterion}
  - executor: claudecode
  - validations:
    - technical: "automated - ${docs.technical}"
    - consistency: "automated - npm test"
    - completeness: "automated - ${docs.completeness}"
  - depends_on: [p1.1]

**status**: pending
**max_iterations**: 5

## final_tasks
- [ ] **ft1**: \`npm test\` exits 0 on feat/${name}
`,
    work: {
      "p1.1": [
        {
          tool: "Write",
          path: `src/${name}.js`,
          content: `export function ${name}(a, b) {\n  return a ${symbol} b;\n}\n`,
        },
        {
          tool: "Write",
          path: `test/${name}.test.js`,
          content: `import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport { ${name} } from "../src/${name}.js";\n\ntest("${name} ${verb}s two numbers", () => {\n  assert.equal(${name}(${a}, ${b}), ${result});\n});\n`,
        },
      ],
      "p1.2": docs.work,
    },
  };
}

/** The demo's task: a multiply function. */
export const MULTIPLY = arithmeticTask(
  "multiply",
  "multiplie",
  "*",
  [6, 7, 42],
  { readmeAfter: "- `sum(a, b)`" },
);

/** A second task, for two playbooks in sequence (it builds on the first one's README line). */
export const DIVIDE = arithmeticTask("divide", "divide", "/", [42, 6, 7], {
  readmeAfter: "- `multiply(a, b)`",
});

/**
 * Tasks for sessions that run at the same time, each in its own worktree from the same commit: each documents its
 * function on a page of its own, so their work never touches the same lines (state.md's bookkeeping aside, which the
 * archive reconciles).
 */
export const PARALLEL_TASKS: readonly SampleTask[] = (
  [
    ["add", "add", "+", [2, 3, 5]],
    ["subtract", "subtract", "-", [9, 4, 5]],
    ["multiply", "multiplie", "*", [6, 7, 42]],
    ["divide", "divide", "/", [42, 6, 7]],
    ["power", "raise", "**", [2, 10, 1024]],
    ["modulo", "reduce", "%", [17, 5, 2]],
    ["xor", "xor", "^", [6, 3, 5]],
    ["shift", "shift", "<<", [1, 4, 16]],
  ] as const
).map(([name, verb, symbol, example]) =>
  arithmeticTask(name, verb, symbol, [...example], "own-page"),
);
