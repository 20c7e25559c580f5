// The database breaker (docs/operations.md, "When the database is down"). Every connection the
// Postgres driver opens goes through `connect` below. When one cannot be made (refused,
// unreachable, or not answered within DB_CONNECT_DEADLINE_MS), the database counts as down: from then
// on new connections fail at once, without touching the network, so a request spends no time
// waiting on a database that is known to be gone. A background probe tries a TCP connection every
// DB_PROBE_INTERVAL_MS and closes the breaker as soon as one succeeds; the next query connects as
// usual. Nothing here retries or waits: the driver's own reconnect back-off is switched off.

import net from "node:net";
import { Duplex } from "node:stream";

/**
 * A connection attempt that the server has not answered after this long (TCP connect and the first
 * bytes of its start-up reply) counts as failed and opens the breaker. With the store and backup
 * reads of a page tried in turn, the CSV fallback still answers well inside the request deadline.
 */
export const DB_CONNECT_DEADLINE_MS = 2_000;
/** How often the background probe tries the server while the breaker is open. */
export const DB_PROBE_INTERVAL_MS = 100;
/** The code of the error a connection gets while the breaker is open (read as "unreachable"). */
export const BREAKER_OPEN_CODE = "DATABASE_DOWN";

/** Where the server listens: a TCP host and port, or a Unix socket path. */
export interface Endpoint {
  host?: string;
  port?: number;
  path?: string;
}

export interface DatabaseBreaker {
  /** A socket for the driver: connecting, or (while the breaker is open) failing at its first write. */
  connect(endpoint: Endpoint): net.Socket;
  /** True while the database is known to be down. */
  isOpen(): boolean;
  /** Called on every change: open (true) or closed again (false). */
  onChange(listener: (open: boolean) => void): void;
  /** Stops the probe (at shutdown). */
  stop(): void;
}

/** A connection error with the fields the driver's own carry (code, address, port), and its cause. */
function failure(code: string, message: string, endpoint?: Endpoint, cause?: unknown): Error {
  const where = endpoint?.path ? { address: endpoint.path } : endpoint ? { address: endpoint.host ?? "127.0.0.1", port: endpoint.port ?? 5432 } : {};
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code, ...where });
}
/**
 * What the driver gets while the breaker is open: a stream that fails as soon as the driver writes
 * its start-up message (its listeners are attached by then), with the error and the close event a
 * failed connection has, so the driver's connection goes back to its pool at once. No network.
 */
function refusedStream(cause: unknown): net.Socket {
  const stream = new Duplex({
    read() {},
    write(_chunk, _encoding, callback) {
      callback();
      // The error that opened the breaker is its cause: the startup message names it.
      setImmediate(() => stream.destroy(failure(BREAKER_OPEN_CODE, "Database unreachable: it is known to be down and a background probe is waiting for it", undefined, cause)));
    },
  });
  return stream as unknown as net.Socket;
}

function dial(endpoint: Endpoint): net.Socket {
  return endpoint.path ? net.connect({ path: endpoint.path }) : net.connect({ host: endpoint.host ?? "127.0.0.1", port: endpoint.port ?? 5432 });
}

export function createDatabaseBreaker(): DatabaseBreaker {
  let open = false;
  let probing: ReturnType<typeof setInterval> | undefined;
  let probeInFlight = false;
  let lastEndpoint: Endpoint | undefined;
  let stopped = false;
  /** The error that last opened the breaker. */
  let openedBy: unknown;
  const listeners: ((open: boolean) => void)[] = [];

  const setOpen = (value: boolean) => {
    if (open === value) return;
    open = value;
    for (const listener of listeners) listener(value);
  };

  const probe = () => {
    if (probeInFlight || !lastEndpoint) return;
    probeInFlight = true;
    const socket = dial(lastEndpoint);
    const done = (reachable: boolean) => {
      clearTimeout(timer);
      probeInFlight = false;
      socket.removeAllListeners();
      socket.on("error", () => {});
      socket.destroy();
      if (reachable) close();
    };
    const timer = setTimeout(() => done(false), DB_CONNECT_DEADLINE_MS);
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  };

  const trip = (cause: unknown) => {
    openedBy = cause;
    setOpen(true);
    if (probing || stopped) return;
    probing = setInterval(probe, DB_PROBE_INTERVAL_MS);
    probing.unref?.();
  };

  const close = () => {
    if (probing) clearInterval(probing);
    probing = undefined;
    setOpen(false);
  };

  return {
    connect(endpoint) {
      lastEndpoint = endpoint;
      if (open) return refusedStream(openedBy);
      const socket = dial(endpoint);
      const timer = setTimeout(() => {
        const error = failure("CONNECT_TIMEOUT", "Database connection not answered in time", endpoint);
        trip(error);
        socket.destroy(error);
      }, DB_CONNECT_DEADLINE_MS);
      timer.unref?.();
      // Answered: the server's first reply to the start-up message (a bare TCP connect is not
      // enough: a proxy in front of a stopped server accepts it).
      socket.once("data", () => clearTimeout(timer));
      socket.once("error", (error) => {
        if (socket.connecting || !socket.remoteAddress) trip(error);
        clearTimeout(timer);
      });
      socket.once("close", () => clearTimeout(timer));
      return socket;
    },
    isOpen: () => open,
    onChange: (listener) => listeners.push(listener),
    stop() {
      stopped = true;
      if (probing) clearInterval(probing);
      probing = undefined;
    },
  };
}
