/** Where `init --ci github` writes the workflow. */
export const GITHUB_WORKFLOW = ".github/workflows/playbook.yml";

export const CI_PROVIDERS = ["github"] as const;
export type CiProvider = (typeof CI_PROVIDERS)[number];

/**
 * The GitHub Actions workflow `init --ci github` writes (docs/trust-boundary.md): on every pull request it re-runs
 * the automated validations of the playbooks the branch changed, in the same sandbox `verify` uses, and compares
 * them with the evidence. The agent cannot reach CI, so there the proof does not depend on the machine it was made
 * on. The branch head is checked out (a pull request's default checkout is a merge, whose tree the evidence never
 * saw), and Ubuntu's AppArmor rule against unprivileged user namespaces is lifted, which bubblewrap needs.
 */
export function githubWorkflow(nodeVersion = "20"): string {
  return `# Written by \`playbook init --ci github\`: re-proves every automated claim of a pull request.
name: playbook
on:
  pull_request:
permissions:
  contents: read
jobs:
  rerun:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.head.sha }}
          fetch-depth: 0
      - uses: actions/setup-node@v4
        with:
          node-version: "${nodeVersion}"
      - name: The sandbox's tools
        run: |
          sudo apt-get update -qq
          sudo apt-get install -y -qq bubblewrap socat ripgrep
          sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true
      - run: npm ci
      - name: playbook check --rerun
        run: npx --no playbook check --rerun --base "origin/\${{ github.base_ref }}"
`;
}
