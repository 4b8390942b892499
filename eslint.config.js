import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

const heavyOnHookPath = [
  "simple-git",
  "@octokit/*",
  "handlebars",
  "citty",
  "picocolors",
];

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
          paths: [
            "node:fs",
            "node:fs/promises",
            "node:child_process",
            "node:os",
            "node:process",
            "fs",
            "child_process",
          ].map((name) => ({
            name,
            message: "src/core is pure: do I/O in src/adapters or src/app.",
          })),
          patterns: [
            {
              group: ["simple-git", "@octokit/*", "handlebars"],
              message: "src/core is pure: use a port.",
            },
            {
              group: [
                "**/adapters/**",
                "**/app/**",
                "**/cli/**",
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
  {
    files: [
      "src/hooks/**/*.ts",
      "src/adapters/parse-cache.ts",
      "src/adapters/read-git-head.ts",
      "src/adapters/git-dirty.ts",
      "src/adapters/record-store.ts",
      "src/adapters/grant-store.ts",
      "src/adapters/runtime-files.ts",
      "src/adapters/resolve-real-path.ts",
      "src/app/read-workspace-summary.ts",
      "src/app/run-hook.ts",
      "src/app/build-guard-context.ts",
      "src/app/collect-bash-changes.ts",
      "src/app/record-critic-verdicts.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: heavyOnHookPath,
              message: "The hook path loads only core and node built-ins.",
            },
            {
              group: ["**/cli/**", "**/render/**"],
              message: "The hook path does not reach the CLI or templates.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ["test/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
  prettier,
);
