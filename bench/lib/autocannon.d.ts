/** The part of autocannon's API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    headers?: Record<string, string>;
    timeout?: number;
    /** A run of this load before the measured one, its figures kept apart. */
    warmup?: { connections: number; duration: number };
  }
  interface Result {
    latency: Histogram;
    requests: Histogram & { total: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
  }
  /** A run: its result, and an event per completed request of the measured run (not of the warm-up). */
  interface Instance extends Promise<Result> {
    /** `client` is the connection's client object (one per connection); `responseTime` in ms. */
    on(
      event: 'response',
      listener: (client: object, statusCode: number, resBytes: number, responseTime: number) => void,
    ): void;
  }
  function autocannon(opts: Options): Instance;
  export = autocannon;
}
