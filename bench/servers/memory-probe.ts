/**
 * Preloaded (with `--expose-gc`) into the server of the leak check only: on SIGUSR2 it collects all
 * garbage and prints the memory figures, so the benchmark compares what is live, not whatever size
 * the heap happens to have between two collections.
 */
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.stdout.write(`memory ${JSON.stringify({ rss, heapUsed })}\n`);
});
