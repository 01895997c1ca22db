import type { Logger } from '@crew/platform';

export interface ScheduleCompletionDeps {
  /** Completes the schedule if none of its items is open (scheduleLifecycleRepo.completeIfSettled). */
  check(scheduleId: string): Promise<void>;
  logger: Logger;
  /** How long a schedule's check waits for more of its items to settle. */
  delayMs: number;
}

interface Due {
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  /** An item settled while the check ran: the check may not have seen it, so it runs once more. */
  again: boolean;
}

/**
 * Whether a schedule is complete once one of its items settled: checked at most once per `delayMs` per
 * schedule, however many of its items settle meanwhile. Checked after every settle, at 300 bookings a
 * second, the check (a statement Postgres plans each time) was a quarter of Postgres's work in the booking
 * phase. Each check starts after the commits of the settles it answers; a settle that commits while a check
 * runs gets one more. A check lost with a dead process is made by the runtime's periodic sweep.
 */
export class ScheduleCompletion {
  private readonly due = new Map<string, Due>();
  private closed = false;

  constructor(private readonly deps: ScheduleCompletionDeps) {}

  /** Called after the commit that settled one of the schedule's items. */
  settled(scheduleId: string): void {
    const due = this.due.get(scheduleId);
    if (!due) {
      const fresh: Due = { timer: null, running: null, again: false };
      this.due.set(scheduleId, fresh);
      this.arm(scheduleId, fresh);
    } else if (!due.timer) {
      due.again = true;
    }
    // With a timer armed, the check it starts comes after this commit.
  }

  private arm(scheduleId: string, due: Due): void {
    due.timer = setTimeout(() => this.run(scheduleId, due), this.closed ? 0 : this.deps.delayMs);
  }

  private run(scheduleId: string, due: Due): void {
    due.timer = null;
    due.running = this.deps
      .check(scheduleId)
      .catch((err: unknown) =>
        this.deps.logger.warn(
          { err, schedule_id: scheduleId },
          'schedule completion check failed; the periodic sweep makes it',
        ),
      )
      .then(() => {
        due.running = null;
        if (!due.again) return void this.due.delete(scheduleId);
        due.again = false;
        this.arm(scheduleId, due);
      });
  }

  /** Runs the checks still waiting at once, and waits for every check to end. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.due.size) {
      for (const [scheduleId, due] of this.due)
        if (due.timer) {
          clearTimeout(due.timer);
          this.run(scheduleId, due);
        }
      await Promise.all([...this.due.values()].flatMap((d) => (d.running ? [d.running] : [])));
    }
  }
}
