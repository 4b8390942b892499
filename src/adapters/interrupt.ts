/** Ctrl-C and SIGTERM, seen by a command that must end what it started before it exits. */
export interface Interrupt {
  /** Aborted on the first SIGINT or SIGTERM, with the signal's name as its reason. */
  signal: AbortSignal;
  /** Gives the signals back to Node's defaults. */
  stop: () => void;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * Turns the first SIGINT or SIGTERM into an aborted signal, so the command kills its child processes, cleans up and
 * exits with the conventional code itself. A second one exits at once (130 or 143): a user who presses Ctrl-C twice
 * does not wait for the clean-up, which `process.on("exit")` handlers still do in part.
 */
export function watchInterrupt(): Interrupt {
  const controller = new AbortController();
  const handlers = SIGNALS.map((name) => {
    const handler = () => {
      if (controller.signal.aborted)
        process.exit(name === "SIGINT" ? 130 : 143);
      controller.abort(name);
    };
    process.on(name, handler);
    return { name, handler };
  });
  return {
    signal: controller.signal,
    stop: () => {
      for (const { name, handler } of handlers) process.off(name, handler);
    },
  };
}
