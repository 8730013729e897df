// The one logger of the fake backend: every message a person reads starts with the same prefix.

export const LOG_PREFIX = 'agent-registry-kit:';

/** Where the fake's messages go; inject a silent one in tests. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * The console logger: info to stdout, warnings and errors to stderr.
 * @example consoleLogger.info('fake backend listening on http://127.0.0.1:4010');
 */
export const consoleLogger: Logger = {
  info: (message) => console.log(`${LOG_PREFIX} ${message}`),
  warn: (message) => console.warn(`${LOG_PREFIX} ${message}`),
  error: (message) => console.error(`${LOG_PREFIX} ${message}`),
};

/** A logger that drops everything (tests that provoke errors on purpose). */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
