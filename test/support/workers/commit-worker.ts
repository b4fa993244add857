import { openStore } from '../../../src/store/store.js';
import { addDays } from '../../../src/core/local-time.js';
import { createContext } from '../../../src/usecases/context.js';
import { FrontDesk, type HoldInput } from '../../../src/usecases/front-desk.js';
import { bundledOfficeData, DEMO_NOW } from '../office.js';

/**
 * Writes holds until it is killed or runs out of slots: opens the SQLite file, plans distinct open
 * slots up front, then places them one by one, printing `{"committed":"APT-…"}` only after
 * `placeHold` has returned, exactly when a caller would have been told. Argument: the database path.
 */
const SERVICE = 'consultation';
/** Days ahead to plan: far more holds than the parent waits for, so it kills mid-stream. */
const PLAN_DAYS = 30;

const print = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

/** Every staff member's on-the-hour starts: 30-minute consultations an hour apart never overlap. */
async function plannedHolds(desk: FrontDesk, firstDate: string): Promise<HoldInput[]> {
  const holds: HoldInput[] = [];
  for (let day = 0; day < PLAN_DAYS; day++) {
    const date = addDays(firstDate, day);
    const open = await desk.checkAvailability({ date, service: SERVICE });
    if (!open.ok) continue;
    for (const slot of open.value.slots.filter((s) => s.start_time.endsWith(':00'))) {
      for (const staffId of slot.staff_ids) {
        holds.push({
          client_name: `Caller ${holds.length + 1}`,
          contact: `caller${holds.length + 1}@example.com`,
          service: SERVICE,
          date,
          start_time: slot.start_time,
          staff_id: staffId,
        });
      }
    }
  }
  return holds;
}

const [path, firstDate] = process.argv.slice(2);
const store = await openStore({ dialect: 'sqlite', path: path! });
const desk = new FrontDesk(createContext(await bundledOfficeData(), store, () => DEMO_NOW));
const holds = await plannedHolds(desk, firstDate!);
print({ planned: holds.length });
for (const hold of holds) {
  const result = await desk.placeHold(`user:${hold.contact}`, hold);
  print(result.ok ? { committed: result.value.appointment_id } : { refused: result.error.code });
}
await store.close();
