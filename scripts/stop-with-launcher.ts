// Stops a long-running command (a server) when npm or npx launched it and the PID a shell got is killed.

/**
 * npm and npx start a command under `sh -c`, which dies of the SIGTERM npm forwards without passing it on: the server
 * would go on serving, orphaned. When npm launched this process (its npm_* variables say so), its parent going away
 * means that stop was asked for, and `stop` is called. Not otherwise: `agent-registry-kit serve &` in a CI step must
 * outlive the step's shell.
 * @example stopWithLauncher((reason) => server.close().then(() => process.exit(0)));
 */
export function stopWithLauncher(stop: (reason: string) => void): void {
  if (process.env.npm_command === undefined && process.env.npm_lifecycle_event === undefined) return;
  const launcher = process.ppid;
  setInterval(() => {
    if (process.ppid !== launcher) stop('its launcher exited');
  }, 500).unref();
}
