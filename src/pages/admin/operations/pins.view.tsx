// The Venue pins card of /admin/operations (docs/live-events.md, "Pins in the console"): every venue
// of the live events with its pin's source, confidence and a flag when the pin lies outside its
// arrondissement; pasting "latitude, longitude" sets a manual pin (the warm-up never re-geocodes
// it) and the public map follows.

import { siteHref } from "../../../lib/links.ts";
import Html from "@kitajs/html";
import type { VenuePin } from "../../../lib/geocoding/venue-pins.ts";

/** The root id of the card; its forms swap it. */
export const VENUE_PINS_ID = "venue-pins";

export interface VenuePinsCardProps {
  venues: VenuePin[];
  /** After a save: what happened (notice) or why nothing changed (error). */
  notice?: string;
  error?: string;
}

const coordinatesText = (v: VenuePin) => `${v.lat.toFixed(5)}, ${v.lng.toFixed(5)}`;

export function VenuePinsCard(props: VenuePinsCardProps): JSX.Element {
  const flagged = props.venues.filter((v) => v.outside).length;
  return (
    <section id={VENUE_PINS_ID} class="card venue-pins-card" aria-labelledby="venue-pins-title">
      <div class="card-head">
        <h2 id="venue-pins-title">Venue pins</h2>
        <span class="badge" safe>
          {`${props.venues.length} venues · ${flagged} outside their arrondissement`}
        </span>
      </div>
      <p class="muted">
        Where each venue sits on the public map. Paste "latitude, longitude" (as a map app copies them) to set a manual pin; the warm-up never replaces it.
      </p>
      {props.notice ? (
        <p class="notice notice-ok" role="status" safe>
          {props.notice}
        </p>
      ) : null}
      {props.error ? (
        <p class="notice notice-error" role="alert" safe>
          {props.error}
        </p>
      ) : null}
      {props.venues.length === 0 ? (
        <p class="empty">No venue in the live events.</p>
      ) : (
        <div class="table-scroll">
        <table class="data-table">
          <thead>
            <tr>
              <th scope="col">Venue</th>
              <th scope="col">Arr.</th>
              <th scope="col">Source</th>
              <th scope="col">Confidence</th>
              <th scope="col">Pin</th>
              <th scope="col">Set a pin</th>
            </tr>
          </thead>
          <tbody>
            {props.venues.map((v) => (
              <tr data-venue-id={v.id} class={v.outside ? "is-flagged" : undefined}>
                <th scope="row">
                  <span safe>{v.name}</span>
                  {v.outside ? (
                    <span class="badge badge-attention" data-outside safe>
                      {`Outside the ${v.arrondissement}e`}
                    </span>
                  ) : null}
                </th>
                <td safe>{String(v.arrondissement)}</td>
                <td data-source safe>
                  {v.source}
                </td>
                <td safe>{v.confidence.toFixed(2)}</td>
                <td>
                  <code safe>{coordinatesText(v)}</code>
                </td>
                <td>
                  <form
                    method="post"
                    action={siteHref(`/admin/operations/venues/${encodeURIComponent(v.id)}/pin`)}
                    hx-post={siteHref(`/admin/operations/venues/${encodeURIComponent(v.id)}/pin`)}
                    hx-target={`#${VENUE_PINS_ID}`}
                    hx-swap="outerHTML"
                    class="pin-form"
                  >
                    <label>
                      <span class="visually-hidden" safe>{`Coordinates for ${v.name}`}</span>
                      <input name="coordinates" inputmode="decimal" autocomplete="off" placeholder="48.8566, 2.3522" required />
                    </label>
                    <button type="submit" class="button small">
                      Set pin
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}
