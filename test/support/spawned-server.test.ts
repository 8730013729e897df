// spawnServer with a child that fails before it is ready: the child's own message comes back, and nothing keeps reading.
import { describe, expect, it } from 'vitest';
import { spawnServer } from './spawned-server.ts';

describe('spawnServer', () => {
  it("rejects with the child's own error when it exits before its ready line", async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown): void => {
      uncaught.push(error);
    };
    process.on('uncaughtException', record);
    try {
      const failing = spawnServer({
        name: 'failing',
        args: ['-e', "console.error('the real cause'); process.exit(3)"],
        ready: /never printed/,
      });
      await expect(failing).rejects.toThrow(/exited \(code 3, signal null\) before it was ready[\s\S]*the real cause/);
      // Give the 5 ms poll a chance to fire after the log was closed: a read of the closed log would throw here.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });

  it('hands over the listening server and its output', async () => {
    const server = await spawnServer({
      name: 'echo',
      args: ['-e', "console.log('ready on 1234'); setInterval(() => {}, 1000)"],
      ready: /ready on (\d+)/,
    });
    try {
      expect(server.port).toBe(1234);
      expect(server.output()).toContain('ready on 1234');
    } finally {
      await server.stop();
    }
    expect(server.output()).toContain('ready on 1234');
  });
});
