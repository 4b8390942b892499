import { inFolder } from "./command-name.ts";
import type { Target, TargetRule } from "./file-commands.ts";
import { hasOption, optionValues, splitOptions } from "./split-options.ts";

/** tar letters whose value is the next word, in old-style clusters (`tar xzf a.tgz`) and as options. */
const TAR_VALUES = "fCbTXgHKLNVI";

/** `tar -x [-C DIR]` fills DIR (`.` by default); `tar -c -f OUT` writes the archive OUT. */
function tar(args: readonly string[]): Target[] {
  const words = [...args];
  // Old style: the first word is a cluster of letters without a dash, their values follow in order.
  if (words[0] !== undefined && /^[a-zA-Z]+$/.test(words[0])) {
    const letters = words.shift()!;
    const values = words.splice(
      0,
      [...letters].filter((l) => TAR_VALUES.includes(l)).length,
    );
    let k = 0;
    const options = [...letters].map((l) =>
      TAR_VALUES.includes(l) ? [`-${l}`, values[k++] ?? ""] : [`-${l}`],
    );
    words.unshift(...options.flat());
  }
  const split = splitOptions(words, {
    short: TAR_VALUES,
    long: [
      "file",
      "directory",
      "files-from",
      "exclude-from",
      "blocking-factor",
      "tape-length",
      "newer",
      "volno-file",
      "use-compress-program",
    ],
  });
  const [directory] = optionValues(split, "C", "--directory").slice(-1);
  const archives = optionValues(split, "f", "--file").filter((f) => f !== "-");
  if (hasOption(split, "x", "--extract", "--get"))
    return [{ path: inFolder(directory ?? ".", "**"), op: "write" }];
  if (hasOption(split, "c", "r", "u", "--create", "--append", "--update"))
    return archives.map((path) => ({ path, op: "write" }));
  return [];
}

/** `unzip ARCHIVE [-d DIR]` fills DIR; listing, testing and piping (`-l`, `-t`, `-v`, `-z`, `-p`) write nothing. */
function unzip(args: readonly string[]): Target[] {
  let directory = ".";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!/^-[a-zA-Z]/.test(arg)) continue;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if ("ltvzpZ".includes(letter)) return [];
      if (letter !== "d") continue;
      directory = j + 1 < arg.length ? arg.slice(j + 1) : (args[++i] ?? ".");
      break;
    }
  }
  return [{ path: inFolder(directory, "**"), op: "write" }];
}

/** `cpio -i` extracts into the current folder (or `-D DIR`); `cpio -p DIR` copies into DIR. */
function cpio(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "DEFHIMORs",
    long: [
      "directory",
      "pattern-file",
      "file",
      "format",
      "message",
      "owner",
      "block-size",
    ],
  });
  const [directory] = optionValues(split, "D", "--directory");
  if (hasOption(split, "i", "--extract"))
    return [{ path: inFolder(directory ?? ".", "**"), op: "write" }];
  if (hasOption(split, "p", "--pass-through"))
    return split.operands
      .slice(0, 1)
      .map((dir) => ({ path: inFolder(dir, "**"), op: "write" }));
  return [];
}

/** Archivers that unpack files into a folder. */
export const ARCHIVE_COMMANDS: Readonly<Record<string, TargetRule>> = {
  tar,
  gtar: tar,
  bsdtar: tar,
  unzip,
  cpio,
};
