import type { SampleTask, WorkItem } from "./tasks.ts";

/** What the multiply task is in one toolchain: its files, its test commands and the code. */
interface Toolchain {
  label: string;
  testAll: string;
  testOne: string;
  /** How the function is named in the README (`multiply(a, b)`, `Multiply(a, b)`). */
  signature: string;
  code: { path: string; content: string; marker: string };
  test: { path: string; content: string };
}

/** The multiply task in the `calc` of a toolchain other than Node's: the demo's plan, checked by its own test runner. */
function multiplyTask(t: Toolchain): SampleTask {
  const work: Record<string, WorkItem[]> = {
    "p1.1": [
      { tool: "Write", path: t.code.path, content: t.code.content },
      { tool: "Write", path: t.test.path, content: t.test.content },
    ],
    "p1.2": [
      {
        tool: "Edit",
        path: "README.md",
        old: "- `sum(a, b)`\n",
        new: `- \`sum(a, b)\`\n- \`${t.signature}\`\n`,
      },
      {
        tool: "Edit",
        path: "CHANGELOG.md",
        old: "## Unreleased\n",
        new: `## Unreleased\n\n- Add \`${t.signature}\`.\n`,
      },
    ],
  };
  return {
    name: "multiply",
    prompt: `Add a multiply function to calc, with a ${t.label} test, and list it in the README and the changelog.`,
    testCommand: t.testAll,
    work,
    playbook: (date) => `## meta
\`\`\`yaml
project: multiply
branch: feat/multiply
created: ${date}
reviewed: false
roles: {worker: claudecode}
\`\`\`

## goal
\`\`\`yaml
summary: calc has ${t.signature}, tested with ${t.label} and listed in the README and the changelog
done_when:
  - "${t.testAll} exits 0, including ${t.test.path}"
  - "README.md lists ${t.signature} and CHANGELOG.md mentions it under Unreleased"
\`\`\`

## context
- **Who**: asked by Sam, the maintainer; used by everyone who imports calc.
- **What**: a \`${t.signature}\` function next to \`sum\` that multiplies two numbers. Other operations are out of scope.
- **When**: in this session, before the next release.
- **Where**: \`${t.code.path}\`, \`${t.test.path}\`, \`README.md\`, \`CHANGELOG.md\`.
- **Why**: users write \`a * b\` by hand in every caller today.
- **How**: the same shape as the \`sum\` function, tested with ${t.label} like its test.

Understanding check, confirmed by Sam on ${date}:
1. Should it check its arguments' types? No, it behaves like \`a * b\`.

## phases

### p1: multiply
**goal**: \`${t.signature}\` exists, is tested and documented
**depends_on**: []

#### subtasks
- [ ] **p1.1**: \`${t.code.path}\` defines \`${t.signature}\`, which returns \`a * b\`, and \`${t.test.path}\` checks 6 * 7 = 42
  - executor: claudecode
  - validations:
    - technical: "automated - ${t.testOne}"
    - consistency: "automated - ${t.testAll}"
    - completeness: "automated - grep -q '${t.code.marker}' ${t.code.path}"
  - depends_on: []
- [ ] **p1.2**: README.md lists \`${t.signature}\` and CHANGELOG.md has a line for it under "Unreleased"
  - executor: claudecode
  - validations:
    - technical: "automated - grep -qF '${t.signature}' README.md"
    - consistency: "automated - ${t.testAll}"
    - completeness: "automated - grep -qi 'multiply' CHANGELOG.md"
  - depends_on: [p1.1]

**status**: pending
**max_iterations**: 5

## final_tasks
- [ ] **ft1**: \`${t.testAll}\` exits 0 on feat/multiply
`,
  };
}

/** The demo's task in the Python `calc` (PYTHON_SAMPLE_FILES): a multiply function, tested with pytest. */
export const PY_MULTIPLY = multiplyTask({
  label: "pytest",
  testAll: "python3 -m pytest -q",
  testOne: "python3 -m pytest -q tests/test_multiply.py",
  signature: "multiply(a, b)",
  code: {
    path: "calc/multiply.py",
    content: "def multiply(a, b):\n    return a * b\n",
    marker: "def multiply",
  },
  test: {
    path: "tests/test_multiply.py",
    content:
      "from calc.multiply import multiply\n\n\ndef test_multiply_multiplies_two_numbers():\n    assert multiply(6, 7) == 42\n",
  },
});

/** The task in the Go `calc` (GO_SAMPLE_FILES): `Multiply`, tested with `go test`. */
export const GO_MULTIPLY = multiplyTask({
  label: "go test",
  testAll: "go test ./...",
  testOne: "go test -run TestMultiply ./...",
  signature: "Multiply(a, b)",
  code: {
    path: "multiply.go",
    content:
      "package calc\n\nfunc Multiply(a, b int) int {\n\treturn a * b\n}\n",
    marker: "func Multiply",
  },
  test: {
    path: "multiply_test.go",
    content:
      'package calc\n\nimport "testing"\n\nfunc TestMultiply(t *testing.T) {\n\tif Multiply(6, 7) != 42 {\n\t\tt.Fatal("6 * 7 is not 42")\n\t}\n}\n',
  },
});
