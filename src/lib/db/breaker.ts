// The database breaker (docs/operations.md, "When the database is down"). Every connection the
// Postgres driver opens goes through `connect` below. When one cannot be made (refused,
// unreachable, or not made within DB_CONNECT_DEADLINE_MS), the database counts as down: from then
// on new connections fail at once, without touching the network, so a request spends no time
// waiting on a database that is known to be gone. A background probe tries a TCP connection every
// DB_PROBE_INTERVAL_MS and closes the breaker as soon as one succeeds; the next query connects as
// usual. Nothing here retries or waits: the driver's own reconnect back-off is switched off.

import net from "node:net";

/** A connection attempt that has not connected after this long counts as failed. */
export const DB_CONNECT_DEADLINE_MS = 3_000;
/** How often the background probe tries the server while the breaker is open. */
export const DB_PROBE_INTERVAL_MS = 200;
/** The code of the error a connection gets while the breaker is open (read as "unreachable"). */
export const BREAKER_OPEN_CODE = "DATABASE_DOWN";

/** Where the server listens: a TCP host and port, or a Unix socket path. */
export interface Endpoint {
  host?: string;
  port?: number;
  path?: string;
}

export interface DatabaseBreaker {
  /** A socket for the driver: connecting, or failing on the next tick while the breaker is open. */
  connect(endpoint: Endpoint): net.Socket;
  /** True while the database is known to be down. */
  isOpen(): boolean;
  /** Called on every change: open (true) or closed again (false). */
  onChange(listener: (open: boolean) => void): void;
  /** Stops the probe (at shutdown). */
  stop(): void;
}

function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
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

  const trip = () => {
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
      if (open) {
        const socket = new net.Socket();
        setImmediate(() => socket.destroy(failure(BREAKER_OPEN_CODE, "Database unreachable: it is known to be down and a background probe is waiting for it")));
        return socket;
      }
      const socket = dial(endpoint);
      const timer = setTimeout(() => {
        trip();
        socket.destroy(failure("CONNECT_TIMEOUT", "Database connection not made in time"));
      }, DB_CONNECT_DEADLINE_MS);
      timer.unref?.();
      socket.once("connect", () => clearTimeout(timer));
      socket.once("error", () => {
        if (socket.connecting || !socket.remoteAddress) trip();
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
