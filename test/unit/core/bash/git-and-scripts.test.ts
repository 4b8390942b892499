import { describe, expect, it } from "vitest";
import { analyzeBash } from "../../../../src/core/bash/analyze-bash.ts";
import { expectWrites } from "../../../helpers/bash-writes.ts";

describe("git rm and git mv", () => {
  it.each([
    [
      "git rm plan/a.md plan/b.md",
      [
        ["delete", "plan/a.md"],
        ["delete", "plan/b.md"],
      ],
    ],
    ["git rm -rf -- plan", [["delete", "plan"]]],
    ["git -C repo rm plan/a.md", [["delete", "repo/plan/a.md"]]],
    ["git -c core.x=1 rm a.md", [["delete", "a.md"]]],
    ["git rm -r --cached plan", []],
    ["git rm -n a.md", []],
    [
      "git mv plan/a.md plan/b.md",
      [
        ["move", "plan/a.md"],
        ["write", "plan/b.md"],
      ],
    ],
    [
      "git mv a.md b.md archive",
      [
        ["move", "a.md"],
        ["move", "b.md"],
        ["write", "archive"],
        ["write", "archive/a.md"],
        ["write", "archive/b.md"],
      ],
    ],
    [
      "git mv -f x.md docs/",
      [
        ["move", "x.md"],
        ["write", "docs/"],
        ["write", "docs/x.md"],
      ],
    ],
    ["git mv -n a.md b.md", []],
    ["git status", []],
    ["git commit -am x", []],
    ["git log -- rm", []],
  ] as const)("%s", expectWrites);
});

describe("a script written from a here-document and run on the same line", () => {
  it.each([
    [
      "cat > run.sh <<'EOF'\nrm -rf plan\nEOF\nbash run.sh",
      [
        ["write", "run.sh"],
        ["delete", "plan"],
      ],
    ],
    [
      "cat > run.sh <<'EOF'\nrm -rf plan\nEOF\nchmod +x run.sh && ./run.sh",
      [
        ["write", "run.sh"],
        ["write", "run.sh"],
        ["delete", "plan"],
      ],
    ],
    [
      "cat <<EOF > /tmp/x.sh\ntouch plan/state.md\nEOF\nsource /tmp/x.sh",
      [
        ["write", "/tmp/x.sh"],
        ["write", "plan/state.md"],
      ],
    ],
    [
      "tee s.sh <<EOF >/dev/null\nrm plan\nEOF\n. ./s.sh",
      [
        ["write", "s.sh"],
        ["delete", "plan"],
      ],
    ],
    [
      "cat > s.sh <<EOF\nrm x\nEOF\nsudo sh -e s.sh",
      [
        ["write", "s.sh"],
        ["delete", "x"],
      ],
    ],
    ["cat > a.sh <<EOF\nrm plan\nEOF\nbash b.sh", [["write", "a.sh"]]],
    ["bash run.sh; cat > run.sh <<EOF\nrm plan\nEOF", [["write", "run.sh"]]],
    ["cat > s.sh <<EOF\nrm x\nEOF\nsh -c s.sh", [["write", "s.sh"]]],
    ["cat > s.sh <<EOF\nbash s.sh\nEOF\nbash s.sh", [["write", "s.sh"]]],
  ] as const)("%j", expectWrites);

  it("runs the body one level deeper than the command that runs it", () => {
    const analysis = analyzeBash("cat > r.sh <<'EOF'\nrm a\nEOF\nbash r.sh");
    expect(analysis.commands.map((c) => [c.depth, c.argv])).toEqual([
      [0, ["cat"]],
      [0, ["bash", "r.sh"]],
      [1, ["rm", "a"]],
    ]);
  });
});

describe("code piped into a shell or an interpreter", () => {
  it.each([
    ['echo "rm -f a.md" | bash', [["delete", "a.md"]]],
    ["echo -n 'touch b' | sh -s", [["write", "b"]]],
    ["printf 'cd x\\nrm -f c\\n' | sh", [["delete", "c"]]],
    ['echo "rm a" | tee log | bash', [["write", "log"]]],
    ['echo "$CODE" | bash', []],
    ['echo "rm a" | bash x.sh', []],
  ] as const)("%s", expectWrites);

  it("hands piped program text to the inline-code check", () => {
    const analysis = analyzeBash(`echo "open('s.md','w')" | python3`);
    expect(analysis.inlineCode.map((c) => [c.interpreter, c.code])).toEqual([
      ["python3", "open('s.md','w')"],
    ]);
  });
});

describe("script files a line runs", () => {
  it.each([
    ["bash x.sh", [["x.sh", null]]],
    ["sh -e ./x.sh arg", [["x.sh", null]]],
    ["./tools/x.sh", [["tools/x.sh", null]]],
    [
      "source env.sh && . more.sh",
      [
        ["env.sh", null],
        ["more.sh", null],
      ],
    ],
    ["python3 -u fix.py --all", [["fix.py", "python3"]]],
    ["node build.js", [["build.js", "node"]]],
    ["sudo bash /opt/x.sh", [["/opt/x.sh", null]]],
    ["bash -c 'echo hi'", []],
    ["python3 -m pytest", []],
    ["node -e 'x'", []],
    ["cat > t.sh <<'EOF'\necho hi\nEOF\nbash t.sh", []],
    // package.json says what `npm test` runs: its scripts are read there.
    ["npm test", [["package.json", null]]],
    ["npm --prefix web run build", [["web/package.json", null]]],
    ["npm view react", []],
  ] as const)("%s", (command, expected) => {
    const analysis = analyzeBash(command);
    expect(analysis.error).toBeNull();
    expect(analysis.scriptFiles.map((f) => [f.path, f.interpreter])).toEqual(
      expected,
    );
  });
});
