import { cliSpelling, installCommand, type SetupKind } from "./setup-kind.ts";

/** Where `init --ci github` writes the workflow. */
export const GITHUB_WORKFLOW = ".github/workflows/playbook.yml";

/**
 * The name of the workflow's job, which GitHub reports as the check run a ruleset or branch protection requires
 * (docs/ci.md). `playbook doctor` looks for it in the default branch's rules.
 */
export const CI_CHECK_NAME = "playbook-rerun";

export const CI_PROVIDERS = ["github"] as const;
export type CiProvider = (typeof CI_PROVIDERS)[number];

/**
 * The GitHub Actions workflow `init --ci github` writes (docs/ci.md): on every pull request it re-runs the automated
 * validations of the playbooks the branch changed, in the same sandbox `verify` uses, and compares them with the
 * evidence.
 *
 * A branch must not redefine its own check, so the workflow is a `pull_request_target` one: GitHub runs it as the
 * default branch has it, never as the pull request's head has it. The verifier (this workflow, the playbook-kit the
 * base lockfile names, its install scripts, `.claude/playbook.json`) comes from the base commit; the pull request is
 * checked out beside it as data, its dependencies installed without running any of its scripts, and its validations
 * run only in the sandbox. No secret is used and the token can only read, since code of the branch runs in this job
 * (sandboxed), and neither checkout keeps the token in its git configuration. Ubuntu's AppArmor rule against
 * unprivileged user namespaces is lifted, which bubblewrap needs.
 */
export function githubWorkflow(
  options: {
    /** How the project installs playbook: npm from the base lockfile, or npx of the version the setup names. */
    setup?: SetupKind;
    version?: string;
    /** The project's test command, which says what the pull request's validations need installed. */
    testCommand?: string;
    nodeVersion?: string;
  } = {},
): string {
  const nodeVersion = options.nodeVersion ?? "20";
  const runtime = options.setup === "runtime";
  const install = runtime
    ? `      - name: Install playbook as the base branch's setup names it
        working-directory: base
        run: ${installCommand("runtime", options.version ?? "latest")}
`
    : `      - name: Install playbook from the base lockfile
        working-directory: base
        run: npm ci
`;
  const cli = runtime ? cliSpelling("runtime") : cliSpelling("npm");
  return `# Written by \`playbook init --ci github\`: re-proves every automated claim of a pull request with the base
# branch's playbook. GitHub runs a pull_request_target workflow as the default branch has it, so a branch cannot
# change this check; a pull request that changes a workflow or playbook's configuration fails it until a person
# reviews and merges it. Setup: docs/ci.md of playbook-kit.
name: playbook
on:
  pull_request_target:
    types: [opened, synchronize, reopened]
permissions:
  contents: read
jobs:
  rerun:
    name: ${CI_CHECK_NAME}
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - name: The verifier, from the base branch
        uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.base.sha }}
          path: base
          persist-credentials: false
      - name: The pull request, as data
        uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.head.sha }}
          path: pr
          fetch-depth: 0
          persist-credentials: false
      - uses: actions/setup-node@v4
        with:
          node-version: "${nodeVersion}"
      - name: The sandbox's tools
        run: |
          sudo apt-get update -qq
          sudo apt-get install -y -qq bubblewrap socat ripgrep
          sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true
${install}${dependencySteps(runtime ? (options.testCommand ?? "") : "npm")}      - name: playbook check --rerun
        working-directory: base
        run: ${cli} check --rerun --pr ../pr --base "\${{ github.event.pull_request.base.sha }}"
`;
}

/**
 * The steps that give the pull request's validations their toolchain and dependencies, installed without running the
 * branch's own scripts where the tool allows it (npm's `--ignore-scripts`, pip's wheels only), by the project's test
 * command. Anything else is the project's to add.
 */
function dependencySteps(testCommand: string): string {
  const words = testCommand.trim().split(/\s+/);
  const tool = words[0] === "uv" || words[0] === "poetry" ? words[2] : words[0];
  if (testCommand === "npm" || /^(?:npm|npx|pnpm|yarn|bun)$/.test(tool ?? ""))
    return `      - name: Install the pull request's dependencies without running their scripts
        working-directory: pr
        run: npm ci --ignore-scripts
`;
  if (/^(?:python3?|pytest)$/.test(tool ?? ""))
    return `      - uses: actions/setup-python@v5
        with:
          python-version: "3.x"
      - name: Install pytest and the pull request's requirements as wheels only (no build scripts run)
        working-directory: pr
        run: |
          python -m pip install --only-binary=:all: pytest
          if [ -f requirements.txt ]; then python -m pip install --only-binary=:all: -r requirements.txt; fi
`;
  if (tool === "go")
    return `      - uses: actions/setup-go@v5
        with:
          go-version-file: pr/go.mod
      - name: Download the pull request's modules
        working-directory: pr
        run: go mod download
`;
  if (tool === "cargo")
    return `      - name: Fetch the pull request's crates
        working-directory: pr
        run: cargo fetch
`;
  return "";
}
