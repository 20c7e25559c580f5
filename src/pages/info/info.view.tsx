// /partner-success and /privacy: two static pages (domain.md §19.3).

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

/** What finder collects and why. */
export function PrivacyPage(props: { contactEmail: string }): JSX.Element {
  return (
    <Layout title="Privacy | finder" description="What finder collects, why, and for how long.">
      <SiteHeader />
      <main id="main" class="page narrow prose">
        <p class="kicker">Privacy</p>
        <h1>What finder collects and why</h1>
        <p>
          finder is a public calendar: you can browse, search, filter and save every event without an account. This page says what we keep when you
          use it.
        </p>
        <h2>When you browse</h2>
        <ul>
          <li>
            <strong>An anonymous session id</strong>: a random identifier kept in your browser's local storage, so we can count visits without knowing
            who you are.
          </li>
          <li>
            <strong>Interactions</strong>: opening an event, following its link and adding it to your calendar, with the page and the time. They give
            the "people saved this" counts and tell hosts and partners how their events are doing, in totals only.
          </li>
          <li>
            <strong>Searches and filters</strong>: the words you search for and the filters you apply, so we can improve the calendar.
          </li>
        </ul>
        <h2>When you sign in</h2>
        <p>
          Signing in is optional. We keep your <strong>email</strong>, the <strong>first and last name</strong> you choose to give, your{" "}
          <strong>consent</strong> and when you signed in. Your interactions are then linked to your email, and the genres you pick are remembered so
          we can suggest them first. A cookie keeps you signed in for 30 days; signing out removes it.
        </p>
        <h2>When you submit an event</h2>
        <p>
          We keep the event details, your email and the proof link you give, to review the event and contact you about it. Accepted events are
          published without your email.
        </p>
        <h2>What we never keep</h2>
        <p>
          We do not store IP addresses. To stop abuse we count requests under one-way keyed hashes of the address (and of the email where relevant),
          which cannot be turned back into the address, and delete these counters a day after their window ends. We do not sell data or use
          advertising trackers; the map loads tiles from OpenStreetMap when you open it.
        </p>
        <h2>How long</h2>
        <p>
          Interaction and search records are kept for the festival season and then deleted or aggregated. You can ask us at any time to see or delete
          what is linked to your email.
        </p>
        <h2>Contact</h2>
        <p>
          Write to{" "}
          <a href={`mailto:${props.contactEmail}`} safe>
            {props.contactEmail}
          </a>
          .
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}
