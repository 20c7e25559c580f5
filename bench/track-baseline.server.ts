// The baseline of the tracking bench: an Elysia route that reads the body and answers 202
// {success:true} with the same headers as POST /api/track, recording nothing. Run as its own
// process (like the real service) on the port given as the first argument.

import { Elysia } from "elysia";
import { NO_STORE_HEADERS } from "../src/lib/http/responses.ts";

const body = JSON.stringify({ success: true });
const headers = { "content-type": "application/json; charset=utf-8", ...NO_STORE_HEADERS };
const port = Number(process.argv[2]);

new Elysia()
  .post(
    "/api/track",
    async ({ request }) => {
      await request.text();
      return new Response(body, { status: 202, headers });
    },
    { parse: "none" },
  )
  .listen({ port, hostname: "127.0.0.1" });
console.log(`baseline listening on ${port}`);
