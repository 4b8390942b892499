import type { InterpreterSpec } from "./interpreter-args.ts";

const PYTHON: InterpreterSpec = {
  code: "c",
  value: "WXQ",
  attached: "",
  stop: "m",
};
export const PERL: InterpreterSpec = {
  code: "eE",
  value: "",
  attached: "iIMmlC0dDxVF",
};
export const RUBY: InterpreterSpec = {
  code: "e",
  value: "rICE",
  attached: "i0FKTWx",
};
const PHP: InterpreterSpec = {
  code: "rBRE",
  value: "cdfztS",
  attached: "",
};
const OSASCRIPT: InterpreterSpec = {
  code: "e",
  value: "ls",
  attached: "",
};
const NODE: InterpreterSpec = {
  code: "ep",
  value: "rC",
  attached: "",
  longCode: ["--eval", "--print"],
  longValue: [
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--conditions",
    "--input-type",
    "--env-file",
    "--title",
  ],
};

/** The option rules of an interpreter that can run code given on the command line, by program name. */
export function interpreterSpec(name: string): InterpreterSpec | null {
  if (/^(?:python|pypy)\d*(?:\.\d+)*$/.test(name)) return PYTHON;
  if (/^perl\d*(?:\.\d+)*$/.test(name)) return PERL;
  if (/^php\d*(?:\.\d+)*$/.test(name)) return PHP;
  if (name === "node" || name === "nodejs" || name === "bun") return NODE;
  if (name === "ruby") return RUBY;
  if (name === "osascript") return OSASCRIPT;
  return null;
}
