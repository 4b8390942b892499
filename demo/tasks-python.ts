import type { SampleTask } from "./tasks.ts";

/** The demo's task in the Python `calc` (PYTHON_SAMPLE_FILES): a multiply function, tested with pytest. */
export const PY_MULTIPLY: SampleTask = {
  name: "multiply",
  prompt:
    "Add a multiply function to calc, with a pytest test, and list it in the README and the changelog.",
  testCommand: "python3 -m pytest -q",
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
summary: calc has multiply(a, b), tested with pytest and listed in the README and the changelog
done_when:
  - "python3 -m pytest exits 0, including tests/test_multiply.py"
  - "README.md lists multiply(a, b) and CHANGELOG.md mentions it under Unreleased"
\`\`\`

## context
- **Who**: asked by Sam, the maintainer; used by everyone who imports calc.
- **What**: a \`multiply(a, b)\` function next to \`sum\` that multiplies two numbers. Other operations are out of scope.
- **When**: in this session, before the next release.
- **Where**: \`calc/multiply.py\`, \`tests/test_multiply.py\`, \`README.md\`, \`CHANGELOG.md\`.
- **Why**: users write \`a * b\` by hand in every caller today.
- **How**: the same shape as \`calc/sum.py\`, tested with pytest like \`tests/test_sum.py\`.

Understanding check, confirmed by Sam on ${date}:
1. Should it check its arguments' types? No, it behaves like \`a * b\`.

## phases

### p1: multiply
**goal**: \`multiply(a, b)\` exists, is tested and documented
**depends_on**: []

#### subtasks
- [ ] **p1.1**: \`calc/multiply.py\` defines \`multiply(a, b)\`, which returns \`a * b\`, and \`tests/test_multiply.py\` checks 6 * 7 = 42
  - executor: claudecode
  - validations:
    - technical: "automated - python3 -m pytest -q tests/test_multiply.py"
    - consistency: "automated - python3 -m pytest -q"
    - completeness: "automated - grep -q 'def multiply' calc/multiply.py"
  - depends_on: []
- [ ] **p1.2**: README.md lists \`multiply(a, b)\` and CHANGELOG.md has a line for it under "Unreleased"
  - executor: claudecode
  - validations:
    - technical: "automated - grep -q 'multiply(a, b)' README.md"
    - consistency: "automated - python3 -m pytest -q"
    - completeness: "automated - grep -q 'multiply' CHANGELOG.md"
  - depends_on: [p1.1]

**status**: pending
**max_iterations**: 5

## final_tasks
- [ ] **ft1**: \`python3 -m pytest\` exits 0 on feat/multiply
`,
  work: {
    "p1.1": [
      {
        tool: "Write",
        path: "calc/multiply.py",
        content: "def multiply(a, b):\n    return a * b\n",
      },
      {
        tool: "Write",
        path: "tests/test_multiply.py",
        content:
          "from calc.multiply import multiply\n\n\ndef test_multiply_multiplies_two_numbers():\n    assert multiply(6, 7) == 42\n",
      },
    ],
    "p1.2": [
      {
        tool: "Edit",
        path: "README.md",
        old: "- `sum(a, b)`\n",
        new: "- `sum(a, b)`\n- `multiply(a, b)`\n",
      },
      {
        tool: "Edit",
        path: "CHANGELOG.md",
        old: "## Unreleased\n",
        new: "## Unreleased\n\n- Add `multiply(a, b)`.\n",
      },
    ],
  },
};
