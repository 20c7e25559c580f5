// The whole database schema, one module per table group.

export * from "./event-store.ts";
export * from "./kv.ts";
export * from "./users.ts";
export * from "./admin.ts";
export * from "./rate-limits.ts";
export * from "./tracking.ts";
export * from "./submissions.ts";
export * from "./placements.ts";
export * from "./insights.ts";
export * from "./partners.ts";
export * from "./reports.ts";
export * from "./outbox.ts";
export * from "./activity.ts";
export * from "./host-edits.ts";
