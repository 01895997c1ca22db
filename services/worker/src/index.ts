export { startWorkerRuntime, type WorkerDeps, type WorkerRuntime } from './runtime';
export { ScheduleProcessor } from './schedules/schedule.processor';
export { NO_METRICS, type WorkerMetrics } from './operability/hooks';
export { BookingProcessor } from './bookings/booking.processor';
export { PromWorkerMetrics } from './operability/metrics';
export { createWorkerOps } from './operability/server';
export { RoomingChannel } from './rooming/rooming.channel';
export { InvoiceReconciler } from './invoices/invoice.reconciler';
export { resendOverdueHolds } from './bookings/overdue-holds';
