// /partner-success, /privacy, /terms and /offline: static pages (see docs/public-pages.md).

import { SUBMISSION_RETENTION_MONTHS } from "../../lib/submissions/retention.ts";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import { type MessageKey, t, tHtml } from "../../lib/i18n/index.ts";
import { pageHref, SITE_NAME } from "../../lib/links.ts";
import { SESSION_STORAGE_KEY } from "../../lib/tracking/validation.ts";

/** After payment: the partner is in the activation queue. */
export function PartnerSuccessPage(props: { partnerEmail: string }): JSX.Element {
  return (
    <Layout title={t("partnerSuccess.title", { site: SITE_NAME })} noindex>
      <SiteHeader />
      <main id="main" class="page narrow partner-success">
        <p class="success-check" aria-hidden="true">
          ✓
        </p>
        <p class="kicker" safe>
          {t("partnerSuccess.kicker")}
        </p>
        <h1 safe>{t("partnerSuccess.heading")}</h1>
        <p class="lead" safe>
          {t("partnerSuccess.lead")}
        </p>
        <div class="hero-actions">
          <a class="button button-primary" href={`mailto:${props.partnerEmail}?subject=${encodeURIComponent(t("partnerSuccess.subject"))}`} safe>
            {t("partnerSuccess.email")}
          </a>
          <a class="button" href={pageHref("/feature-event")} safe>
            {t("partnerSuccess.back")}
          </a>
        </div>
      </main>
      <SiteFooter />
    </Layout>
  );
}

/**
 * The page the service worker shows for a page it does not keep (the submission form, reporting,
 * sign-in, the partner pages) when the network fails (docs/public-pages.md, "Offline"): what needs
 * a connection and what still opens without one.
 */
export function OfflinePage(): JSX.Element {
  return (
    <Layout title={t("offline.page.title")} noindex scripts={["offline.js"]}>
      <SiteHeader />
      <main id="main" class="page narrow offline-page">
        <h1 safe>{t("offline.page.heading")}</h1>
        <p class="lead" safe>
          {t("offline.page.lead")}
        </p>
        <p safe>{t("offline.page.works")}</p>
        <div class="hero-actions">
          <a class="button button-primary" href="/" safe>
            {t("offline.page.calendar")}
          </a>
          <a class="button" href="/my-night" safe>
            {t("offline.page.night")}
          </a>
          <button type="button" class="button button-quiet" data-offline-retry hidden safe>
            {t("offline.page.retry")}
          </button>
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

const DATA_USES = ["session", "interactions", "searches", "account", "submissions", "reports", "orders", "abuse"] as const;
type DataUseKey = (typeof DATA_USES)[number];

/** How long a use's records are kept: interactions and searches are added into daily totals as they arrive and deleted after `retentionDays`. */
function keptText(use: DataUseKey, retentionDays: number): string {
  if (use === "interactions" || use === "searches") return t("privacy.rolled", { days: retentionDays });
  // The purge-submissions task applies the same constant.
  if (use === "submissions") return t("privacy.use.submissions.kept", { months: SUBMISSION_RETENTION_MONTHS });
  return t(`privacy.use.${use}.kept`);
}

/** What is kept and for how long, in the current language; `retentionDays` is how long raw tracking records are kept. */
function dataUses(retentionDays: number): readonly DataUse[] {
  return DATA_USES.map((use) => ({
    what: t(`privacy.use.${use}.what`),
    detail: t(`privacy.use.${use}.detail`),
    why: t(`privacy.use.${use}.why`),
    kept: keptText(use, retentionDays),
  }));
}

/** What finder collects, why, how long, and who to ask. */
export function PrivacyPage(props: { contactEmail: string; siteHost: string; retentionDays: number; alternates?: string }): JSX.Element {
  const mail = `mailto:${props.contactEmail}?subject=${encodeURIComponent(t("privacy.subject"))}`;
  // Catalogue markup with the host escaped (see tHtml).
  const safeLead = tHtml("privacy.leadHtml", { host: props.siteHost });
  const safeDevice = tHtml("privacy.deviceHtml");
  const safeRights = tHtml("privacy.rightsHtml", { sessionKey: SESSION_STORAGE_KEY });
  const safeOthers = (["privacy.others.tilesHtml", "privacy.others.paymentsHtml", "privacy.others.venuesHtml", "privacy.others.linksHtml", "privacy.others.partnersHtml"] as const).map((key) => tHtml(key));
  return (
    <Layout title={t("privacy.title", { site: SITE_NAME })} description={t("privacy.description")} alternates={props.alternates}>
      <SiteHeader />
      <main id="main" class="page narrow prose privacy">
        <p class="kicker" safe>
          {t("privacy.kicker")}
        </p>
        <h1 safe>{t("privacy.heading")}</h1>
        <p class="lead">{safeLead}</p>

        <h2 safe>{t("privacy.short")}</h2>
        <ul>
          {(["privacy.short.1", "privacy.short.2", "privacy.short.3"] as const).map((key) => (
            <li safe>{t(key)}</li>
          ))}
        </ul>

        <h2 safe>{t("privacy.keep")}</h2>
        <div class="privacy-uses">
          {dataUses(props.retentionDays).map((use) => (
            <section class="privacy-use">
              <h3 safe>{use.what}</h3>
              <p safe>{use.detail}</p>
              <dl>
                <dt safe>{t("privacy.why")}</dt>
                <dd safe>{use.why}</dd>
                <dt safe>{t("privacy.howLong")}</dt>
                <dd safe>{use.kept}</dd>
              </dl>
            </section>
          ))}
        </div>

        <h2 safe>{t("privacy.device")}</h2>
        <p>{safeDevice}</p>

        <h2 safe>{t("privacy.others")}</h2>
        <ul>
          {safeOthers.map((safeItem) => (
            <li>{safeItem}</li>
          ))}
        </ul>
        <p safe>{t("privacy.team")}</p>

        <h2 safe>{t("privacy.legal")}</h2>
        <p safe>{t("privacy.legal.text")}</p>

        <h2 safe>{t("privacy.rights")}</h2>
        <p>{safeRights}</p>

        <h2 safe>{t("privacy.contact")}</h2>
        <p>
          <span safe>{t("privacy.contact.before")}</span>{" "}
          <a href={mail} safe>
            {props.contactEmail}
          </a>
          <span safe>{t("privacy.contact.after")}</span>
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}

/** The rules for visitors, hosts and partners, beside the privacy notice. */
export function TermsPage(props: { contactEmail: string; siteHost: string; alternates?: string }): JSX.Element {
  const mail = `mailto:${props.contactEmail}?subject=${encodeURIComponent(t("terms.subject"))}`;
  // Catalogue markup with the host escaped (see tHtml).
  const safeLead = tHtml("terms.leadHtml", { host: props.siteHost, privacyHref: pageHref("/privacy") });
  const list = (keys: readonly MessageKey[]) => (
    <ul>
      {keys.map((key) => (
        <li safe>{t(key)}</li>
      ))}
    </ul>
  );
  return (
    <Layout title={t("terms.title", { site: SITE_NAME })} description={t("terms.description")} alternates={props.alternates}>
      <SiteHeader />
      <main id="main" class="page narrow prose terms">
        <p class="kicker" safe>
          {t("terms.kicker")}
        </p>
        <h1 safe>{t("terms.heading")}</h1>
        <p class="lead">{safeLead}</p>

        <h2 safe>{t("terms.visitors")}</h2>
        {list(["terms.visitors.1", "terms.visitors.2", "terms.visitors.3"])}

        <h2 safe>{t("terms.hosts")}</h2>
        {list(["terms.hosts.1", "terms.hosts.2", "terms.hosts.3"])}

        <h2 safe>{t("terms.partners")}</h2>
        {list(["terms.partners.1", "terms.partners.2", "terms.partners.3", "terms.partners.4"])}

        <h2 safe>{t("terms.fair")}</h2>
        <p safe>{t("terms.fair.text")}</p>

        <h2 safe>{t("terms.contact")}</h2>
        <p>
          <span safe>{t("terms.contact.before")}</span>{" "}
          <a href={mail} safe>
            {props.contactEmail}
          </a>
          <span safe>{t("terms.contact.after")}</span>
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}
