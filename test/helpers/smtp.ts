// A real SMTP server on loopback (smtp-server) that keeps every message it accepts, parsed by
// mailparser, and can refuse the next delivery or hold a message's final reply (to stage a crash
// between the server taking a message and the sender recording it).

import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

export interface ReceivedMail {
  raw: string;
  parsed: ParsedMail;
  envelopeTo: string[];
}

export interface TestSmtpServer {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** RCPT TO attempts seen, refused ones included. */
  recipientsTried: number;
  /** Refuse the next `n` deliveries at RCPT TO with 451 (a temporary failure). */
  refuseNext(n?: number): void;
  /** Called with each message once its data has arrived, before the server answers 250; the answer waits for it. */
  onMessage?: (mail: ReceivedMail) => Promise<void> | void;
  /** Waits until `count` messages were received (or throws after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  let refusals = 0;
  const state: TestSmtpServer = {
    url: "",
    port: 0,
    received: [],
    recipientsTried: 0,
    refuseNext: (n = 1) => {
      refusals = n;
    },
    waitFor: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (state.received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${state.received.length}`);
        await Bun.sleep(50);
      }
      return state.received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    logger: false,
    disableReverseLookup: true,
    onRcptTo(address, _session, callback) {
      state.recipientsTried++;
      if (refusals > 0) {
        refusals--;
        const error = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mail = { raw, parsed: await simpleParser(raw), envelopeTo: session.envelope.rcptTo.map((r) => r.address) };
        state.received.push(mail);
        try {
          await state.onMessage?.(mail);
        } finally {
          callback();
        }
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = (server as unknown as { server: { address(): { port: number } } }).server.address();
  state.port = address.port;
  state.url = `smtp://127.0.0.1:${address.port}`;
  return state;
}

/** The links written out in a text part. */
export function linksOf(text: string): string[] {
  return [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
}
