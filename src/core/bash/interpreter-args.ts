export interface InterpreterArgs {
  /** Inline programs (`-e CODE`, `-c CODE`), in order. */
  code: string[];
  /** Whether the program comes from standard input: no code, no script file, or the script `-`. */
  stdin: boolean;
  /** perl/ruby `-i[ext]`: the operands are edited in place. */
  inPlace: boolean;
  /** Words after the options: the script and its arguments, or the input files when code is inline. */
  operands: string[];
}

export interface InterpreterSpec {
  /** Option letters whose value is inline code. */
  code: string;
  /** Option letters whose value is the rest of the cluster or the next word. */
  value: string;
  /** Option letters whose value can only be attached (`-i.bak`, `-MList::Util`). */
  attached: string;
  /** Option letters after which no option is read and the rest is not inline code (`python -m mod`). */
  stop?: string;
  /** Long options (with dashes) whose value is inline code. */
  longCode?: readonly string[];
  /** Long options (with dashes) whose value is the next word. */
  longValue?: readonly string[];
}

/**
 * Reads an interpreter's options the way perl, ruby and python do: option clusters up to the first operand, with
 * inline code taken from the rest of the cluster or the next word.
 */
export function parseInterpreterArgs(
  args: readonly string[],
  spec: InterpreterSpec,
): InterpreterArgs {
  const out: InterpreterArgs = {
    code: [],
    stdin: false,
    inPlace: false,
    operands: [],
  };
  let i = 0;
  let stopped = false;
  for (; i < args.length && !stopped; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) break;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg : arg.slice(0, eq);
      const inline = eq === -1 ? null : arg.slice(eq + 1);
      if (spec.longCode?.includes(name))
        out.code.push(inline ?? args[++i] ?? "");
      else if (inline === null && spec.longValue?.includes(name)) i++;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      const rest = arg.slice(j + 1);
      if (spec.code.includes(letter)) {
        out.code.push(rest !== "" ? rest : (args[++i] ?? ""));
        break;
      }
      if (spec.value.includes(letter)) {
        if (rest === "") i++;
        break;
      }
      if (letter === "i" && spec.attached.includes("i")) out.inPlace = true;
      if (spec.attached.includes(letter)) break;
      if (spec.stop?.includes(letter)) {
        stopped = true;
        break;
      }
    }
  }
  out.operands = stopped ? [] : args.slice(i);
  out.stdin =
    !stopped &&
    out.code.length === 0 &&
    (out.operands.length === 0 || out.operands[0] === "-");
  return out;
}
