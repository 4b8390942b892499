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
export function githubWorkflow(nodeVersion = "20"): string {
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
      - name: Install playbook from the base lockfile
        working-directory: base
        run: npm ci
      - name: Install the pull request's dependencies without running their scripts
        working-directory: pr
        run: npm ci --ignore-scripts
      - name: playbook check --rerun
        working-directory: base
        run: npx --no playbook check --rerun --pr ../pr --base "\${{ github.event.pull_request.base.sha }}"
`;
}
