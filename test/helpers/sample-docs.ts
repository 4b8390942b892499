/** A valid playbook exercising every writer target: quoted, single-quoted and plain validations, a lazy label. */
export const SAMPLE_PLAYBOOK = `## meta
\`\`\`yaml
project: login-form
branch: feat/login-form   # the playbook's branch
created: 2026-11-21
issue: null
reviewed: false
roles: {worker: claudecode}
\`\`\`

## goal
\`\`\`yaml
summary: Users can log in with email and password
done_when:
  - "npm test passes including test/login.test.ts"
\`\`\`

## context
Who: the web team. What: a login form. Why: users cannot sign in yet.

## phases

### p1: Form component
**goal**: the login form renders and validates input
**depends_on**: []

#### subtasks
- [ ] **p1.1**: \`src/login-form.tsx\` exports \`LoginForm\`
  - executor: claudecode
  - validations:
    - technical: "automated - npx vitest run test/login-form.test.ts"
    - consistency: 'automated - npx tsc --noEmit'
    - completeness: manual - the error states match docs/design.png
  - depends_on: []
- [X] **p1.2**: \`LoginForm\` shows "Email is required" when the email is empty
  - validations:
    - technical: "automated - npx vitest run test/login-form.test.ts -t required"
    - consistency: "automated - npx tsc --noEmit"
    - completeness: "hybrid - npx playwright test login + the message is red"
  - depends_on: [p1.1]
**status**: in_progress
**max_iterations**: 5

---
### p2: Submit
**depends_on**: [p1]

#### subtasks
- [ ] **p2.1**: submitting calls \`POST /api/login\` with the form values
  - validations:
    - technical: "automated - npx vitest run test/login-submit.test.ts"
    - consistency: "automated - npx tsc --noEmit"
    - completeness: "manual - a wrong password shows the server's message"

**status**: pending

## final_tasks
- [ ] **ft1**: CHANGELOG.md has a "Login form" entry
`;

export const SAMPLE_STATE = `# state

Where this project stands. Edited by people and by playbook.

## playbook

\`\`\`yaml
active: plan/playbook-login-form.md
branch: feat/login-form
last_archived: null
\`\`\`

## goal

\`\`\`yaml
milestone: null
phase: p1        # current phase
done_criteria: []
status: in_progress
\`\`\`

## session

\`\`\`yaml
last_start: 2026-11-21T10:00:00Z
last_end:
\`\`\`

## config

\`\`\`yaml
toolstack: A
roles: {orchestrator: claudecode, worker: claudecode, reviewer: claudecode, human: user}
\`\`\`

| reference | where |
| --- | --- |
| format | plan/template/playbook-format.md |
`;

/** A valid `state.md` with the given active playbook, branch and phase (the rest as a new project has it). */
export function stateDoc({
  active,
  branch,
  phase,
}: {
  active: string;
  branch: string;
  phase: string;
}): string {
  return `# state

## playbook

\`\`\`yaml
active: ${active}
branch: ${branch}
last_archived: null
\`\`\`

## goal

\`\`\`yaml
milestone: null
phase: ${phase}
done_criteria: []
status: in_progress
\`\`\`

## session

\`\`\`yaml
last_start: 2026-11-21T10:00:00Z
last_end: null
\`\`\`

## config

\`\`\`yaml
toolstack: A
roles: {orchestrator: claudecode, worker: claudecode, reviewer: claudecode, human: user}
\`\`\`
`;
}

/** Splits `after` against `before` into the one changed window: what was removed and what was inserted where. */
export function singleSplice(
  before: string,
  after: string,
): { at: number; removed: string; inserted: string } {
  let prefix = 0;
  while (
    prefix < before.length &&
    prefix < after.length &&
    before[prefix] === after[prefix]
  )
    prefix++;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) {
    suffix++;
  }
  return {
    at: prefix,
    removed: before.slice(prefix, before.length - suffix),
    inserted: after.slice(prefix, after.length - suffix),
  };
}

/** Removes positions so two ASTs can be compared by meaning. */
export function withoutSpans(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) =>
      ["span", "heading", "checkbox", "sections"].includes(key) ? undefined : v,
    ),
  ) as unknown;
}
