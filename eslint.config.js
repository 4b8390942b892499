import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

const heavyOnHookPath = [
  "@octokit/*",
  "@secretlint/*",
  "handlebars",
  "citty",
  "picocolors",
];

const io = [
  "node:fs",
  "node:fs/promises",
  "node:child_process",
  "node:os",
  "node:process",
  "fs",
  "child_process",
];

/** Files on the hook's path: every tool call loads them, so they stay off the heavy libraries. */
const hookPath = [
  "src/entries/**/*.ts",
  "src/hooks/**/*.ts",
  "src/adapters/parse-cache.ts",
  "src/adapters/read-git-head.ts",
  "src/adapters/git-dirty.ts",
  "src/adapters/record-store.ts",
  "src/adapters/grant-store.ts",
  "src/adapters/runtime-files.ts",
  "src/adapters/resolve-real-path.ts",
  "src/adapters/tree-listing.ts",
  "src/app/workspace/read-workspace-summary.ts",
  "src/app/hook/events/tool-call.ts",
  "src/app/hook/build-guard-context.ts",
  "src/app/hook/collect-bash-changes.ts",
  "src/app/hook/record-critic-verdicts.ts",
  "src/app/hook/remember-written-file.ts",
  "src/adapters/written-files-store.ts",
  "src/app/snapshot/snapshot-before-bash.ts",
  "src/app/snapshot/take-snapshot.ts",
  "src/adapters/snapshot-store.ts",
  "src/adapters/uncommitted-files.ts",
  "src/adapters/work-files.ts",
];

/**
 * The use-case folders of src/app, lowest first: a folder imports only the folders before it (docs/architecture.md).
 * `hook` and `loop` share a rank and do not import each other.
 */
const appFolders = [
  "workspace",
  "lint",
  "records",
  "snapshot",
  "hook",
  "loop",
  "archive",
  "scaffold",
  // The proof page reads what the others keep; nothing imports it.
  "view",
];
const sameRank = ["hook", "loop"];

/**
 * The house's layers (docs/architecture.md): core < hooks (the protocol) < adapters < app < entries and cli. Each
 * layer imports only the layers below it. A file on the hook's path also stays off the heavy libraries. One config
 * object per (layer, on the hook path or not), since ESLint keeps only the last `no-restricted-imports` per file.
 */
function layerZones() {
  const layers = [
    {
      files: ["src/hooks/**/*.ts"],
      above: ["adapters", "app", "cli", "entries", "render"],
      message:
        "src/hooks is the hook protocol: pure, it imports only src/core.",
      pure: true,
    },
    {
      files: ["src/adapters/**/*.ts"],
      above: ["app", "cli", "entries"],
      message:
        "src/adapters does I/O for the use cases: it imports only src/core and src/hooks.",
    },
    ...appFolders.map((folder, rank) => ({
      files: [`src/app/${folder}/**/*.ts`],
      above: ["cli", "entries"],
      message:
        "src/app holds the use cases: the CLI and the entry points call it, never the other way.",
      siblingsAbove: appFolders.filter(
        (other, otherRank) =>
          other !== folder &&
          otherRank >= rank &&
          !(sameRank.includes(other) && sameRank.includes(folder)),
      ),
    })),
    {
      files: ["src/render/**/*.ts"],
      above: ["adapters", "app", "cli", "entries", "hooks"],
      message: "src/render renders templates: it imports only src/core.",
    },
    {
      files: ["src/cli/**/*.ts"],
      above: ["entries"],
      message:
        "The CLI calls the use cases in src/app, not the bundles' entry points.",
    },
    {
      files: ["src/entries/**/*.ts"],
      above: ["cli"],
      message: "The process entry points do not reach the CLI.",
    },
  ];
  const heavy = {
    group: heavyOnHookPath,
    message: "The hook path loads only core and node built-ins.",
  };
  const noCliOrTemplates = {
    group: ["**/cli/**", "**/render/**"],
    message: "The hook path does not reach the CLI or templates.",
  };
  return layers.flatMap((layer) => {
    const rule = (extra) => [
      "error",
      {
        ...(layer.pure
          ? {
              paths: io.map((name) => ({
                name,
                message: "src/hooks is pure: do I/O in src/entries.",
              })),
            }
          : {}),
        patterns: [
          {
            group: layer.above.map((l) => `**/${l}/**`),
            message: layer.message,
          },
          ...(layer.siblingsAbove
            ? [
                {
                  regex: "^(\\.\\./)+deps(\\.ts)?$",
                  message:
                    "src/app/deps.ts wires the use cases for the CLI and the entry points: a use case takes its ports as arguments.",
                },
              ]
            : []),
          ...(layer.siblingsAbove?.length
            ? [
                {
                  regex: `^(\\.\\./)+(${layer.siblingsAbove.join("|")})/`,
                  message: `Within src/app, a folder imports only the folders below it (docs/architecture.md): not ${layer.siblingsAbove.join(", ")}.`,
                },
              ]
            : []),
          ...extra,
        ],
      },
    ];
    const globals = layer.pure
      ? {
          "no-restricted-globals": [
            "error",
            { name: "process", message: "src/hooks is pure: pass values in." },
          ],
        }
      : {};
    const onHookPath = hookPath.filter((f) =>
      layer.files.some((l) => f.startsWith(l.replace("**/*.ts", ""))),
    );
    return [
      {
        files: layer.files,
        rules: { "no-restricted-imports": rule([]), ...globals },
      },
      {
        files: onHookPath,
        rules: {
          "no-restricted-imports": rule([heavy, noCliOrTemplates]),
          ...globals,
        },
      },
    ].filter((zone) => zone.files.length > 0);
  });
}

export default tseslint.config(
  {
    ignores: [
      "dist/",
      ".dist-*/",
      "node_modules/",
      "coverage/",
      "test/fixtures/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["*.js", "*.mjs", "scripts/*.mjs"],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: io.map((name) => ({
            name,
            message: "src/core is pure: do I/O in src/adapters or src/app.",
          })),
          patterns: [
            {
              group: ["@octokit/*", "handlebars"],
              message: "src/core is pure: use a port.",
            },
            {
              group: [
                "**/adapters/**",
                "**/app/**",
                "**/cli/**",
                "**/entries/**",
                "**/hooks/**",
                "**/render/**",
              ],
              message: "src/core imports nothing else from src/.",
            },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        { name: "process", message: "src/core is pure: pass values in." },
      ],
    },
  },
  ...layerZones(),
  {
    // Every git process playbook starts goes through the one runner (docs/trust-boundary.md, "Git that runs
    // nothing"): a second path would read the configuration the agent could have written, and run its programs.
    files: ["src/**/*.ts"],
    ignores: ["src/adapters/git-runner.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...["callee.name", "callee.property.name"].map((callee) => ({
          selector: `CallExpression[${callee}=/^(spawn|spawnSync|exec|execSync|execFile|execFileSync|fork|runProgram)$/][arguments.0.value=/^git(\\s|$)/]`,
          message:
            "Start git through src/adapters/git-runner.ts (runGitSync, runGit, startGit), which reads no configuration the agent could write and runs no program it names.",
        })),
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: [
      "test/**/*.ts",
      "bench/**/*.ts",
      "scripts/**/*.ts",
      "harness/**/*.ts",
    ],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
  prettier,
);
