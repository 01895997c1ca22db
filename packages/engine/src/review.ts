import {
  MAX_REVIEW_MINUTES,
  type ActionSubtype,
  type ActionType,
  type Disposition,
  type Priority,
  type ValidationIssue,
} from '@crew/contracts';
import { instantOf, isoInstant } from './time';

/*
 * The review queue a travel desk works: which action items wait for a person (review_status), by when a
 * person's action still helps (due_by), and when the desk is warned that one is about to run out of time
 * (action_item.due_soon). The spec's disposition set stays as it is; these are additive fields.
 */

/** The fixed set of actions a person can take on an action item. */
export const REVIEW_ACTIONS = [
  'BOOK_FLIGHT_OPTION',
  'BOOK_HOTEL',
  'ACCEPT_PRICE',
  'ACCEPT_CHANGE',
  'RECORD_PNR',
  'RETRY',
  'CANCEL_BOOKING',
  'DISMISS',
  'ASSIGN',
] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export function isReviewAction(value: unknown): value is ReviewAction {
  return typeof value === 'string' && (REVIEW_ACTIONS as readonly string[]).includes(value);
}

export const REVIEW_STATUSES = ['OPEN', 'RESOLVED', 'DISMISSED'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** The priorities with a review target (rule 13); P4 waits for the next batch window and has none. */
export const TARGET_PRIORITIES = ['P1', 'P2', 'P3'] as const;
export type TargetPriority = (typeof TARGET_PRIORITIES)[number];

export interface ReviewSettings {
  /** How long before the event (check-in, departure) a person's action must be done. */
  lead_time_minutes: number;
  /** How long before due_by the desk is warned (action_item.due_soon). */
  due_soon_minutes: number;
  /** Rule 13's review targets, minutes from the item's creation. A priority without one has no target. */
  priority_targets_minutes: Partial<Record<TargetPriority, number>>;
}

export const DEFAULT_REVIEW_SETTINGS: Readonly<ReviewSettings> = Object.freeze({
  lead_time_minutes: 240,
  due_soon_minutes: 30,
  priority_targets_minutes: Object.freeze({ P1: 5, P2: 30, P3: 60 }),
});

/** A change to the review settings: any subset; an omitted field (or target) keeps its value. */
export interface ReviewSettingsPatch {
  lead_time_minutes?: unknown;
  due_soon_minutes?: unknown;
  priority_targets_minutes?: unknown;
}

export type ReviewSettingsMerge = { ok: true; settings: ReviewSettings } | { ok: false; issues: ValidationIssue[] };

const isMinutes = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_REVIEW_MINUTES;
const MINUTES_ISSUE = `must be an integer number of minutes, 0 to ${MAX_REVIEW_MINUTES} (366 days)`;

/**
 * The stored settings with a patch applied. Minutes are integers ≥ 0; the targets are keyed P1..P3 and are
 * merged per key (an omitted priority keeps its target). Every fault is reported, and nothing is merged then.
 */
export function mergeReviewSettings(
  stored: ReviewSettings | null | undefined,
  patch: ReviewSettingsPatch | null | undefined,
): ReviewSettingsMerge {
  const base = stored ?? DEFAULT_REVIEW_SETTINGS;
  const p = patch ?? {};
  const issues: ValidationIssue[] = [];
  for (const field of ['lead_time_minutes', 'due_soon_minutes'] as const) {
    if (p[field] !== undefined && !isMinutes(p[field])) issues.push({ field: `/${field}`, issue: MINUTES_ISSUE });
  }
  const targets: Partial<Record<TargetPriority, number>> = { ...base.priority_targets_minutes };
  const t = p.priority_targets_minutes;
  if (t !== undefined) {
    if (t === null || typeof t !== 'object' || Array.isArray(t)) {
      issues.push({ field: '/priority_targets_minutes', issue: 'must be an object keyed P1, P2, P3' });
    } else {
      for (const [key, value] of Object.entries(t)) {
        if (!(TARGET_PRIORITIES as readonly string[]).includes(key))
          issues.push({
            field: `/priority_targets_minutes/${key}`,
            issue: 'is not a priority with a review target (P1, P2, P3)',
          });
        else if (!isMinutes(value)) issues.push({ field: `/priority_targets_minutes/${key}`, issue: MINUTES_ISSUE });
        else targets[key as TargetPriority] = value;
      }
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    settings: {
      lead_time_minutes: (p.lead_time_minutes as number | undefined) ?? base.lead_time_minutes,
      due_soon_minutes: (p.due_soon_minutes as number | undefined) ?? base.due_soon_minutes,
      priority_targets_minutes: targets,
    },
  };
}

/** The facts of an action item the review rules read: the spec's fields and the additive review fields. */
export interface ReviewItem {
  type: ActionType;
  subtype: ActionSubtype;
  classification: string;
  priority: Priority;
  disposition: Disposition | null;
  recommended_action: string | null;
  booking_id: string | null;
  /** ISO instant the item was created. */
  created_at: string;
  /** When the item last entered its disposition (null: unknown, taken as before any person's action). */
  disposition_at?: string | null;
  /** The review status as last written (null or absent: none yet). */
  review_status?: ReviewStatus | null;
  action_taken: ReviewAction | null;
  action_taken_at: string | null;
  action_taken_by: string | null;
  assignee: string | null;
  /** The later roster's item that took over this item's booking (null or absent: none did). */
  superseded_by?: string | null;
  /**
   * A deadline the item is due by instead of the review rules' bounds (a roster cancellation a person decides
   * on: the hotel's cancellation deadline); null or absent: none.
   */
  review_deadline?: string | null;
}

/** Recommendations that ask a person to act (the engine's and the airline-change rules'). */
const PERSON_RECOMMENDATIONS = new Set(['BOOK_MANUALLY', 'BOOK_IN_OWN_SYSTEM', 'ACCEPT_CHANGE']);

/**
 * Whether the item, as it stands, waits for a person (spec 2.3): PENDING_REVIEW ("human action needed"),
 * FAILED ("retry endpoints apply": automatic retries may still run, but a person may retry or book otherwise
 * now, and after the last one only a person can), or a recommended action for a person on an item the engine
 * has not settled (no booking made or cancelled yet).
 */
export function waitsForPerson(item: Pick<ReviewItem, 'disposition' | 'recommended_action'>): boolean {
  if (item.disposition === 'PENDING_REVIEW' || item.disposition === 'FAILED') return true;
  const settled = item.disposition === 'AUTO_BOOKED' || item.disposition === 'AUTO_CANCELLED';
  return !settled && item.recommended_action !== null && PERSON_RECOMMENDATIONS.has(item.recommended_action);
}

/** A person's action that settles the item (ASSIGN only says who works it). */
function actedOn(item: Pick<ReviewItem, 'action_taken'>): boolean {
  return item.action_taken !== null && item.action_taken !== 'ASSIGN';
}

/** Back with a person after their action (say a chosen flight option had expired): its disposition is newer. */
function reopened(item: ReviewItem): boolean {
  if (!item.disposition_at || !item.action_taken_at) return false;
  return instantOf(item.disposition_at) > instantOf(item.action_taken_at);
}

/**
 * The item's review status.
 *
 * - OPEN: the item waits for a person (waitsForPerson: PENDING_REVIEW, FAILED, or a BOOK_MANUALLY /
 *   BOOK_IN_OWN_SYSTEM / ACCEPT_CHANGE recommendation not yet settled) and no person has acted on it since it
 *   entered that state. An action whose outcome lands back in review (the item's disposition written after
 *   the action) opens it again.
 * - DISMISSED: a person dismissed it. The item keeps the spec's disposition.
 * - RESOLVED: a person acted on it (any action but DISMISS and ASSIGN: from the queue, or by a commit through
 *   POST /crew/bookings/request, commitResolution); or it needed a person and no longer does without one acting
 *   (an automatic retry succeeded; an item settled with its recommendation, written before commits recorded
 *   their action).
 * - null: no person was ever needed.
 *
 * An item a later roster superseded (`superseded_by`: that roster's item took over its booking) no longer waits:
 * RESOLVED, or DISMISSED when a person had dismissed it. That later item is the one to work.
 *
 * ASSIGN is not an action taken: an assigned item stays OPEN and keeps its escalation.
 */
export function reviewStatusOf(item: ReviewItem): ReviewStatus | null {
  const waits = waitsForPerson(item);
  const acted = actedOn(item);
  // A later roster took the booking over with an item of its own: that item carries what still waits.
  if (item.superseded_by && (waits || item.review_status))
    return acted && item.action_taken === 'DISMISS' ? 'DISMISSED' : 'RESOLVED';
  if (waits && (!acted || reopened(item))) return 'OPEN';
  if (acted) return item.action_taken === 'DISMISS' ? 'DISMISSED' : 'RESOLVED';
  const fulfilledRecommendation =
    item.recommended_action !== null && PERSON_RECOMMENDATIONS.has(item.recommended_action);
  if (item.review_status || fulfilledRecommendation) return 'RESOLVED';
  return null;
}

/** Counted in the schedule summary's action_items_resolved_by_person (besides its disposition's own count). */
export function resolvedByPerson(item: ReviewItem): boolean {
  return reviewStatusOf(item) === 'RESOLVED' && actedOn(item) && item.action_taken !== 'DISMISS';
}

const MS_PER_MINUTE = 60_000;

/** Epoch ms of an instant given as ISO text or ms; NaN when unreadable. */
function msOf(t: string | number): number {
  return typeof t === 'number' ? t : instantOf(t);
}

/**
 * The latest instant a person's action still helps, for an OPEN item: its own deadline when it has one
 * (review_deadline: a roster cancellation's hotel deadline, which no setting moves), else the earlier of
 * - the event (check-in, departure) minus lead_time_minutes, and
 * - the item's creation plus its priority's review target (rule 13: P1 5, P2 30, P3 60 minutes; P4 none).
 * Null when no person's action is needed (the item is not OPEN), or when neither bound applies (a P4 item
 * without an event time). An unreadable time counts as absent. The result may be in the past (overdue).
 */
export function dueBy(
  item: ReviewItem,
  eventAt: string | number | null | undefined,
  settings: ReviewSettings,
): string | null {
  if (reviewStatusOf(item) !== 'OPEN') return null;
  // A deadline of its own (a roster cancellation's hotel deadline) binds it instead: no setting moves it.
  const deadline = item.review_deadline ? instantOf(item.review_deadline) : NaN;
  if (!Number.isNaN(deadline)) return dueText(deadline);
  let due = Number.POSITIVE_INFINITY;
  if (eventAt !== null && eventAt !== undefined) {
    const event = msOf(eventAt);
    if (!Number.isNaN(event)) due = event - settings.lead_time_minutes * MS_PER_MINUTE;
  }
  const target = item.priority === 'P4' ? undefined : settings.priority_targets_minutes[item.priority];
  const created = instantOf(item.created_at);
  if (target !== undefined && !Number.isNaN(created)) due = Math.min(due, created + target * MS_PER_MINUTE);
  return due === Number.POSITIVE_INFINITY ? null : dueText(due);
}

/*
 * A roster's items share few deadlines (its crews share check-ins and departures; a priority's target from the
 * same creation time is one instant): each is written once, not once per item. Bounded, and a pure function's
 * memo: the same instant always gives the same text.
 */
const dueTexts = new Map<number, string>();
const MAX_DUE_TEXTS = 50_000;

function dueText(ms: number): string {
  let text = dueTexts.get(ms);
  if (text === undefined) {
    if (dueTexts.size >= MAX_DUE_TEXTS) dueTexts.clear();
    text = isoInstant(ms);
    dueTexts.set(ms, text);
  }
  return text;
}

/** What dueSoon reads: the item, its stored due_by, and whether its action_item.due_soon was already emitted. */
export interface DueSoonFacts extends ReviewItem {
  due_by: string | null;
  due_soon_emitted: boolean;
}

/**
 * Whether action_item.due_soon fires now: the item is OPEN (no action taken since it needed a person), has a
 * due_by, that due_by is within due_soon_minutes of `now` (an overdue item included), and the event was not
 * emitted for it before. Once emitted it never fires again for the item.
 */
export function dueSoon(item: DueSoonFacts, now: string | number, settings: ReviewSettings): boolean {
  if (item.due_soon_emitted || item.due_by === null) return false;
  if (reviewStatusOf(item) !== 'OPEN') return false;
  const due = instantOf(item.due_by);
  const at = msOf(now);
  if (Number.isNaN(due) || Number.isNaN(at)) return false;
  return due - at <= settings.due_soon_minutes * MS_PER_MINUTE;
}
