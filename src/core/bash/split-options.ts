export interface OptionSpec {
  /** Short options whose value is the rest of the cluster or the next word (`-o out`, `-oout`). */
  short?: string;
  /** Short options whose value can only be attached (`sed -i.bak`, `xargs -i{}`). */
  attached?: string;
  /** Long options, without dashes, whose value may be the next word (`--output out`). */
  long?: readonly string[];
  /** Stop at the first operand like POSIX utilities and command wrappers; GNU tools read options anywhere. */
  stopAtOperand?: boolean;
}

export interface ParsedOption {
  /** `o` for `-o`, `--output` for `--output`. */
  name: string;
  value: string | null;
}

export interface SplitArgs {
  options: ParsedOption[];
  /** Operands in order; with `stopAtOperand`, the first operand and every word after it. */
  operands: string[];
}

/** Splits a command's arguments (argv without the command name) into options and operands, getopt-style. */
export function splitOptions(
  args: readonly string[],
  spec: OptionSpec = {},
): SplitArgs {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg : arg.slice(0, eq);
      let value = eq === -1 ? null : arg.slice(eq + 1);
      if (
        value === null &&
        spec.long?.includes(name.slice(2)) &&
        i + 1 < args.length
      )
        value = args[++i]!;
      options.push({ name, value });
      continue;
    }
    if (arg.length < 2 || !arg.startsWith("-")) {
      if (spec.stopAtOperand) {
        operands.push(...args.slice(i));
        break;
      }
      operands.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const name = arg[j]!;
      const rest = arg.slice(j + 1);
      if (spec.attached?.includes(name)) {
        options.push({ name, value: rest === "" ? null : rest });
        break;
      }
      if (spec.short?.includes(name)) {
        const value =
          rest !== "" ? rest : i + 1 < args.length ? args[++i]! : null;
        options.push({ name, value });
        break;
      }
      options.push({ name, value: null });
    }
  }
  return { options, operands };
}

/** Whether any of the named options was given (`"i"`, `"--in-place"`). */
export function hasOption(split: SplitArgs, ...names: string[]): boolean {
  return split.options.some((o) => names.includes(o.name));
}

/** The values given to the named options, in order. */
export function optionValues(split: SplitArgs, ...names: string[]): string[] {
  const values: string[] = [];
  for (const o of split.options)
    if (names.includes(o.name) && o.value !== null) values.push(o.value);
  return values;
}
