import { describe, expect, it } from "vitest";
import {
  detectDefaults,
  toAlsoFoundNote,
} from "../../../../src/core/scaffold/detect-defaults.ts";

function detect(
  files: Record<string, string>,
  names: string[] = [],
  remoteUrl: string | null = null,
) {
  return detectDefaults({
    folderName: "acme",
    rootNames: new Set([...Object.keys(files), ...names]),
    files: new Map(Object.entries(files)),
    remoteUrl,
  });
}

describe("detectDefaults", () => {
  it.each([
    [
      "a Python project with a Makefile: pytest, and make's lint",
      {
        "pyproject.toml": "[tool.pytest.ini_options]\n",
        Makefile: "test:\n\tpytest\nlint:\n\tflake8\n",
      },
      [],
      ["python3 -m pytest", "make lint", ["make test"]],
    ],
    [
      "a Go module with a justfile",
      { justfile: "test:\n  go test ./...\n" },
      ["go.mod"],
      ["go test ./...", "go vet ./...", ["just test"]],
    ],
    ["a crate", {}, ["Cargo.toml"], ["cargo test", "cargo clippy", []]],
    [
      "a package.json without tests beside pytest: pytest, npm's lint",
      {
        "package.json": '{"scripts":{"lint":"prettier --check ."}}',
        "pytest.ini": "",
      },
      [],
      ["python3 -m pytest", "npm run lint", []],
    ],
    [
      "only a Makefile",
      { Makefile: "check:\n\t./run-tests\nlint:\n\t./lint\n" },
      [],
      ["make check", "make lint", []],
    ],
    ["nothing", {}, [], ["", "", []]],
  ])("%s", (_name, files, names, [test, lint, others]) => {
    const detected = detect(files, names);
    expect([detected.testCommand, detected.lintCommand]).toEqual([test, lint]);
    expect(detected.alsoFound.map((a) => a.command)).toEqual(others);
  });

  it("names the project after package.json, without its scope, else the folder", () => {
    expect(detect({ "package.json": '{"name":"@acme/web"}' }).projectName).toBe(
      "web",
    );
    expect(detect({}).projectName).toBe("acme");
  });

  it.each([
    ["git@github.com:acme/web.git", "acme/web"],
    ["https://github.example.com/acme/web", "acme/web"],
    ["https://gitlab.com/acme/web.git", null],
  ])("remote %s -> %s", (url, repository) => {
    expect(detect({}, [], url).githubRepository).toBe(repository);
  });
});

describe("toAlsoFoundNote", () => {
  const detected = {
    alsoFound: [
      { command: "make test", from: "Makefile" },
      { command: "just lint", from: "justfile" },
    ],
  };

  it("lists the others with the file that offers each", () => {
    expect(
      toAlsoFoundNote(detected, {
        testCommand: "python3 -m pytest",
        lintCommand: "",
      }),
    ).toBe(
      "Also found `make test` (Makefile), `just lint` (justfile): answer init's test and lint questions with one of them to use it instead.",
    );
  });

  it("leaves out what the answers chose, and says nothing when nothing is left", () => {
    expect(
      toAlsoFoundNote(detected, {
        testCommand: "make test",
        lintCommand: "just lint",
      }),
    ).toBeNull();
  });
});
