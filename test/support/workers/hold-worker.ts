import { createInterface } from 'node:readline';
import { openStore } from '../../../src/store/store.js';
import { createContext } from '../../../src/usecases/context.js';
import { FrontDesk, type HoldInput } from '../../../src/usecases/front-desk.js';
import { bundledOfficeData, DEMO_NOW } from '../office.js';

/**
 * Races for one slot from its own process: opens the SQLite file, says {"ready":true}, waits for
 * "go" on stdin, then fires all its attempts at once and prints one JSON line per result.
 * Arguments: the database path and a JSON plan `{ subject, attempts, hold, start_times }`.
 */
interface Plan {
  readonly subject: string;
  readonly attempts: number;
  readonly hold: HoldInput;
  readonly start_times: readonly string[];
}

/** A worker the parent forgot must still end: it gives up waiting for "go" after this long. */
const GO_TIMEOUT_MS = 15_000;

const print = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

function waitForGo(): Promise<boolean> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    const timer = setTimeout(() => lines.close(), GO_TIMEOUT_MS);
    let go = false;
    lines.on('line', (line) => {
      go = line.trim() === 'go';
      lines.close();
    });
    lines.on('close', () => {
      clearTimeout(timer);
      // Closing the reader only pauses stdin; an open pipe would keep this process alive.
      process.stdin.destroy();
      resolve(go);
    });
  });
}

const [path, planJson] = process.argv.slice(2);
const plan = JSON.parse(planJson!) as Plan;
const store = await openStore({ dialect: 'sqlite', path: path! });
const desk = new FrontDesk(createContext(await bundledOfficeData(), store, () => DEMO_NOW));
// Warm up off the clock, so that after "go" every worker goes straight to its writes.
await desk.checkAvailability({ date: plan.hold.date, service: plan.hold.service });
print({ ready: true });

if (await waitForGo()) {
  await Promise.all(
    Array.from({ length: plan.attempts }, async (_, attempt) => {
      const start_time = plan.start_times[attempt % plan.start_times.length]!;
      try {
        const result = await desk.placeHold(`${plan.subject}-${attempt}`, { ...plan.hold, start_time });
        print(
          result.ok
            ? { attempt, ok: true, appointment_id: result.value.appointment_id }
            : { attempt, ok: false, code: result.error.code },
        );
      } catch (error) {
        print({ attempt, thrown: error instanceof Error ? error.message : String(error) });
      }
    }),
  );
}
await store.close();
