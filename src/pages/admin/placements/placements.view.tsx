// /admin/placements (see docs/placements.md, "Console"): the Paid Orders Queue and the Spotlight &
// Promoted Scheduler. Views only; times are shown and entered on the Paris clock.

import type { OrderCounts, OrderRecord, OrderStatus, orderJson } from "../../../lib/placements/orders.ts";

/** An order as the console lists it (no token digest, no link). */
type ShownOrder = ReturnType<typeof orderJson>;
import type { ScheduleEntry, ScheduleListing, Tier } from "../../../lib/placements/scheduler.ts";
import { formatParisDisplay, formatParisInput } from "../../../lib/placements/schedule-input.ts";
import { Timeline } from "./timeline.view.tsx";

export const PLACEMENTS_PATH = "/admin/placements";

/** An event to pick (search by title, venue or key through the datalist). */
export interface EventChoice {
  eventKey: string;
  eventName: string;
  location?: string;
  date?: string;
}

export interface PlacementsProps {
  orders: ShownOrder[];
  counts: OrderCounts;
  orderTab: OrderStatus | "all";
  mode: Tier;
  listing: ScheduleListing;
  events: EventChoice[];
  names: Map<string, string>;
  now: Date;
  notice?: string;
  /** The statistics link an activation shows this once. */
  statsLink?: string;
}

const EVENTS_LIST_ID = "placement-events";

function Tile(props: { label: string; value: string | number }): JSX.Element {
  return (
    <div class="tile">
      <span class="tile-label" safe>
        {props.label}
      </span>
      <strong class="tile-value" safe>
        {String(props.value)}
      </strong>
    </div>
  );
}

const when = (iso: string | Date | null | undefined) => (iso ? formatParisDisplay(new Date(iso)) : "–");

function money(order: Pick<OrderRecord, "amountTotalCents" | "currency">): string {
  if (order.amountTotalCents === null) return "–";
  return `${(order.amountTotalCents / 100).toFixed(2)} ${(order.currency ?? "").toUpperCase()}`.trim();
}

function EventPicker(props: { name?: string; value?: string }): JSX.Element {
  return <input name={props.name ?? "eventKey"} list={EVENTS_LIST_ID} required placeholder="Search by title, venue or key" value={props.value ?? ""} autocomplete="off" />;
}

/** The explicit yes a placement for an ended event, or one running past the event's dates, needs. */
function ConfirmAnyway(): JSX.Element {
  return (
    <label class="confirm-anyway">
      <input type="checkbox" name="confirm" value="1" /> Schedule anyway, even if it has ended or runs past its last day
    </label>
  );
}

function OrderCard(props: { order: ShownOrder; tab: string }): JSX.Element {
  const { order } = props;
  const action = (path: string) => `${PLACEMENTS_PATH}/orders/${order.id}/${path}?tab=${props.tab}`;
  const tier = order.packageKey?.includes("promoted") ? "promoted" : "spotlight";
  return (
    <article class="card order-card" data-order-id={order.id} data-status={order.status}>
      <div class="card-head">
        <h3 safe>{order.eventName ?? "(no event name)"}</h3>
        <span class={`badge status-${order.status}`} safe>
          {order.status}
        </span>
      </div>
      <dl class="order-facts">
        <dt>Amount</dt>
        <dd safe>{money(order)}</dd>
        <dt>Customer</dt>
        <dd safe>{[order.customerName, order.customerEmail].filter(Boolean).join(" · ") || "–"}</dd>
        <dt>Event URL</dt>
        <dd>{order.eventUrl && /^https?:\/\//i.test(order.eventUrl) ? <a href={order.eventUrl} rel="noopener noreferrer" target="_blank" safe>{order.eventUrl}</a> : <span safe>{order.eventUrl ?? "–"}</span>}</dd>
        <dt>Package</dt>
        <dd safe>{order.packageKey ?? "–"}</dd>
        <dt>Notes</dt>
        <dd safe>{order.notes ?? "–"}</dd>
        <dt>Received</dt>
        <dd safe>{when(order.createdAt)}</dd>
        {order.fulfilledEventKey ? (
          <>
            <dt>Placement</dt>
            <dd safe>{`${order.fulfilledTier} · ${order.fulfilledEventKey} · ${when(order.fulfilledStartAt)} → ${when(order.fulfilledEndAt)}`}</dd>
          </>
        ) : (
          ""
        )}
      </dl>
      {order.status !== "activated" ? (
        <form method="post" action={action("fulfil")} class="inline-form fulfil-form">
          <label>
            Event <EventPicker value={order.fulfilledEventKey ?? ""} />
          </label>
          <label>
            Tier
            <select name="tier">
              <option value="spotlight" selected={tier === "spotlight"}>
                Spotlight
              </option>
              <option value="promoted" selected={tier === "promoted"}>
                Promoted
              </option>
            </select>
          </label>
          <label>
            Start (Paris) <input type="datetime-local" name="startAt" />
          </label>
          <label>
            Duration (h) <input type="number" name="durationHours" min="1" max="168" value="48" />
          </label>
          <ConfirmAnyway />
          <button type="submit" class="button">
            Fulfil as selected tier
          </button>
        </form>
      ) : (
        ""
      )}
      <div class="order-actions">
        {order.statsLinkIssued ? (
          // The link itself is shown once, when the order is activated (its token is kept only as a digest).
          <p class="muted stats-link-note">Statistics link issued: shown once at activation and emailed to the partner; it cannot be shown again.</p>
        ) : (
          ""
        )}
        {order.status !== "processing" ? (
          <form method="post" action={action("status")}>
            <input type="hidden" name="status" value="processing" />
            <button type="submit" class="button button-quiet">
              Mark processing
            </button>
          </form>
        ) : (
          ""
        )}
        {order.status !== "dismissed" ? (
          <form method="post" action={action("status")}>
            <input type="hidden" name="status" value="dismissed" />
            <button type="submit" class="button button-quiet">
              Dismiss
            </button>
          </form>
        ) : (
          <form method="post" action={action("delete")} data-confirm="Delete this dismissed order? Its statistics link stops working.">
            <button type="submit" class="button button-danger">
              Delete
            </button>
          </form>
        )}
      </div>
    </article>
  );
}

function OrdersQueue(props: PlacementsProps): JSX.Element {
  const tabs: (OrderStatus | "all")[] = ["all", "pending", "processing", "activated", "dismissed"];
  return (
    <section class="card" aria-labelledby="orders-title" id="orders">
      <div class="card-head">
        <h2 id="orders-title">Paid Orders Queue</h2>
        <a class="button button-quiet" href={`${PLACEMENTS_PATH}?tab=${props.orderTab}&mode=${props.mode}`}>
          Refresh
        </a>
      </div>
      <div class="tiles">
        <Tile label="Total" value={props.counts.total} />
        <Tile label="Pending" value={props.counts.pending} />
        <Tile label="Processing" value={props.counts.processing} />
        <Tile label="Activated" value={props.counts.activated} />
        <Tile label="Dismissed" value={props.counts.dismissed} />
      </div>
      <nav class="admin-subtabs" aria-label="Order status">
        {tabs.map((tab) => (
          <a href={`${PLACEMENTS_PATH}?tab=${tab}&mode=${props.mode}#orders`} class={tab === props.orderTab ? "tab tab-current" : "tab"} aria-current={tab === props.orderTab ? "page" : undefined} safe>
            {`${tab[0]!.toUpperCase()}${tab.slice(1)} (${tab === "all" ? props.counts.total : props.counts[tab]})`}
          </a>
        ))}
      </nav>
      {props.orders.length === 0 ? <p class="muted">No orders here.</p> : props.orders.map((order) => <OrderCard order={order} tab={props.orderTab} />)}
      <details class="test-link">
        <summary>Generate Test Stats Link</summary>
        <form method="post" action={`${PLACEMENTS_PATH}/orders/test?tab=${props.orderTab}`} class="inline-form">
          <label>
            Event <EventPicker />
          </label>
          <label>
            Tier
            <select name="tier">
              <option value="spotlight">Spotlight</option>
              <option value="promoted">Promoted</option>
            </select>
          </label>
          <button type="submit" class="button">
            Generate Test Stats Link
          </button>
        </form>
      </details>
    </section>
  );
}

function EntryRow(props: { entry: ScheduleEntry; mode: Tier; name: string }): JSX.Element {
  const { entry } = props;
  const base = `${PLACEMENTS_PATH}/${props.mode}/${entry.id}`;
  const live = entry.status === "scheduled";
  return (
    <tr data-entry-id={entry.id} data-state={entry.state}>
      <td>
        <strong safe>{props.name}</strong>
        <br />
        <code safe>{entry.eventKey}</code>
      </td>
      <td safe>{entry.slot === null ? "–" : String(entry.slot)}</td>
      <td safe>{`${when(entry.effectiveStartAt)} → ${when(entry.effectiveEndAt)}`}</td>
      <td>
        <span class={`badge state-${entry.state}`} safe>
          {entry.state}
        </span>
        {entry.queuePosition !== null ? <span class="muted" safe>{` #${entry.queuePosition} in queue`}</span> : ""}
      </td>
      <td>
        {live ? (
          <div class="entry-actions">
            <form method="post" action={`${base}/reschedule`} class="inline-form">
              <input type="datetime-local" name="startAt" required value={entry.effectiveStartAt ? formatParisInput(new Date(entry.effectiveStartAt)) : ""} aria-label="New start (Paris time)" />
              <input type="number" name="durationHours" min="1" max="168" value={String(entry.durationHours)} aria-label="Duration in hours" />
              <button type="submit" class="button button-quiet">
                Reschedule
              </button>
            </form>
            <form method="post" action={`${base}/cancel`}>
              <button type="submit" class="button button-quiet">
                Cancel
              </button>
            </form>
          </div>
        ) : (
          ""
        )}
      </td>
    </tr>
  );
}

function Scheduler(props: PlacementsProps): JSX.Element {
  const { listing, mode } = props;
  const spotlight = mode === "spotlight";
  const groups = spotlight
    ? Array.from({ length: listing.slots ?? 0 }, (_, i) => ({ label: `Slot ${i + 1}`, entries: listing.entries.filter((e) => e.slot === i + 1 && e.state !== "cancelled") })).concat([
        { label: "Cancelled", entries: listing.entries.filter((e) => e.state === "cancelled") },
      ])
    : [{ label: "All promoted entries", entries: listing.entries }];
  return (
    <section class="card" aria-labelledby="scheduler-title" id="scheduler">
      <div class="card-head">
        <h2 id="scheduler-title">Spotlight &amp; Promoted Scheduler</h2>
        <nav class="admin-subtabs" aria-label="Scheduler mode">
          <a href={`${PLACEMENTS_PATH}?mode=spotlight&tab=${props.orderTab}#scheduler`} class={spotlight ? "tab tab-current" : "tab"}>
            Spotlight
          </a>
          <a href={`${PLACEMENTS_PATH}?mode=promoted&tab=${props.orderTab}#scheduler`} class={!spotlight ? "tab tab-current" : "tab"}>
            Promoted
          </a>
        </nav>
      </div>
      <div class="tiles">
        <Tile label={spotlight ? "Active Slots" : "Active"} value={spotlight ? `${listing.activeCount}/${listing.slots}` : listing.activeCount} />
        <Tile label="Upcoming" value={listing.upcomingCount} />
        <Tile label="Recently Ended" value={listing.recentlyEndedCount} />
        <Tile label="Scheduled" value={listing.scheduledCount} />
      </div>
      <form method="post" action={`${PLACEMENTS_PATH}/${mode}`} class="inline-form create-entry">
        <label>
          Event <EventPicker />
        </label>
        <label>
          Schedule at (Paris) <input type="datetime-local" name="startAt" />
        </label>
        <label>
          Duration (h) <input type="number" name="durationHours" min="1" max="168" value="48" />
        </label>
        <ConfirmAnyway />
        <button type="submit" name="now" value="1" class="button">
          {spotlight ? "Feature now" : "Promote now"}
        </button>
        <button type="submit" class="button button-quiet">
          Schedule
        </button>
      </form>
      <Timeline listing={listing} now={props.now} names={props.names} />
      <div class="table-scroll">
        <table class="timeline">
          <caption class="visually-hidden">{spotlight ? "Spotlight entries by slot" : "Promoted entries"}</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Slot</th>
              <th scope="col">Window (Paris)</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          {groups.map((group) => (
            <tbody>
              <tr class="timeline-group">
                <th colspan="5" scope="rowgroup" safe>
                  {group.label}
                </th>
              </tr>
              {group.entries.length === 0 ? (
                <tr>
                  <td colspan="5" class="muted">
                    Free
                  </td>
                </tr>
              ) : (
                group.entries.map((entry) => <EntryRow entry={entry} mode={mode} name={props.names.get(entry.eventKey.toLowerCase()) ?? entry.eventKey} />)
              )}
            </tbody>
          ))}
        </table>
      </div>
      <div class="order-actions">
        <form method="post" action={`${PLACEMENTS_PATH}/${mode}/clear-queue`} data-confirm="Delete every scheduled entry that has not started?">
          <button type="submit" class="button button-quiet">
            Clear Scheduled Queue
          </button>
        </form>
        <form method="post" action={`${PLACEMENTS_PATH}/${mode}/clear-history`} data-confirm="Delete every completed and cancelled entry?">
          <button type="submit" class="button button-quiet">
            Clear History
          </button>
        </form>
      </div>
    </section>
  );
}

/** The statistics link of an activation, shown this once: only its digest is kept, so it cannot be shown again. */
function StatsLinkOnce(props: { link: string }): JSX.Element {
  return (
    <div class="card stats-link-once" role="status">
      <p>Statistics link, shown this once (copy it now: it cannot be shown again; the partner also gets it by email):</p>
      <div class="order-actions">
        <a class="button button-quiet" href={props.link} target="_blank" rel="noreferrer">
          Open partner stats
        </a>
        <button type="button" class="button button-quiet" data-copy={props.link}>
          Copy stats link
        </button>
        <input class="stats-link" readonly value={props.link} aria-label="Statistics link" />
      </div>
    </div>
  );
}

/** The placements area: notice, orders queue, scheduler, and the event list both pickers search. */
export function PlacementsArea(props: PlacementsProps): JSX.Element {
  return (
    <div class="placements-area">
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ""
      )}
      {props.statsLink ? <StatsLinkOnce link={props.statsLink} /> : ""}
      <datalist id={EVENTS_LIST_ID}>
        {props.events.map((e) => (
          <option value={e.eventKey} label={[e.eventName, e.location, e.date].filter(Boolean).join(" · ")} safe>
            {e.eventName}
          </option>
        ))}
      </datalist>
      <OrdersQueue {...props} />
      <Scheduler {...props} />
    </div>
  );
}
