// /feature-event: the partner page that sells spotlight and promoted placements, and its live
// spotlight status fragment (see docs/public-pages.md, "/feature-event"). Views only: data comes in
// through props.

import type { PackageKey } from "../../lib/config.ts";
import type { SpotlightStatus } from "../../lib/placements/spotlight-status.ts";
import { formatParisDisplay } from "../../lib/placements/schedule-input.ts";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";

/** Root id of the status fragment (htmx target). */
export const SPOTLIGHT_STATUS_ID = "spotlight-status";

/** A package on sale. */
export interface PackageOffer {
  key: PackageKey;
  name: string;
  price: string;
  summary: string;
  points: string[];
  addOn?: boolean;
  /** Payment link, or a mailto fallback. */
  href: string;
}

/** The placement packages and add-ons, in display order. */
export const PACKAGES: readonly Omit<PackageOffer, "href">[] = [
  { key: "spotlight-standard", name: "Spotlight Standard", price: "€80", summary: "48 hours at the top of the homepage.", points: ["One of only 3 spotlight places", "Sparkle badge and crown on your card", "Partner statistics link"] },
  { key: "spotlight-takeover", name: "Spotlight Takeover", price: "€150", summary: "Festival week, 15–20 June, in the spotlight.", points: ["Spotlight through the busiest week", "Priority in the spotlight queue", "Partner statistics link"] },
  { key: "promoted-listing", name: "Promoted Listing", price: "€40", summary: "Listed above the rest of the calendar.", points: ["Promoted badge on your card", "Shown right after the spotlight", "Partner statistics link"] },
  { key: "addon-whatsapp", name: "WhatsApp add-on", price: "€50", summary: "Your event in our community broadcast.", points: ["One message to the finder WhatsApp community"], addOn: true },
  { key: "addon-newsletter", name: "Newsletter add-on", price: "€75", summary: "A feature in the festival newsletter.", points: ["A dedicated slot in the newsletter"], addOn: true },
];

const FAQ: readonly [string, string][] = [
  ["When does my placement start?", "As soon as the team activates it after payment, or at the time you ask for. A spotlight runs 48 hours unless agreed otherwise."],
  ["What if all spotlight places are taken?", "Your spotlight is queued and starts the moment a place frees up; you never lose the hours you paid for."],
  ["How do I know it worked?", "You get a private statistics link showing views, ticket clicks, calendar saves and unique visitors during your placement."],
  ["Can I change the event details?", "Yes: write to us and we update the listing; the placement stays attached to your event."],
];

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * "Live · ends in 2h 05m 09s" or "Ended 3h 5m ago"; static/feature-event.js computes the
 * same text every second in the browser.
 */
export function countdownLabel(endAt: string, now: Date): string {
  const diff = new Date(endAt).getTime() - now.getTime();
  if (diff > 0) {
    const seconds = Math.floor(diff / 1000);
    return `Live · ends in ${Math.floor(seconds / 3600)}h ${pad(Math.floor(seconds / 60) % 60)}m ${pad(seconds % 60)}s`;
  }
  const minutes = Math.floor(-diff / 60000);
  return `Ended ${Math.floor(minutes / 60)}h ${minutes % 60}m ago`;
}

/** The spotlight status block (the fragment cached 60 s). */
/** Shown in place of the status when the schedule cannot be read. */
export const SPOTLIGHT_STATUS_UNAVAILABLE = "Spotlight availability cannot be read right now. Please try again in a minute.";

/** The live status block; `status` undefined means the schedule could not be read. */
export function SpotlightStatusBlock(props: { status: SpotlightStatus | undefined; now: Date }): JSX.Element {
  const { status } = props;
  if (!status) {
    return (
      <section id={SPOTLIGHT_STATUS_ID} class="partner-status" aria-labelledby="spotlight-status-title" aria-live="polite">
        <div class="partner-status-head">
          <h2 id="spotlight-status-title">Spotlight right now</h2>
        </div>
        <p class="notice notice-warning" role="status">
          {SPOTLIGHT_STATUS_UNAVAILABLE}
        </p>
      </section>
    );
  }
  return (
    <section id={SPOTLIGHT_STATUS_ID} class="partner-status" aria-labelledby="spotlight-status-title" aria-live="polite">
      <div class="partner-status-head">
        <h2 id="spotlight-status-title">Spotlight right now</h2>
        <span class={`slots-badge${status.slotsLeft === 0 ? " slots-full" : ""}`} data-slots={String(status.slots)} safe>
          {`${status.slotsLeft}/${status.slots} spotlight slots left`}
        </span>
      </div>
      {status.entries.length === 0 ? (
        <p class="muted">No spotlight is running at the moment: the next one could be yours.</p>
      ) : (
        <ul class="spotlight-list">
          {status.entries.map((entry) => (
            <li class={`spotlight-entry spotlight-${entry.state}`}>
              <span class="spotlight-name" safe>
                {entry.eventName}
              </span>
              <span class="spotlight-state">{entry.state === "active" ? "Live" : "Ended"}</span>
              <time class="spotlight-countdown" datetime={entry.endAt} data-countdown-end={entry.endAt} safe>
                {countdownLabel(entry.endAt, props.now)}
              </time>
            </li>
          ))}
        </ul>
      )}
      {status.queuedCount > 0 ? (
        <p class="spotlight-queue muted" safe>
          {`${status.queuedCount} spotlight${status.queuedCount === 1 ? "" : "s"} booked ahead${status.nextStartAt ? `; the next starts ${formatParisDisplay(new Date(status.nextStartAt))} (Paris time)` : ""}.`}
        </p>
      ) : (
        ""
      )}
    </section>
  );
}

/** The hero's audience figures; engagement figures are absent when they could not be read. */
export interface AudienceStats {
  eventCount: number;
  arrondissementCount: number;
  visitors?: number;
  eventOpens?: number;
  calendarSaves?: number;
}

export interface FeatureEventPageProps {
  packages: PackageOffer[];
  partnerEmail: string;
  audience: AudienceStats;
}

const number = new Intl.NumberFormat("en-GB");

/** The figures worth showing, as [value, label]: zero engagement figures are left out. */
export function audienceStats(audience: AudienceStats): [string, string][] {
  const stats: [string, string][] = [
    [number.format(audience.eventCount), "events listed"],
    [number.format(audience.arrondissementCount), "arrondissements covered"],
  ];
  if (audience.visitors) stats.push([number.format(audience.visitors), "visitors in the last 30 days"]);
  if (audience.eventOpens) stats.push([number.format(audience.eventOpens), "event views in the last 30 days"]);
  if (audience.calendarSaves) stats.push([number.format(audience.calendarSaves), "events saved to calendars"]);
  return stats;
}

/** The static shell of /feature-event; the status block loads into it. */
export function FeatureEventPage(props: FeatureEventPageProps): JSX.Element {
  const mediaKit = `mailto:${props.partnerEmail}?subject=${encodeURIComponent("finder media kit")}`;
  return (
    <Layout title="Promote your event | finder" description="Spotlight and promoted placements on the Paris Fête de la Musique calendar." scripts={["feature-event.js"]}>
      <SiteHeader />
      <main id="main" class="page partner-page">
        <section class="partner-hero">
          <p class="kicker">Partners · Fête de la Musique</p>
          <h1>Get your event discovered on Fête night</h1>
          <p class="lead">finder is where Paris plans its Fête de la Musique week. Put your event where people are choosing where to go.</p>
          <ul class="audience-stats" aria-label="Audience">
            {audienceStats(props.audience).map(([value, label]) => (
              <li>
                <strong safe>{value}</strong> <span safe>{label}</span>
              </li>
            ))}
          </ul>
          <div class="hero-actions">
            <a class="button button-primary" href="#packages">
              Book placement now
            </a>
            <a class="button" href={mediaKit}>
              Get media kit
            </a>
          </div>
        </section>

        <div hx-get="/feature-event/status" hx-trigger="load" hx-swap="outerHTML" hx-select={`#${SPOTLIGHT_STATUS_ID}`}>
          <section id={SPOTLIGHT_STATUS_ID} class="partner-status">
            <h2>Spotlight right now</h2>
            <p class="muted">
              <a href="/feature-event/status">See which spotlight places are free</a>
            </p>
          </section>
        </div>

        <section id="packages" class="packages" aria-labelledby="packages-title">
          <h2 id="packages-title">Packages</h2>
          <div class="package-grid">
            {props.packages.map((offer) => (
              <article class={`package${offer.addOn ? " package-addon" : ""}`}>
                <h3 safe>{offer.name}</h3>
                <p class="package-price" safe>
                  {offer.price}
                </p>
                <p safe>{offer.summary}</p>
                <ul>
                  {offer.points.map((point) => (
                    <li safe>{point}</li>
                  ))}
                </ul>
                <a class="button button-primary" href={offer.href} rel={offer.href.startsWith("http") ? "noopener" : undefined}>
                  {offer.addOn ? "Add to my booking" : "Book now"}
                </a>
              </article>
            ))}
          </div>
        </section>

        <section class="how-it-works" aria-labelledby="how-title">
          <h2 id="how-title">How it works</h2>
          <ol>
            <li>Choose a package and pay securely.</li>
            <li>Tell us which event to feature and when it should start.</li>
            <li>The team activates your placement; spotlight places are allocated first come, first served.</li>
            <li>Follow your results live on your private statistics page.</li>
          </ol>
        </section>

        <section class="faq" aria-labelledby="faq-title">
          <h2 id="faq-title">Questions</h2>
          {FAQ.map(([question, answer]) => (
            <details>
              <summary safe>{question}</summary>
              <p safe>{answer}</p>
            </details>
          ))}
        </section>

        <section class="partner-contact">
          <h2>Talk to us</h2>
          <p>
            Write to{" "}
            <a href={`mailto:${props.partnerEmail}`} safe>
              {props.partnerEmail}
            </a>{" "}
            for custom packages, venues with several events or press.
          </p>
        </section>
      </main>
      <div class="sticky-book" role="region" aria-label="Book">
        <a class="button button-primary" href="#packages">
          Book Spotlight
        </a>
      </div>
      <SiteFooter />
    </Layout>
  );
}

/** The status block as a page of its own (no JavaScript). */
export function SpotlightStatusPage(props: { status: SpotlightStatus | undefined; now: Date }): JSX.Element {
  return (
    <Layout title="Spotlight status | finder" scripts={["feature-event.js"]}>
      <SiteHeader />
      <main id="main" class="page partner-page">
        <p>
          <a href="/feature-event">← Back to partner packages</a>
        </p>
        <SpotlightStatusBlock status={props.status} now={props.now} />
      </main>
      <SiteFooter />
    </Layout>
  );
}
