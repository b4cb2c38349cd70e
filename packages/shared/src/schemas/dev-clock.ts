import { z } from 'zod';

// A test rig's clock for timed sends (DEV_CLOCK=1, never with NODE_ENV=production): the
// browser suite moves it on instead of waiting for a scheduled time in wall time.
//   auth POST dev/clock   { offsetMs } → { now } (ISO time the timed-send clock reads now)

export const DEV_CLOCK_MAX_OFFSET_MS = 24 * 60 * 60_000;

export const DevClockInput = z.object({
  offsetMs: z.coerce.number({ error: 'must be a number of milliseconds' }).int()
    .min(0, 'cannot be negative').max(DEV_CLOCK_MAX_OFFSET_MS, 'is more than a day'),
});
export type DevClockInput = z.infer<typeof DevClockInput>;

export const DevClockState = z.object({ now: z.string() });
export type DevClockState = z.infer<typeof DevClockState>;
