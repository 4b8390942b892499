import type { Target, TargetRule } from "./file-commands.ts";
import { findTargets } from "./find-command.ts";
import { PERL, RUBY } from "./interpreters.ts";
import { parseInterpreterArgs } from "./interpreter-args.ts";
import { hasOption, optionValues, splitOptions } from "./split-options.ts";

const STDOUT = "-";

const each = (paths: readonly string[], op: Target["op"]): Target[] =>
  paths.filter((p) => p !== STDOUT).map((path) => ({ path, op }));

function sed(args: readonly string[]): Target[] {
  const words = [...args];
  // BSD sed spells "no backup" as a separate empty suffix: `sed -i '' 's/a/b/' file`.
  const bsd = words.findIndex((w, k) => w === "-i" && words[k + 1] === "");
  if (bsd !== -1) words.splice(bsd + 1, 1);
  const split = splitOptions(words, {
    short: "efl",
    attached: "i",
    long: ["expression", "file", "line-length"],
  });
  if (!hasOption(split, "i", "--in-place")) return [];
  const scripted = hasOption(split, "e", "f", "--expression", "--file");
  return each(scripted ? split.operands : split.operands.slice(1), "write");
}

function inPlaceInterpreter(spec: typeof PERL): TargetRule {
  return (args) => {
    const parsed = parseInterpreterArgs(args, spec);
    if (!parsed.inPlace) return [];
    return each(
      parsed.code.length > 0 ? parsed.operands : parsed.operands.slice(1),
      "write",
    );
  };
}

function curl(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "AbcCdDeEFHKmoPQrtTuUwxXyYz",
    long: [
      "output",
      "output-dir",
      "dump-header",
      "cookie-jar",
      "data",
      "data-raw",
      "data-binary",
      "data-urlencode",
      "header",
      "user",
      "request",
      "user-agent",
      "referer",
      "cookie",
      "form",
      "config",
      "max-time",
      "proxy",
      "range",
      "upload-file",
      "write-out",
      "connect-timeout",
      "retry",
      "cacert",
      "cert",
      "key",
      "url",
    ],
  });
  const [dir] = optionValues(split, "--output-dir");
  const outputs = optionValues(split, "o", "--output").map((p) =>
    dir !== undefined && p !== STDOUT && !p.startsWith("/") ? `${dir}/${p}` : p,
  );
  return [
    ...each(outputs, "write"),
    ...each(
      optionValues(split, "D", "--dump-header", "c", "--cookie-jar"),
      "write",
    ),
  ];
}

function wget(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "OoaPeUtTwQlARDIXBi",
    long: [
      "output-document",
      "output-file",
      "append-output",
      "directory-prefix",
      "execute",
      "user-agent",
      "tries",
      "timeout",
      "wait",
      "quota",
      "level",
      "accept",
      "reject",
      "domains",
      "include-directories",
      "exclude-directories",
      "base",
      "input-file",
      "header",
      "user",
      "password",
      "post-data",
      "post-file",
      "referer",
    ],
  });
  return [
    ...each(
      optionValues(split, "O", "--output-document", "o", "--output-file"),
      "write",
    ),
    ...each(optionValues(split, "a", "--append-output"), "append"),
  ];
}

function patch(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "pioDdBFrVzYg",
    long: [
      "strip",
      "input",
      "output",
      "directory",
      "prefix",
      "ifdef",
      "fuzz",
      "reject-file",
      "version-control",
      "suffix",
      "basename-prefix",
      "get",
      "quoting-style",
    ],
  });
  const [dir] = optionValues(split, "d", "--directory");
  const file = split.operands[0];
  const files =
    file === undefined
      ? []
      : [dir !== undefined && !file.startsWith("/") ? `${dir}/${file}` : file];
  return [
    ...each(files, "write"),
    ...each(optionValues(split, "o", "--output"), "write"),
  ];
}

function sort(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "okStT",
    long: [
      "output",
      "key",
      "field-separator",
      "buffer-size",
      "temporary-directory",
      "parallel",
    ],
  });
  return each(optionValues(split, "o", "--output"), "write");
}

function gnuTime(args: readonly string[]): Target[] {
  const split = splitOptions(args, {
    short: "fo",
    long: ["format", "output"],
    stopAtOperand: true,
  });
  const op = hasOption(split, "a", "--append") ? "append" : "write";
  return each(optionValues(split, "o", "--output"), op);
}

/** Programs with their own options that name files they write. */
export const TOOL_COMMANDS: Readonly<Record<string, TargetRule>> = {
  sed,
  gsed: sed,
  perl: inPlaceInterpreter(PERL),
  ruby: inPlaceInterpreter(RUBY),
  curl,
  wget,
  patch,
  find: findTargets,
  sort,
  time: gnuTime,
};
