// Runs async jobs at most `width` at a time: the self-check starts one contract run per broken server, two at a time.

/**
 * Maps `items` through `job`, keeping at most `width` jobs in flight; results keep the input order.
 * @example const reports = await runPool(servers, 2, (server) => runContract(server));
 */
export async function runPool<T, R>(items: readonly T[], width: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await job(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}
