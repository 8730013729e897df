// Whether a server that was told to stop really stopped: the process tests of the CLI and of the packed package share it.

/**
 * Polls `url` until nothing answers, for up to `attempts` tries 100 ms apart; true once nothing answers.
 * @example expect(await stopsAnswering(`${url}/__mock/health`)).toBe(true);
 */
export async function stopsAnswering(url: string, attempts = 50): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const answered = await fetch(url).then(
      () => true,
      () => false,
    );
    if (!answered) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
