// Placeholder: the schedule submission schema (spec 2.1) is being written by the engine work.
export {};
