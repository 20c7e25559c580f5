// /partner-success and /privacy: two static pages (see docs/public-pages.md).

import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";

/** After payment: the partner is in the activation queue. */
export function PartnerSuccessPage(props: { partnerEmail: string }): JSX.Element {
  return (
    <Layout title="Payment confirmed | finder" noindex>
      <SiteHeader />
      <main id="main" class="page narrow partner-success">
        <p class="success-check" aria-hidden="true">
          ✓
        </p>
        <p class="kicker">Payment confirmed</p>
        <h1>You are in the activation queue</h1>
        <p class="lead">
          Thank you for supporting finder. The team checks every order by hand and activates your placement shortly; you will receive your private
          statistics link by email once it is live.
        </p>
        <div class="hero-actions">
          <a class="button button-primary" href={`mailto:${props.partnerEmail}?subject=${encodeURIComponent("My finder placement")}`}>
            Email partnership team
          </a>
          <a class="button" href="/feature-event">
            Back to partner page
          </a>
        </div>
      </main>
      <SiteFooter />
    </Layout>
  );
}

/** One row of the privacy table: what, why, how long. */
interface DataUse {
  what: string;
  detail: string;
  why: string;
  kept: string;
}

/** What is kept and for how long; `retentionDays` is how long raw tracking records are kept. */
function dataUses(retentionDays: number): readonly DataUse[] {
  const rolled = `Kept as individual records for ${retentionDays} days, then deleted. As they arrive they are also added into daily totals per event (counts) and, for each anonymous session id, the time of its latest interaction overall and per event, never an email; these totals are kept for the statistics of past festivals. If you ask us to erase your data, your email is removed from these records at once and they remain only as anonymous counts.`;
  return [
  {
    what: "Anonymous session id",
    detail: "A random identifier created in your browser and kept in its local storage. It says nothing about who you are.",
    why: "To count unique visitors and avoid counting one visit twice.",
    kept: "In your browser until you clear its storage; the records below carry it for as long as they are kept.",
  },
  {
    what: "Interactions",
    detail: "Opening an event, following its link and downloading its calendar file, with the event, the page, the time and whether you were signed in.",
    why: "The public \u201cpeople saved this\u201d counts, totals for event hosts and partners, and improving the calendar.",
    kept: rolled,
  },
  {
    what: "Searches and filters",
    detail: "The words you search for and the filters you switch on or clear, with the page and the time.",
    why: "Finding out what people look for, to improve search and the event list.",
    kept: rolled,
  },
  {
    what: "Your email, optional names and consent",
    detail: "Only if you sign in: your email, the first and last name if you give them, your agreement to this notice, and when you signed in. The genres you pick are then remembered.",
    why: "Keeping you signed in and suggesting the genres you like first.",
    kept: "Until you ask us to erase your data: we then delete your account, its sign-in history and your genre choices. The sign-in cookie lasts 30 days or until you sign out.",
  },
  {
    what: "Event submissions",
    detail: "The event details you send, your email, the proof link, your notes, and spam checks (how fast the form was filled in).",
    why: "Reviewing the event and contacting you about it. Accepted events are published without your email.",
    kept: "Until you ask us to delete them; we review and remove old submissions after each festival season. Published events stay in the calendar.",
  },
  {
    what: "Placement orders",
    detail: "The name, email, event and package of a paid placement, and the amount. Card details stay with the payment provider and never reach us.",
    why: "Activating your placement, sending your statistics link, and our accounts.",
    kept: "As long as accounting law requires (up to 10 years in France).",
  },
  {
    what: "Abuse-protection counters",
    detail: "Counts of requests stored under one-way keyed hashes (HMAC-SHA-256) of your IP address, and of your email where a form takes one. The hash cannot be turned back into the address.",
    why: "Limiting how often one address can sign in, submit events or request images, so the service stays up.",
    kept: "Deleted automatically a day after their counting window ends.",
  },
];
}

/** What finder collects, why, how long, and who to ask. */
export function PrivacyPage(props: { contactEmail: string; siteHost: string; retentionDays: number }): JSX.Element {
  const mail = `mailto:${props.contactEmail}?subject=${encodeURIComponent("Privacy request")}`;
  return (
    <Layout title="Privacy | finder" description="What finder collects, why, and for how long.">
      <SiteHeader />
      <main id="main" class="page narrow prose privacy">
        <p class="kicker">Privacy notice</p>
        <h1>What finder collects and why</h1>
        <p class="lead">
          finder is a public calendar of Fête de la Musique events in Paris. You can browse, search, filter and save every event without an account.
          This notice says what we keep when you use the site at <span safe>{props.siteHost}</span>, why, for how long, and how to reach us.
        </p>

        <h2>In short</h2>
        <ul>
          <li>We do not store IP addresses of visitors, in our database or in our logs.</li>
          <li>No advertising, no third-party analytics, no selling of data. Our statistics are first-party and counted on our own servers.</li>
          <li>Signing in is optional and only personalises the site; nothing is hidden from anonymous visitors.</li>
        </ul>

        <h2>What we keep</h2>
        <div class="privacy-uses">
          {dataUses(props.retentionDays).map((use) => (
            <section class="privacy-use">
              <h3 safe>{use.what}</h3>
              <p safe>{use.detail}</p>
              <dl>
                <dt>Why</dt>
                <dd safe>{use.why}</dd>
                <dt>How long</dt>
                <dd safe>{use.kept}</dd>
              </dl>
            </section>
          ))}
        </div>

        <h2>On your device</h2>
        <p>
          Besides the anonymous session id, your browser keeps your last filters and your preferred map app in local storage so the page opens the
          way you left it. Signing in sets one cookie, <code>finder_user_session</code> (HttpOnly, 30 days). We set no other cookies for visitors.
        </p>

        <h2>Who else sees anything</h2>
        <ul>
          <li>
            <strong>Map tiles</strong> come from OpenStreetMap's servers when you open the map, which then see your IP address and the part of Paris
            shown. Without opening the map, nothing is sent to them.
          </li>
          <li>
            <strong>Payments</strong> are handled by our payment provider under its own privacy policy.
          </li>
          <li>
            <strong>Venue addresses</strong> (never visitor data) are sent to a geocoding service to place events on the map.
          </li>
          <li>
            <strong>Event links</strong> take you to the hosts' own sites, which have their own policies.
          </li>
          <li>
            <strong>Partners</strong> who buy a placement see totals for their event (views, link clicks, calendar saves, unique sessions), never
            individual visitors.
          </li>
        </ul>
        <p>
          Members of the finder team who sign in to the admin console have their IP address and browser recorded with their session, for security;
          those records are deleted a week after the session expires.
        </p>

        <h2>Legal basis</h2>
        <p>
          Your consent for signing in (the checkbox on the sign-in form; you can withdraw it by asking us to delete your account); our legitimate
          interest in running, measuring and protecting a free public calendar for the anonymous statistics and the abuse counters; the contract
          for event submissions and paid placements; and our legal obligations for accounting records.
        </p>

        <h2>Your rights</h2>
        <p>
          Under the GDPR you can ask to see, correct or delete what we hold about you, to restrict or object to its use, and to receive it in a
          portable form. Write to us with your email, or with your anonymous session id (your browser's local storage key{" "}
          <code>finder:event-engagement-session</code>) for records that are not linked to an email. You can also complain to the CNIL (cnil.fr).
        </p>

        <h2>Contact</h2>
        <p>
          Write to{" "}
          <a href={mail} safe>
            {props.contactEmail}
          </a>
          . We answer within one month.
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}

/** The rules for visitors, hosts and partners, beside the privacy notice. */
export function TermsPage(props: { contactEmail: string; siteHost: string }): JSX.Element {
  const mail = `mailto:${props.contactEmail}?subject=${encodeURIComponent("Terms of use")}`;
  return (
    <Layout title="Terms of use | finder" description="The rules for using finder, submitting events and buying placements.">
      <SiteHeader />
      <main id="main" class="page narrow prose terms">
        <p class="kicker">Terms of use</p>
        <h1>Using finder</h1>
        <p class="lead">
          finder is a free public calendar of Fête de la Musique events in Paris, at <span safe>{props.siteHost}</span>. These terms apply to
          everyone who uses it: visitors, hosts who submit events, and partners who buy a placement. Our <a href="/privacy">privacy notice</a> says
          what we keep and why.
        </p>

        <h2>For visitors</h2>
        <ul>
          <li>Browsing, searching, filtering and saving events is free and needs no account.</li>
          <li>
            Event details come from hosts and from our own research. We check them with care, but times, places, prices and age limits can change
            without notice: confirm with the host's own link before you travel.
          </li>
          <li>Events are run by their hosts, not by finder. Entry, safety and refunds are a matter between you and the host.</li>
        </ul>

        <h2>For hosts submitting an event</h2>
        <ul>
          <li>Submit only events you run or are entitled to announce, with true details and a link that proves the event exists.</li>
          <li>
            Every submission is reviewed by the team, who may accept, edit for clarity or decline it without giving a reason. Accepting an event does
            not mean we endorse it.
          </li>
          <li>We may take down an event at any time, for instance when it is cancelled, misleading or unlawful.</li>
        </ul>

        <h2>For partners buying a placement</h2>
        <ul>
          <li>
            A spotlight or promoted placement shows your event more prominently for the time window we confirm when it is activated. Placements
            are checked and activated by hand; the window can move when slots are full, and we tell you the window we set.
          </li>
          <li>
            Your private statistics link shows totals for your event (views, link clicks, calendar saves, unique sessions). Keep it private: anyone
            with the link can read those totals.
          </li>
          <li>Payment is handled by our payment provider. If we cannot activate a placement we refund it in full.</li>
          <li>A placement never changes the event's details, and we may decline or end one for an event we would take down.</li>
        </ul>

        <h2>Fair use</h2>
        <p>
          Do not disrupt the service: no automated flooding of the site or its forms, no attempts to reach the admin console or other people's
          data. The public calendar feed and events API may be reused with a link back to finder.
        </p>

        <h2>Contact</h2>
        <p>
          Questions about these terms: write to{" "}
          <a href={mail} safe>
            {props.contactEmail}
          </a>
          .
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}
