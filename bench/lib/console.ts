/** A benchmark's progress on stdout: plain lines, and steps stamped with the time of day (UTC). */
export const say = (s = ''): void => {
  process.stdout.write(`${s}\n`);
};

export const step = (s: string): void => say(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
