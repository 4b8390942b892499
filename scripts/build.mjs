// Builds dist/cli.mjs (the CLI), dist/hook.cjs (a loader using V8's code cache), dist/hook-main.cjs (the hot hook
// path of tool calls), dist/hook-session.cjs (session events and the status line), dist/archive.cjs (starts the archive as a trusted job and
// waits for it, loaded by the hook only when an edit finishes a playbook), dist/parser.cjs (the markdown parser, which the hook loads only on a cache miss) and dist/bash.cjs (the
// shell parser, loaded only for Bash calls), dist/ignore.cjs (the gitignore matcher, loaded only when a changed path may
// be protected), dist/levenshtein.cjs (string distance, for "did you mean" in an error message), dist/yaml.cjs (the yaml
// package, which the markdown parser loads only for a yaml block its chunk cache does not hold), dist/snapshot.cjs (the copy of
// uncommitted work kept before a shell command that may change files), dist/tree.cjs (the working tree's fingerprint, for the session events; the tool hook carries the quick answer from the tree's basis and loads the full reading from it) and dist/git.cjs (the git runner and the tree's listing: the loader starts a tick's git from it, and the hooks' bundles load it on first use). The sandbox runtime validations run in is a chunk of the CLI, loaded by
// `playbook verify` and `playbook check --rerun` only, with its seccomp helpers in dist/vendor/.
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Parser version: a digest of everything under src/core, so any parser change invalidates old cache entries. */
function parserVersion() {
  const hash = createHash("sha256");
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(name).update(readFileSync(path));
    }
  };
  walk(join(root, "src/core"));
  hash.update(pkg.version);
  return `${pkg.version}+${hash.digest("hex").slice(0, 12)}`;
}

function bugsUrl(pkg) {
  const bugs = typeof pkg.bugs === "string" ? pkg.bugs : pkg.bugs?.url;
  if (bugs) return bugs;
  const repo =
    typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  const github = repo && /github\.com[/:]([^/]+\/[^/.]+)/.exec(repo);
  return github ? `https://github.com/${github[1]}/issues` : null;
}

const define = {
  __PLAYBOOK_VERSION__: JSON.stringify(pkg.version),
  // Where crashes are reported: `bugs` (a string or { url }), else the repository's issues on GitHub, else none.
  __PLAYBOOK_BUGS__: JSON.stringify(bugsUrl(pkg)),
  __PLAYBOOK_PARSER_VERSION__: JSON.stringify(parserVersion()),
};
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  define,
  logLevel: "warning",
  legalComments: "none",
  // Prefer ESM builds: jsonc-parser ships a UMD `main` whose dynamic requires cannot be bundled.
  mainFields: ["module", "main"],
};

// A CommonJS bundle has no `import.meta`; `__dirname` is the same folder (dist/), which is what a module asking
// for its own directory (adapters/package-root.ts) needs.
const cjsDefine = { ...define, "import.meta.dirname": "__dirname" };

// The working tree's fingerprint (git, hashing) is read only for an edit that claims proof. The session events'
// bundle loads it from dist/tree.cjs on first use instead of carrying it; the tool hook carries it, since a tick
// starts git as early as it can and loading the file cost it about 4 ms.
const lazyTree = {
  name: "lazy-tree",
  setup(build) {
    build.onResolve({ filter: /\/adapters\/tree-fingerprint\.ts$/ }, () => ({
      path: "tree-fingerprint",
      namespace: "lazy-tree",
    }));
    build.onLoad({ filter: /.*/, namespace: "lazy-tree" }, () => ({
      contents:
        'let tree; const load = () => (tree ??= require(require("node:path").join(__dirname, "tree.cjs")));' +
        " exports.readWorkingTree = (...args) => load().readWorkingTree(...args);" +
        " exports.treeFingerprint = (...args) => load().treeFingerprint(...args);" +
        " exports.treeFingerprintSoon = (...args) => load().treeFingerprintSoon(...args);",
      loader: "js",
    }));
  },
};

// The tool hook answers a tick from the tree's basis (adapters/tree-fingerprint.ts); the full reading (every path,
// playbook's own index written again) is needed only when the basis cannot answer, so the tool hook loads it from
// dist/tree.cjs then instead of carrying it.
const lazyTreeReading = {
  name: "lazy-tree-reading",
  setup(build) {
    build.onResolve({ filter: /\/tree-reading\.ts$/ }, () => ({
      path: "tree-reading",
      namespace: "lazy-tree-reading",
    }));
    build.onLoad({ filter: /.*/, namespace: "lazy-tree-reading" }, () => ({
      contents:
        'let tree; const load = () => (tree ??= require(require("node:path").join(__dirname, "tree.cjs")));' +
        " exports.readWorkingTree = (...args) => load().readWorkingTree(...args);" +
        " exports.readTreeFingerprint = (...args) => load().readTreeFingerprint(...args);",
      loader: "js",
    }));
  },
};

// Every git process a hook starts goes through the runner (adapters/git-runner.ts). The hooks' bundles load it from
// dist/git.cjs on first use: a tick, whose git the loader started from that same file (so it is loaded once), and
// rare events. It stays out of the bundles every call loads.
const GIT_FUNCTIONS = [
  "isTrustedProcess",
  "findDotGit",
  "readRepositoryLayout",
  "describeRefusal",
  "gitInvocation",
  "runGitSync",
  "runGit",
  "startGit",
  "readUserGitConfig",
];
const lazyGit = {
  name: "lazy-git",
  setup(build) {
    build.onResolve({ filter: /\/git-runner\.ts$/ }, () => ({
      path: "git-runner",
      namespace: "lazy-git",
    }));
    build.onLoad({ filter: /.*/, namespace: "lazy-git" }, () => ({
      contents:
        'let git; const load = () => (git ??= require(require("node:path").join(__dirname, "git.cjs")));' +
        ' exports.HOOK_PROCESS_ENV = "PLAYBOOK_HOOK_PROCESS";' +
        GIT_FUNCTIONS.map(
          (name) => ` exports.${name} = (...args) => load().${name}(...args);`,
        ).join(""),
      loader: "js",
    }));
  },
};

/**
 * A package the hooks need only on a rare path, loaded from its own file in dist/ on first use instead of carried on
 * every call. `shape` is the module's form: "function" (a callable default export with the named members in `names`)
 * or "exports" (only the named members).
 */
function lazyPackage(name, file, shape, names) {
  const namespace = `lazy-${file}`;
  const load = `let lib; const load = () => (lib ??= require(require("node:path").join(__dirname, ${JSON.stringify(file)})));`;
  const members = names
    .map((member) =>
      shape === "function"
        ? ` lazy.${member} = (...args) => load().${member}(...args);`
        : ` exports.${member} = (...args) => load().${member}(...args);`,
    )
    .join("");
  const contents =
    shape === "function"
      ? `${load} const lazy = (...args) => load()(...args);${members} module.exports = lazy;`
      : `${load}${members}`;
  return {
    name: namespace,
    setup(build) {
      build.onResolve(
        { filter: new RegExp(`^${name.replace(/[-/]/g, "\\$&")}$`) },
        () => ({ path: name, namespace }),
      );
      build.onLoad({ filter: /.*/, namespace }, () => ({
        contents,
        loader: "js",
      }));
    },
  };
}

// The gitignore matcher is needed only when a changed path may be protected (protected-match.ts checks the patterns'
// plain text first): the tool hook loads it from dist/ignore.cjs then, instead of carrying it on every call.
const lazyIgnore = lazyPackage("ignore", "ignore.cjs", "function", [
  "isPathValid",
]);
// String distance is for "did you mean" in an error message (a misspelt config key, say): never on a call that
// passes, so the hooks load it from dist/levenshtein.cjs when they write such a message.
const lazyLevenshtein = lazyPackage(
  "fastest-levenshtein",
  "levenshtein.cjs",
  "exports",
  ["distance", "closest"],
);

// The yaml package runs only when a yaml block changed (the chunk cache keeps each block's reading): the parser
// bundle loads it from dist/yaml.cjs then, instead of starting it on every parse.
const lazyYaml = {
  name: "lazy-yaml",
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, () => ({
      path: "yaml",
      namespace: "lazy-yaml",
    }));
    build.onLoad({ filter: /.*/, namespace: "lazy-yaml" }, () => ({
      // Through V8's code cache, as the hook's other bundles: compiling the package anew costs a few ms.
      contents: `const { requireWithCodeCache } = require(${JSON.stringify(join(root, "src/entries/code-cache.ts"))});
let lib; const load = () => (lib ??= requireWithCodeCache(require("node:path").join(__dirname, "yaml.cjs")));${[
        "parseDocument",
        "isMap",
        "isScalar",
        "isSeq",
        "parse",
      ]
        .map(
          (name) => ` exports.${name} = (...args) => load().${name}(...args);`,
        )
        .join("")}`,
      resolveDir: root,
      loader: "js",
    }));
  },
};

// node:crypto costs a process about 3 ms to load, and the parser's hashes are computed only when read (a summary's
// `hashes`): the parser bundle loads it on the first hash instead of at its start.
const lazyCrypto = {
  name: "lazy-node-crypto",
  setup(build) {
    // The shim's own require is node's module.
    build.onResolve({ filter: /^node:crypto$/ }, (args) =>
      args.namespace === "lazy-node-crypto"
        ? { path: "node:crypto", external: true }
        : { path: "node:crypto", namespace: "lazy-node-crypto" },
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-node-crypto" }, () => ({
      contents: `let lib; const load = () => (lib ??= require("node:crypto"));${[
        "hash",
        "createHash",
        "randomBytes",
        "randomUUID",
      ]
        .map(
          (name) => ` exports.${name} = (...args) => load().${name}(...args);`,
        )
        .join("")}`,
      loader: "js",
    }));
  },
};

// Build beside dist/ and rename each file into place, so a test run reading dist/ never sees it half-written.
const out = join(root, `.dist-${process.pid}`);
rmSync(out, { recursive: true, force: true });
await Promise.all([
  build({
    ...common,
    entryPoints: { cli: join(root, "src/cli/main.ts") },
    outdir: out,
    outExtension: { ".js": ".mjs" },
    // Each command is its own chunk, loaded when it runs: `playbook verify` does not parse Handlebars or Octokit.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    format: "esm",
    banner: {
      js: '#!/usr/bin/env node\nimport { createRequire as __playbookCreateRequire } from "node:module";\nconst require = __playbookCreateRequire(import.meta.url);',
    },
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/tool-hook.ts")],
    outfile: join(out, "hook-main.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
    plugins: [lazyIgnore, lazyLevenshtein, lazyGit, lazyTreeReading],
  }),
  build({
    ...common,
    stdin: {
      contents: 'module.exports = require("fastest-levenshtein");',
      resolveDir: root,
    },
    outfile: join(out, "levenshtein.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/local-boundary.ts")],
    outfile: join(out, "local-boundary.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    stdin: {
      contents: 'module.exports = require("yaml");',
      resolveDir: root,
    },
    outfile: join(out, "yaml.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    stdin: {
      contents: 'module.exports = require("ignore");',
      resolveDir: root,
    },
    outfile: join(out, "ignore.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/adapters/tree-fingerprint.ts")],
    outfile: join(out, "tree.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/archive-job.ts")],
    outfile: join(out, "archive.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/session-hook.ts")],
    outfile: join(out, "hook-session.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
    plugins: [lazyTree, lazyLevenshtein, lazyGit],
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/hook-loader.ts")],
    outfile: join(out, "hook.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/git.ts")],
    outfile: join(out, "git.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/bash-analysis.ts")],
    outfile: join(out, "bash.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/snapshot.ts")],
    outfile: join(out, "snapshot.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/trusted-job.ts")],
    outfile: join(out, "job.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, "src/entries/parser.ts")],
    outfile: join(out, "parser.cjs"),
    format: "cjs",
    define: cjsDefine,
    minify: true,
    plugins: [lazyCrypto, lazyYaml],
  }),
]);
chmodSync(join(out, "cli.mjs"), 0o755);
// The sandbox runtime (bundled into a chunk of the CLI) runs its seccomp helper from vendor/ beside dist/: ship the
// prebuilt helpers of the installed version, for both Linux architectures it has them for.
const seccomp = join(
  root,
  "node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp",
);
for (const arch of ["x64", "arm64"]) {
  mkdirSync(join(out, "vendor/seccomp", arch), { recursive: true });
  copyFileSync(
    join(seccomp, arch, "apply-seccomp"),
    join(out, "vendor/seccomp", arch, "apply-seccomp"),
  );
  chmodSync(join(out, "vendor/seccomp", arch, "apply-seccomp"), 0o755);
}
const dist = join(root, "dist");
mkdirSync(dist, { recursive: true });
// Chunks have content-hashed names, so new ones never replace old ones: move them in first, then the files that
// load them, then drop the chunks nothing loads any more.
mkdirSync(join(dist, "chunks"), { recursive: true });
const chunks = readdirSync(join(out, "chunks"));
for (const name of chunks)
  renameSync(join(out, "chunks", name), join(dist, "chunks", name));
rmSync(join(out, "chunks"), { recursive: true, force: true });
const built = readdirSync(out);
for (const name of built) {
  // A folder is replaced whole (rename does not overwrite a folder with files in it).
  if (statSync(join(out, name)).isDirectory())
    rmSync(join(dist, name), { recursive: true, force: true });
  renameSync(join(out, name), join(dist, name));
}
for (const name of readdirSync(dist))
  if (!built.includes(name) && name !== "chunks")
    rmSync(join(dist, name), { recursive: true, force: true });
for (const name of readdirSync(join(dist, "chunks")))
  if (!chunks.includes(name))
    rmSync(join(dist, "chunks", name), { force: true });
rmSync(out, { recursive: true, force: true });
