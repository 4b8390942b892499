import {
  chmodSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { describe, expect, it, onTestFinished } from "vitest";
import { writeTextAtomic } from "../../src/adapters/atomic-write.ts";
import { createTempProject } from "../helpers/temp-project.ts";

describe("writeTextAtomic", () => {
  it("replaces the content of an existing file", () => {
    const p = createTempProject({ "state.md": "old content that is longer\n" });

    writeTextAtomic(p.path("state.md"), "new\n");

    expect(p.read("state.md")).toBe("new\n");
  });

  it("creates the file when it is absent", () => {
    const p = createTempProject();

    writeTextAtomic(p.path("state.md"), "created\n");

    expect(p.read("state.md")).toBe("created\n");
    expect(statSync(p.path("state.md")).isFile()).toBe(true);
  });

  it.each(["600", "644", "664", "666", "700", "755", "777"])(
    "keeps mode 0o%s whatever the umask",
    (octal) => {
      const mode = parseInt(octal, 8);
      const previous = process.umask(0o022);
      onTestFinished(() => void process.umask(previous));
      const p = createTempProject({ "secret.json": "{}" });
      chmodSync(p.path("secret.json"), mode);

      writeTextAtomic(p.path("secret.json"), '{"token":"x"}');

      expect(statSync(p.path("secret.json")).mode & 0o7777).toBe(mode);
      expect(p.read("secret.json")).toBe('{"token":"x"}');
    },
  );

  it("leaves no temp file in the directory", () => {
    const p = createTempProject({ "dir/state.md": "0" });

    for (let i = 1; i <= 5; i++)
      writeTextAtomic(p.path("dir/state.md"), String(i));
    writeTextAtomic(p.path("dir/other.md"), "x");

    expect(readdirSync(p.path("dir")).sort()).toEqual(["other.md", "state.md"]);
    expect(p.read("dir/state.md")).toBe("5");
  });

  it("writes text with multi-byte characters exactly", () => {
    const p = createTempProject({ "state.md": "" });
    const text = "\uFEFF# 状態\r\nactive: plan/playbook-ログイン.md 🚀\r\n";

    writeTextAtomic(p.path("state.md"), text);

    expect(readFileSync(p.path("state.md"), "utf8")).toBe(text);
  });

  it("throws and leaves no temp file when the target is a directory", () => {
    const p = createTempProject();
    mkdirSync(p.path("dir/state.md"), { recursive: true });
    writeFileSync(p.path("dir/state.md/inside.txt"), "kept");

    expect(() => writeTextAtomic(p.path("dir/state.md"), "x")).toThrow();

    expect(readdirSync(p.path("dir"))).toEqual(["state.md"]);
    expect(statSync(p.path("dir/state.md")).isDirectory()).toBe(true);
    expect(p.read("dir/state.md/inside.txt")).toBe("kept");
  });

  it("throws and leaves no temp file when the target is an empty directory", () => {
    const p = createTempProject();
    mkdirSync(p.path("dir/state.md"), { recursive: true });

    expect(() => writeTextAtomic(p.path("dir/state.md"), "x")).toThrow();

    expect(readdirSync(p.path("dir"))).toEqual(["state.md"]);
    expect(readdirSync(p.path("dir/state.md"))).toEqual([]);
  });
});
