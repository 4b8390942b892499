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
}

function arithmeticTask(
  name: string,
  verb: string,
  symbol: string,
  example: [number, number, number],
  previousReadmeLine: string,
): SampleTask {
  const [a, b, result] = example;
  const signature = `${name}(a, b)`;
  return {
    name,
    prompt: `Add a ${name} function to calc, with a test, and list it in the README and the changelog.`,
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
summary: calc exports ${signature}, tested and listed in the README and the changelog
done_when:
  - "npm test exits 0, including test/${name}.test.js"
  - "README.md lists ${signature} and CHANGELOG.md mentions it under Unreleased"
\`\`\`

## context
- **Who**: asked by Sam, the maintainer; used by everyone who imports calc.
- **What**: a \`${signature}\` function next to \`sum\` that ${verb}s two numbers. Other operations are out of scope.
- **When**: in this session, before the next release.
- **Where**: \`src/${name}.js\`, \`test/${name}.test.js\`, \`README.md\`, \`CHANGELOG.md\`.
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
- [ ] **p1.2**: README.md lists \`${signature}\` and CHANGELOG.md has a line for it under "Unreleased"
  - executor: claudecode
  - validations:
    - technical: "automated - grep -q '${signature}' README.md"
    - consistency: "automated - npm test"
    - completeness: "automated - grep -q '${name}' CHANGELOG.md"
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
      "p1.2": [
        {
          tool: "Edit",
          path: "README.md",
          old: `${previousReadmeLine}\n`,
          new: `${previousReadmeLine}\n- \`${signature}\`\n`,
        },
        {
          tool: "Edit",
          path: "CHANGELOG.md",
          old: "## Unreleased\n",
          new: `## Unreleased\n\n- Add \`${signature}\`.\n`,
        },
      ],
    },
  };
}

/** The demo's task: a multiply function. */
export const MULTIPLY = arithmeticTask(
  "multiply",
  "multiplie",
  "*",
  [6, 7, 42],
  "- `sum(a, b)`",
);

/** A second task, for two playbooks in sequence (it builds on the first one's README line). */
export const DIVIDE = arithmeticTask(
  "divide",
  "divide",
  "/",
  [42, 6, 7],
  "- `multiply(a, b)`",
);
