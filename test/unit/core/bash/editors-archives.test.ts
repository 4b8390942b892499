import { describe, it } from "vitest";
import { expectWrites } from "../../../helpers/bash-writes.ts";

describe("in-place editors", () => {
  it.each([
    [
      "gawk -i inplace '{gsub(/a/,\"b\")}1' plan/a.md plan/b.md",
      [
        ["write", "plan/a.md"],
        ["write", "plan/b.md"],
      ],
    ],
    [
      "awk -i inplace -v x=1 -f prog.awk n=2 plan/a.md",
      [["write", "plan/a.md"]],
    ],
    ["awk -iinplace 1 a.md", [["write", "a.md"]]],
    ["gawk --include=inplace 1 a.md", [["write", "a.md"]]],
    ["awk '{print}' plan/a.md", []],
    ["awk -i other 1 a.md", []],
    ["ed -s plan/a.md <<< $',s/a/b/\\nw\\nq'", [["write", "plan/a.md"]]],
    ["ed -p '> ' plan/a.md", [["write", "plan/a.md"]]],
    ["ed '!ls'", []],
    ["ex -sc '%s/a/b/|x' plan/a.md", [["write", "plan/a.md"]]],
    ["vim -es +'%s/a/b/' +wq plan/a.md", [["write", "plan/a.md"]]],
    ["vim -c wq plan/a.md", [["write", "plan/a.md"]]],
    ["vim +wq plan/a.md", [["write", "plan/a.md"]]],
    ["nvim -E -s plan/a.md < cmds", [["write", "plan/a.md"]]],
    ["vi -e plan/a.md", [["write", "plan/a.md"]]],
    ["vim -s keys.txt plan/a.md", [["write", "plan/a.md"]]],
    ["vim -w keys.log plan/a.md", [["write", "keys.log"]]],
    ["vim plan/a.md", []],
    ["vim -R plan/a.md", []],
    ["perl -pi -e s/a/b/ plan/a.md", [["write", "plan/a.md"]]],
  ] as const)("%s", expectWrites);
});

describe("archive extraction", () => {
  it.each([
    ["tar -xzf a.tgz -C plan", [["write", "plan/**"]]],
    ["tar xzf a.tgz", [["write", "./**"]]],
    ["tar xCf out a.tar", [["write", "out/**"]]],
    ["tar --extract --file=a.tar --directory=out/", [["write", "out/**"]]],
    ["tar -C out -xf a.tar", [["write", "out/**"]]],
    ["tar -x -f a.tar --directory out plan/a.md", [["write", "out/**"]]],
    ["tar -czf plan.tgz plan", [["write", "plan.tgz"]]],
    ["tar -czf - plan > plan.tgz", [["write", "plan.tgz"]]],
    ["tar -tzf a.tgz", []],
    ["unzip a.zip -d plan", [["write", "plan/**"]]],
    ["unzip -o a.zip", [["write", "./**"]]],
    ["unzip -qd out a.zip", [["write", "out/**"]]],
    ["unzip -dout a.zip", [["write", "out/**"]]],
    ["unzip -l a.zip", []],
    ["unzip -p a.zip x > x", [["write", "x"]]],
    ["cpio -idv < a.cpio", [["write", "./**"]]],
    ["cpio -i -D out < a.cpio", [["write", "out/**"]]],
    ["cpio --extract --directory=out < a.cpio", [["write", "out/**"]]],
    ["find . | cpio -pdm /backup", [["write", "/backup/**"]]],
    ["cpio -o > a.cpio", [["write", "a.cpio"]]],
  ] as const)("%s", expectWrites);
});
