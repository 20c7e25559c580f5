// One PGlite served to several client connections over the Postgres wire protocol, so tests can run
// two service processes (each with its own connection pool, through DATABASE_URL) on one embedded
// database.
//
// PGlite is a single backend, so the connections take turns: a turn is one whole message sequence
// of a connection (up to its Sync, or one simple Query), never single messages, because the
// extended protocol's unnamed statement and portal live in the backend between Bind, Execute and
// Sync. A connection that flushes mid-sequence (postgres.js describes a statement that way before
// binding it), or whose turn leaves the backend inside a transaction, keeps the backend until the
// sequence or the transaction ends; the others wait. (@electric-sql/pglite-socket 0.2.17 interleaves single
// messages: two postgres.js clients at once fail with `portal "" does not exist`.)

import { createServer, type Socket } from "node:net";
import type { PGlite } from "@electric-sql/pglite";

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;

interface Turn {
  client: Client;
  bytes: Uint8Array;
  /** Runs even though the client has gone (the rollback of its open transaction). */
  afterClose?: boolean;
  /** Ends at a Flush: the client reads the answer and goes on with the same sequence. */
  unfinished?: boolean;
}

interface Client {
  socket: Socket;
  buffer: Buffer;
  started: boolean;
  pending: Buffer[];
  closed: boolean;
}

export interface PgliteWireServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  close(): Promise<void>;
}

/** Serves `db` on 127.0.0.1 (a free port) until closed. */
export async function servePgliteOverWire(db: PGlite): Promise<PgliteWireServer> {
  const queue: Turn[] = [];
  let owner: Client | undefined; // the connection whose transaction is open in the backend
  let running = false;

  async function run(): Promise<void> {
    if (running) return;
    running = true;
    try {
      for (;;) {
        const index = owner ? queue.findIndex((t) => t.client === owner) : 0;
        if (index < 0 || queue.length === 0) return;
        const [turn] = queue.splice(index, 1);
        const { client, bytes, afterClose, unfinished } = turn!;
        if (client.closed && !afterClose) continue;
        await db.execProtocolRawStream(bytes, { onRawData: (data) => void (!client.closed && client.socket.writable && client.socket.write(data)) });
        owner = unfinished || db.isInTransaction() ? client : undefined;
      }
    } finally {
      running = false;
    }
  }

  function submit(client: Client, bytes: Uint8Array, unfinished = false): void {
    queue.push({ client, bytes, unfinished });
    void run();
  }

  /** Splits the client's bytes into messages; a turn ends at Sync, Flush or a simple Query. */
  function receive(client: Client): void {
    for (;;) {
      const b = client.buffer;
      if (!client.started) {
        if (b.length < 8) return;
        const length = b.readInt32BE(0);
        if (b.length < length) return;
        const code = b.readInt32BE(4);
        client.buffer = b.subarray(length);
        if (code === SSL_REQUEST) {
          client.socket.write("N");
        } else if (code === CANCEL_REQUEST) {
          client.socket.end();
        } else {
          client.started = true;
          submit(client, b.subarray(0, length));
        }
        continue;
      }
      if (b.length < 5) return;
      const length = 1 + b.readInt32BE(1);
      if (b.length < length) return;
      const type = String.fromCharCode(b[0]!);
      const message = b.subarray(0, length);
      client.buffer = b.subarray(length);
      if (type === "X") {
        client.socket.end();
        return;
      }
      client.pending.push(message);
      if (type === "S" || type === "Q" || type === "H") {
        submit(client, Buffer.concat(client.pending), type === "H");
        client.pending = [];
      }
    }
  }

  function closed(client: Client): void {
    if (client.closed) return;
    client.closed = true;
    // A connection that goes away inside its transaction leaves it rolled back, as on a server.
    if (owner === client) {
      queue.unshift({ client, bytes: simpleQuery("rollback"), afterClose: true });
      void run();
    }
  }

  const server = createServer((socket) => {
    const client: Client = { socket, buffer: Buffer.alloc(0), started: false, pending: [], closed: false };
    socket.on("data", (data: Buffer) => {
      client.buffer = Buffer.concat([client.buffer, data]);
      receive(client);
    });
    socket.on("close", () => closed(client));
    socket.on("error", () => closed(client));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A simple Query message. */
function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`);
  const message = Buffer.alloc(5 + body.length);
  message.write("Q", 0);
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}
