// The page a "Report a problem" form answers without JavaScript (see docs/public-pages.md,
// "Report a problem"): the event's name, the report section (thanks or the form with its errors)
// and a link back to the event.

import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import { t } from "../../lib/i18n/index.ts";
import { eventModalHref, pageHref } from "../../lib/links.ts";
import { attr } from "../components/attr.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { ReportSection, type ReportFormState } from "../components/report.view.tsx";

export function ReportPage(props: { eventKey: string; event?: LiveEvent; state: ReportFormState }): JSX.Element {
  const name = props.event?.eventName ?? "";
  return (
    <Layout title={t("report.pageTitle", { event: name || props.eventKey })} noindex scripts={["report.js"]}>
      <SiteHeader />
      <main id="main" class="page narrow report-page">
        <p class="kicker" safe>
          {t("report.title")}
        </p>
        {name ? <h1 safe>{name}</h1> : ""}
        <ReportSection eventKey={props.eventKey} state={props.state} />
        <p>
          <a class="button button-quiet" href={props.event ? attr(eventModalHref(props.event)) : pageHref("/")} safe>
            {t("report.backToEvent")}
          </a>
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}
