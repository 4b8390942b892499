import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeBash } from "../../../../src/core/bash/analyze-bash.ts";
import type { BashAnalysis, WriteOp } from "../../../../src/core/bash/types.ts";

interface CorpusEntry {
  command: string;
  error?: true;
  commands?: string[][];
  writes?: { path: string; op: WriteOp }[];
  inlineCode?: { interpreter: string; code: string }[];
}

const corpus = JSON.parse(
  readFileSync(
    join(import.meta.dirname, "../../../fixtures/bash/corpus.json"),
    "utf8",
  ),
) as CorpusEntry[];

const argvs = (a: BashAnalysis) => a.commands.map((c) => c.argv);
const writes = (a: BashAnalysis) => a.writes.map((w) => [w.op, w.path]);
const code = (a: BashAnalysis) =>
  a.inlineCode.map((c) => [c.interpreter, c.code]);

describe("analyzeBash on the corpus", () => {
  it.each(corpus.map((e) => [e.command, e] as const))(
    "%j",
    (command, entry) => {
      const analysis = analyzeBash(command);
      if (entry.error) {
        expect(analysis.error).toMatch(/line \d+, column \d+/);
        expect(analysis.commands).toEqual([]);
        return;
      }
      expect(analysis.error).toBeNull();
      expect(argvs(analysis)).toEqual(entry.commands);
      expect(analysis.writes.map(({ path, op }) => ({ path, op }))).toEqual(
        entry.writes,
      );
      expect(
        analysis.inlineCode.map(({ interpreter, code }) => ({
          interpreter,
          code,
        })),
      ).toEqual(entry.inlineCode ?? []);
    },
  );
});

describe("writes", () => {
  it.each([
    ["echo x > out.txt", [["write", "out.txt"]]],
    ["echo x >> out.txt", [["append", "out.txt"]]],
    ["echo x >| out.txt", [["write", "out.txt"]]],
    ["make &> out.txt", [["write", "out.txt"]]],
    ["make &>> out.txt", [["append", "out.txt"]]],
    ["make >& out.txt", [["write", "out.txt"]]],
    ["exec 3<> rw.txt", [["write", "rw.txt"]]],
    ["make 2> err.log", [["write", "err.log"]]],
    ["make 2>> err.log", [["append", "err.log"]]],
    ["make 2>&1 >&2 1>&- > /dev/null 2>/dev/stderr", []],
    ["cat < in.txt", []],
    ["> empty.md", [["write", "empty.md"]]],
    [
      "tee a.md b.md",
      [
        ["write", "a.md"],
        ["write", "b.md"],
      ],
    ],
    ["tee -a a.md -", [["append", "a.md"]]],
    ["tee --append a.md", [["append", "a.md"]]],
    [
      "sed -i 's/a/b/' a.md b.md",
      [
        ["write", "a.md"],
        ["write", "b.md"],
      ],
    ],
    ["sed -i.bak 's/a/b/' a.md", [["write", "a.md"]]],
    ["sed -Ei 's/a/b/' a.md", [["write", "a.md"]]],
    ["sed --in-place 's/a/b/' a.md", [["write", "a.md"]]],
    ["sed -i -f script.sed a.md", [["write", "a.md"]]],
    ["sed -i -e 's/a/b/' -- a.md", [["write", "a.md"]]],
    ["sed -i '' 's/a/b/' a.md", [["write", "a.md"]]],
    ["sed 's/a/b/' a.md", []],
    ["perl -pi -e 's/a/b/' a.md", [["write", "a.md"]]],
    [
      "perl -i.orig -pe 's/a/b/' a.md b.md",
      [
        ["write", "a.md"],
        ["write", "b.md"],
      ],
    ],
    ["perl -pe 's/a/b/' a.md", []],
    ["ruby -i -pe 'x' a.md", [["write", "a.md"]]],
    ["cp a.md b.md", [["write", "b.md"]]],
    [
      "cp -r src/ a/ dest/",
      [
        ["write", "dest/"],
        ["write", "dest/src"],
        ["write", "dest/a"],
      ],
    ],
    [
      "cp -t dest a.md b.md",
      [
        ["write", "dest"],
        ["write", "dest/a.md"],
        ["write", "dest/b.md"],
      ],
    ],
    [
      "cp --target-directory=dest a.md",
      [
        ["write", "dest"],
        ["write", "dest/a.md"],
      ],
    ],
    ["cp only.md", []],
    [
      "mv a.md b.md",
      [
        ["move", "a.md"],
        ["write", "b.md"],
      ],
    ],
    [
      "mv -t dir a.md",
      [
        ["move", "a.md"],
        ["write", "dir"],
        ["write", "dir/a.md"],
      ],
    ],
    [
      "rm -rf a b",
      [
        ["delete", "a"],
        ["delete", "b"],
      ],
    ],
    ["rm -- -f", [["delete", "-f"]]],
    ["unlink a.md", [["delete", "a.md"]]],
    ["rmdir -p a/b", [["delete", "a/b"]]],
    ["shred -n 3 -u key.pem", [["delete", "key.pem"]]],
    ["truncate -s 0 a.md", [["write", "a.md"]]],
    ["truncate --reference=b.md a.md", [["write", "a.md"]]],
    ["dd if=a of=b.img", [["write", "b.img"]]],
    ["dd if=a", []],
    ["touch -d yesterday a.md", [["write", "a.md"]]],
    [
      "install -m 755 bin/x /usr/local/bin/x",
      [
        ["write", "/usr/local/bin/x"],
        ["write", "/usr/local/bin/x/x"],
      ],
    ],
    [
      "install -d dir1 dir2",
      [
        ["write", "dir1"],
        ["write", "dir2"],
      ],
    ],
    [
      "install -t /opt/bin a b",
      [
        ["write", "/opt/bin"],
        ["write", "/opt/bin/a"],
        ["write", "/opt/bin/b"],
      ],
    ],
    [
      "ln -s target link",
      [
        ["write", "link"],
        ["write", "link/target"],
      ],
    ],
    ["ln -s target link.md", [["write", "link.md"]]],
    ["ln -s ../common/x", [["write", "x"]]],
    [
      "ln -t links a/x b/y",
      [
        ["write", "links/x"],
        ["write", "links/y"],
      ],
    ],
    ["chmod 644 a.md", [["write", "a.md"]]],
    ["chmod -R -w dir", [["write", "dir"]]],
    ["chmod --reference=b.md a.md", [["write", "a.md"]]],
    ["chown -R user:group dir", [["write", "dir"]]],
    ["chgrp staff a.md", [["write", "a.md"]]],
    [
      "rsync -av --exclude node_modules src/ dest/",
      [
        ["write", "dest/"],
        ["write", "dest/*"],
      ],
    ],
    ["rsync -av src/ host:/backup/", []],
    ["curl -o out.html https://x", [["write", "out.html"]]],
    ["curl -sSLo out.html https://x", [["write", "out.html"]]],
    ["curl --output=out.html https://x", [["write", "out.html"]]],
    ["curl --output-dir dl -o a.zip https://x", [["write", "dl/a.zip"]]],
    ["curl -o - https://x", []],
    ["wget -O out.html https://x", [["write", "out.html"]]],
    ["wget --output-document=out.html https://x", [["write", "out.html"]]],
    ["wget -a log.txt https://x", [["append", "log.txt"]]],
    ["patch a.md fix.diff", [["write", "a.md"]]],
    ["patch -p1 -d plan a.md < fix.diff", [["write", "plan/a.md"]]],
    ["patch -p1 < fix.diff", []],
    ["find . -delete", [["delete", "."]]],
    ["find -name x -delete", [["delete", "."]]],
    [
      "find -L a b -type f -exec rm {} +",
      [
        ["delete", "a"],
        ["delete", "b"],
        ["delete", "a/**"],
        ["delete", "b/**"],
      ],
    ],
    [
      "find a -execdir /bin/rm -f {} \\;",
      [
        ["delete", "a"],
        ["delete", "a/**"],
      ],
    ],
    ["find a -name '*.md' -print", []],
    ["find a -fprint list.txt", [["write", "list.txt"]]],
    ["sort -o sorted.txt in.txt", [["write", "sorted.txt"]]],
  ] as const)("%s", (command, expected) => {
    const analysis = analyzeBash(command);
    expect(analysis.error).toBeNull();
    expect(writes(analysis)).toEqual(expected);
  });

  it("names the simple command that makes each write", () => {
    const analysis = analyzeBash("echo ok && sudo tee -a plan/x.md < input");
    expect(analysis.writes).toEqual([
      {
        path: "plan/x.md",
        op: "append",
        command: "sudo tee -a plan/x.md < input",
      },
    ]);
  });

  it("follows a process substitution instead of taking it for a file", () => {
    expect(
      writes(analyzeBash("make | tee >(grep error > errors.log) build.log")),
    ).toEqual([
      ["write", "build.log"],
      ["write", "errors.log"],
    ]);
  });

  it("keeps paths as written, unresolved", () => {
    expect(writes(analyzeBash("rm ../a ~/b ./c/../d"))).toEqual([
      ["delete", "../a"],
      ["delete", "~/b"],
      ["delete", "./c/../d"],
    ]);
  });

  it("reports each write once even when a wrapper repeats it", () => {
    expect(writes(analyzeBash("sudo nohup rm a > log"))).toEqual([
      ["write", "log"],
      ["delete", "a"],
    ]);
  });

  it("replaces find's and xargs' placeholders by what they stand for", () => {
    expect(writes(analyzeBash("ls | xargs -I % cp % backup/"))).toEqual([
      ["write", "backup/"],
      ["write", "backup/$XARGS"],
    ]);
    expect(writes(analyzeBash("find . -name x -exec mv {} old/ \\;"))).toEqual([
      ["move", "./**/x"],
      ["write", "old/"],
      ["write", "old/x"],
    ]);
  });
});

describe("wrappers and nested shell code", () => {
  it.each([
    ["env rm a", ["rm", "a"]],
    ["env -i A=1 B=2 rm a", ["rm", "a"]],
    ["env - rm a", ["rm", "a"]],
    ["env -u HOME rm a", ["rm", "a"]],
    ["sudo rm a", ["rm", "a"]],
    ["sudo -u root -E -- rm a", ["rm", "a"]],
    ["sudo --user=root rm a", ["rm", "a"]],
    ["doas -u root rm a", ["rm", "a"]],
    ["command rm a", ["rm", "a"]],
    ["exec -a name rm a", ["rm", "a"]],
    ["nohup rm a", ["rm", "a"]],
    ["nice rm a", ["rm", "a"]],
    ["nice -n 19 rm a", ["rm", "a"]],
    ["nice --adjustment=5 rm a", ["rm", "a"]],
    ["timeout 5 rm a", ["rm", "a"]],
    ["timeout --signal=KILL -k 1 5s rm a", ["rm", "a"]],
    ["xargs rm a", ["rm", "a"]],
    ["xargs -0 -n 1 -P 4 rm a", ["rm", "a"]],
    ["xargs -I{} rm a", ["rm", "a"]],
    ["setsid rm a", ["rm", "a"]],
    ["stdbuf -oL rm a", ["rm", "a"]],
    ["ionice -c 3 rm a", ["rm", "a"]],
    ["find . -exec rm a \\;", ["rm", "a"]],
    ["bash -c 'rm a'", ["rm", "a"]],
    ["bash -xc 'rm a'", ["rm", "a"]],
    ["bash -o pipefail -c 'rm a'", ["rm", "a"]],
    ["bash --norc -c 'rm a' name arg", ["rm", "a"]],
    ["sh -c -- 'rm a'", ["rm", "a"]],
    ["zsh -c 'rm a'", ["rm", "a"]],
    ["dash -c 'rm a'", ["rm", "a"]],
    ["ksh -c 'rm a'", ["rm", "a"]],
    ["/bin/bash -c 'rm a'", ["rm", "a"]],
    ["script -qc 'rm a' /dev/null", ["rm", "a"]],
    ["su -c 'rm a'", ["rm", "a"]],
    ["su root --command='rm a'", ["rm", "a"]],
    ["eval rm a", ["rm", "a"]],
    ["eval 'rm a'", ["rm", "a"]],
    ["env -S 'rm a'", ["rm", "a"]],
    ["watch -n 1 rm a", ["rm", "a"]],
    ["bash <<'EOF'\nrm a\nEOF", ["rm", "a"]],
    ["sh <<< 'rm a'", ["rm", "a"]],
    ["bash -s <<EOF\nrm a\nEOF", ["rm", "a"]],
  ])("%s runs rm a at depth 1", (command, inner) => {
    const analysis = analyzeBash(command);
    expect(analysis.error).toBeNull();
    expect(analysis.commands[0]?.depth).toBe(0);
    expect(
      analysis.commands.find((c) => c.argv.join(" ") === inner.join(" "))
        ?.depth,
    ).toBe(1);
    expect(writes(analysis)).toContainEqual(["delete", "a"]);
  });

  it.each([
    ["command -v rm"],
    ["command -V rm"],
    ["sudo -l rm a"],
    ["sudo -e a.md"],
    ["env"],
    ["env A=1"],
    ["xargs"],
    ["timeout 5"],
    ["bash script.sh rm a"],
    ["bash <<< 'rm a' script.sh"],
    ["ssh host rm a"],
    ["constructor rm a"],
    ["toString rm a"],
  ])("%s runs nothing else", (command) => {
    const analysis = analyzeBash(command);
    expect(analysis.error).toBeNull();
    expect(analysis.commands).toHaveLength(1);
    expect(analysis.writes).toEqual([]);
  });

  it("keeps the wrapper and gives each unwrapped level one more depth", () => {
    const analysis = analyzeBash("sudo env A=1 timeout 5 rm a");
    expect(analysis.commands.map((c) => [c.depth, c.argv[0], c.env])).toEqual([
      [0, "sudo", {}],
      [1, "env", {}],
      [2, "timeout", { A: "1" }],
      [3, "rm", {}],
    ]);
  });

  it("reads the time keyword as part of the pipeline and the time program as a wrapper", () => {
    expect(
      analyzeBash("time -p rm a").commands.map((c) => [c.depth, c.argv]),
    ).toEqual([[0, ["rm", "a"]]]);
    const external = analyzeBash("command time -o t.txt rm a");
    expect(external.commands.map((c) => [c.depth, c.argv[0]])).toEqual([
      [0, "command"],
      [1, "time"],
      [2, "rm"],
    ]);
    expect(writes(external)).toEqual([
      ["write", "t.txt"],
      ["delete", "a"],
    ]);
  });

  it("counts depth through substitutions and nested shells (eval's text is parsed again, expansions and all)", () => {
    const analysis = analyzeBash(`echo "$(bash -c 'eval "rm $(pwd)/a"')"`);
    expect(analysis.commands.map((c) => [c.depth, c.argv[0]])).toEqual([
      [0, "echo"],
      [1, "bash"],
      [2, "eval"],
      [3, "rm"],
      [4, "pwd"],
      [3, "pwd"],
    ]);
  });

  it("marks commands that get arguments at run time as dynamic", () => {
    const analysis = analyzeBash("git ls-files | xargs rm -f");
    expect(analysis.commands.map((c) => [c.argv.join(" "), c.dynamic])).toEqual(
      [
        ["git ls-files", false],
        ["xargs rm -f", false],
        ["rm -f", true],
      ],
    );
  });
});

describe("words", () => {
  it("unquotes words and keeps expansions as source text", () => {
    const analysis = analyzeBash(
      `printf %s 'a b' "c \\"d\\"" e\\ f $'g\\th' "$HOME/x" \${A:-b} "$(date)" *.md ~/y '~/z'`,
    );
    expect(analysis.commands[0]).toMatchObject({
      argv: [
        "printf",
        "%s",
        "a b",
        'c "d"',
        "e f",
        "g\th",
        "$HOME/x",
        "${A:-b}",
        "$(date)",
        "*.md",
        "~/y",
        "~/z",
      ],
      dynamic: true,
    });
  });

  it.each([
    ["rm a.md", false],
    ["rm 'a$b.md' \"*\"", false],
    ["rm $F", true],
    ['rm "$F"', true],
    ["rm *.md", true],
    ["rm a?.md", true],
    ["rm $(ls)", true],
    ["rm `ls`", true],
    ["rm $((1+1))", true],
    ['echo x > "$OUT"', true],
    ["cat <(ls)", true],
    ["rm {a,b}.md", false],
    ["rm {$A,b}.md", true],
  ])("%s is dynamic: %s", (command, dynamic) => {
    expect(analyzeBash(command).commands[0]?.dynamic).toBe(dynamic);
  });

  it.each([
    ["rm {a,b}.md", ["a.md", "b.md"]],
    ["rm x{1..3}", ["x1", "x2", "x3"]],
    ["rm {a..c}", ["a", "b", "c"]],
    ["rm {01..03}", ["01", "02", "03"]],
    ["rm {3..1}", ["3", "2", "1"]],
    ["rm {1..9..4}", ["1", "5", "9"]],
    ["rm {a,{b,c}}d", ["ad", "bd", "cd"]],
    [
      "rm {plan,docs}/{a,b}.md",
      ["plan/a.md", "plan/b.md", "docs/a.md", "docs/b.md"],
    ],
    ["rm '{a,b}'", ["{a,b}"]],
    ["rm {a}", ["{a}"]],
    ["rm {1..100}", ["{1..100}"]],
  ])("%s expands braces to %j", (command, args) => {
    expect(analyzeBash(command).commands[0]?.argv.slice(1)).toEqual(args);
  });

  it("records env prefixes, redirects and the source text", () => {
    const command = `A=1 B="x y" make -j2 2> err.log <<'EOF'\nbody\nEOF`;
    expect(analyzeBash(command).commands).toEqual([
      {
        argv: ["make", "-j2"],
        env: { A: "1", B: "x y" },
        redirects: [
          { op: ">", target: "err.log", fd: 2 },
          { op: "<<", target: "EOF", fd: null },
        ],
        dynamic: false,
        text: "A=1 B=\"x y\" make -j2 2> err.log <<'EOF'",
        depth: 0,
      },
    ]);
  });
});

describe("here-documents", () => {
  it("never treats a here-document as a write target or its body as commands", () => {
    const analysis = analyzeBash(
      "cat <<'EOF' > plan/a.md\nrm -rf plan\n> state.md\nEOF",
    );
    expect(argvs(analysis)).toEqual([["cat"]]);
    expect(writes(analysis)).toEqual([["write", "plan/a.md"]]);
  });

  it("finds command substitutions in unquoted bodies, which the shell runs", () => {
    const analysis = analyzeBash("cat <<EOF\n$(rm -f a)\nEOF");
    expect(writes(analysis)).toEqual([["delete", "a"]]);
  });

  it("parses a body fed to a shell through a wrapper", () => {
    const analysis = analyzeBash("sudo bash <<'EOF'\ntouch /etc/x\nEOF");
    expect(writes(analysis)).toEqual([["write", "/etc/x"]]);
  });
});

describe("inline code", () => {
  it.each([
    ["python -c 'print(1)'", "python", "print(1)"],
    ["python3 -c 'print(1)'", "python3", "print(1)"],
    ["python3.12 -I -c 'print(1)' arg", "python3.12", "print(1)"],
    ["python3 -Bc 'print(1)'", "python3", "print(1)"],
    ["python3 -W ignore -c 'print(1)'", "python3", "print(1)"],
    ["python3 - <<'EOF'\nprint(1)\nEOF", "python3", "print(1)\n"],
    ["node -e 'x()'", "node", "x()"],
    ["node --eval 'x()'", "node", "x()"],
    ["node --eval='x()'", "node", "x()"],
    ["node -p 'x()'", "node", "x()"],
    ["node -pe 'x()'", "node", "x()"],
    ["node -r dotenv/config -e 'x()'", "node", "x()"],
    ["node <<< 'x()'", "node", "x()"],
    ["deno eval 'x()'", "deno", "x()"],
    ["deno eval --ext=ts 'x()'", "deno", "x()"],
    ["bun -e 'x()'", "bun", "x()"],
    ["perl -e 'x'", "perl", "x"],
    ["perl -E 'say 1'", "perl", "say 1"],
    ["perl -ne 'print' a.txt", "perl", "print"],
    ["ruby -e 'x'", "ruby", "x"],
    ["php -r 'x();'", "php", "x();"],
    ["osascript -e 'beep'", "osascript", "beep"],
    ["sudo -u app python3 -c 'x'", "python3", "x"],
    ["/usr/bin/env python3 -c 'x'", "python3", "x"],
  ])("%s", (command, interpreter, source) => {
    const analysis = analyzeBash(command);
    expect(code(analysis)).toEqual([[interpreter, source]]);
    expect(analysis.inlineCode[0]?.command).toBe(command.split("\n")[0]);
  });

  it("collects every -e of one command", () => {
    expect(code(analyzeBash("perl -e 'a' -e 'b'"))).toEqual([
      ["perl", "a"],
      ["perl", "b"],
    ]);
  });

  it.each([
    ["python3 script.py -c x"],
    ["python3 -m pytest -c x"],
    ["node server.js -e x"],
    ["node --require ./hook.js server.js"],
    ["perl script.pl -e x"],
    ["deno run main.ts"],
    ["python3"],
  ])("%s runs no inline code", (command) => {
    expect(analyzeBash(command).inlineCode).toEqual([]);
  });
});

describe("errors", () => {
  it.each([
    ['echo "unterminated', /unterminated double quote \(line 1, column 6\)/],
    ["echo ok\nif true; then", /line 2, column/],
    ["echo $((1 +", /line 1/],
    ["bash -c 'echo \"x'", /^In nested shell code: .*line 1, column 6/],
  ])("%j fails with %s", (command, message) => {
    const analysis = analyzeBash(command);
    expect(analysis).toEqual({
      commands: [],
      writes: [],
      inlineCode: [],
      scriptFiles: [],
      error: expect.stringMatching(message) as string,
    });
  });

  it("refuses commands over 1 MB", () => {
    const analysis = analyzeBash(`echo ${"a".repeat(1024 * 1024)}`);
    expect(analysis.error).toMatch(/over 1024 KB/);
    expect(analysis.commands).toEqual([]);
  });

  it("refuses command substitutions nested deeper than 8", () => {
    const nest = (n: number): string =>
      n === 0 ? "rm a" : `echo $(${nest(n - 1)})`;
    expect(analyzeBash(nest(8)).error).toBeNull();
    expect(analyzeBash(nest(9)).error).toMatch(/deeper than 8/);
  });

  it("refuses shell code nested deeper than 8", () => {
    const nest = (n: number): string =>
      n === 0 ? "rm a" : `eval ${JSON.stringify(nest(n - 1))}`;
    expect(analyzeBash(nest(8)).error).toBeNull();
    expect(analyzeBash(nest(9)).error).toMatch(/deeper than 8/);
  });

  it("never throws and always returns a well-formed analysis", () => {
    const shellish = fc.array(
      fc.constantFrom(
        "rm",
        "bash",
        "-c",
        "eval",
        "sudo",
        "xargs",
        "find",
        "-exec",
        "{}",
        ";",
        "\\;",
        "'",
        '"',
        "`",
        "$(",
        ")",
        "(",
        "{",
        "}",
        "<<",
        "EOF",
        "\n",
        "<<<",
        ">",
        ">>",
        "&>",
        "2>&1",
        "|",
        "&&",
        "||",
        "&",
        "$x",
        "*",
        "a b",
        "sed",
        "-i",
        "python3",
        "node",
        "-e",
        "if",
        "then",
        "fi",
        "for",
        "do",
        "done",
        "case",
        "esac",
        "=",
        "x=",
        "{a,b}",
        "{1..3}",
        "\\",
        "$'",
        "$((",
        "))",
        "<(",
        " ",
      ),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          shellish.map((parts) => parts.join(" ")),
        ),
        (command) => {
          const analysis = analyzeBash(command);
          if (analysis.error === null) {
            expect(Array.isArray(analysis.commands)).toBe(true);
            for (const c of analysis.commands)
              expect(c.depth).toBeLessThanOrEqual(8);
          } else {
            expect(analysis.commands).toEqual([]);
            expect(typeof analysis.error).toBe("string");
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
