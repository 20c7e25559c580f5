import { expect, test } from "bun:test";
import { useTestApp } from "../helpers/app.ts";

const ctx = useTestApp();

test("get/set/delete round-trip JSON values", async () => {
  const kv = ctx.deps.kv;
  expect(await kv.get("missing")).toBeUndefined();
  await kv.set("ui:sliding-banner:v1", { version: 1, messages: ["a", "<b>"] });
  expect(await kv.get("ui:sliding-banner:v1")).toEqual({ version: 1, messages: ["a", "<b>"] });
  await kv.set("ui:sliding-banner:v1", { version: 1, messages: [] });
  expect(await kv.get("ui:sliding-banner:v1")).toEqual({ version: 1, messages: [] });
  expect(await kv.delete("ui:sliding-banner:v1")).toBe(true);
  expect(await kv.delete("ui:sliding-banner:v1")).toBe(false);
});

test("list(prefix) treats LIKE wildcards literally", async () => {
  const kv = ctx.deps.kv;
  await kv.set("maps:a", 1);
  await kv.set("maps:b", 2);
  await kv.set("mapsXc", 3);
  await kv.set("m%_x", 4);
  expect((await kv.list("maps:")).map((r) => r.key)).toEqual(["maps:a", "maps:b"]);
  expect((await kv.list("m%_")).map((r) => r.key)).toEqual(["m%_x"]);
});

test("update is atomic under concurrency", async () => {
  const kv = ctx.deps.kv;
  await Promise.all(Array.from({ length: 25 }, () => kv.update<number>("counter", (n) => (n ?? 0) + 1)));
  expect(await kv.get("counter")).toBe(25);
});
