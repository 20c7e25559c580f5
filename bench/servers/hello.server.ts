// The smallest server: the runtime's own start-up, the baseline of the cold-start benchmark.

const server = Bun.serve({ port: Number(process.env.PORT), hostname: "127.0.0.1", fetch: () => new Response("ok") });
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
