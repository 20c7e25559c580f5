// "Report a problem" on an event (see docs/public-pages.md, "Report a problem"): a plain form in
// the event modal that works without JavaScript (POST /event/<key>/report answers a page), enhanced
// by htmx (the answer replaces this section). Closed by default (<details>); static/report.js
// stamps formStartedAt and the form's idempotency key when it opens and lets htmx swap the 400/429
// answers that carry the form.

import Html from "@kitajs/html";
import { t } from "../../lib/i18n/index.ts";
import { IDEMPOTENCY_FIELD } from "../../lib/http/idempotency.ts";
import { REPORT_KINDS, REPORT_TEXT_MAX, type ReportIssue, type ReportKind } from "../../lib/reports/report.ts";

/** The id of the swappable report section. */
export const REPORT_SECTION_ID = "event-report";

/** Where an event's report form posts. */
export function reportPath(eventKey: string): string {
  return `/event/${encodeURIComponent(eventKey)}/report`;
}

/** What the section shows: the empty form, the form with what was sent and why it was refused, or the thanks. */
export interface ReportFormState {
  done?: boolean;
  /** `idempotencyKey`: the form's key, kept when the form is shown again (static/report.js stamps one when empty). */
  values?: { kind?: string; text?: string; idempotencyKey?: string };
  issues?: ReportIssue[];
  /** A refusal that is not about one field (too many, unavailable…). */
  error?: string;
}

const KIND_LABEL: Record<ReportKind, () => string> = {
  cancelled: () => t("report.kind.cancelled"),
  wrong_place: () => t("report.kind.wrong_place"),
  wrong_time: () => t("report.kind.wrong_time"),
  other: () => t("report.kind.other"),
};

function issueText(issue: ReportIssue): string {
  return issue.field === "kind" ? t("report.issue.kind") : t("report.issue.text", { max: REPORT_TEXT_MAX });
}

/** The report section of one event. */
export function ReportSection(props: { eventKey: string; state?: ReportFormState }): JSX.Element {
  const state = props.state ?? {};
  if (state.done) {
    return (
      <section id={REPORT_SECTION_ID} class="report report-done" aria-label={t("report.title")}>
        <p class="notice notice-success" role="status" tabindex="-1" data-report-notice safe>
          {t("report.thanks")}
        </p>
      </section>
    );
  }
  const issues = state.issues ?? [];
  const kindIssue = issues.find((i) => i.field === "kind");
  const textIssue = issues.find((i) => i.field === "text");
  const opened = issues.length > 0 || state.error !== undefined;
  const action = reportPath(props.eventKey);
  return (
    <details id={REPORT_SECTION_ID} class="report" open={opened} data-report>
      <summary safe>{t("report.title")}</summary>
      <form class="report-form" method="post" action={action} hx-post={action} hx-target={`#${REPORT_SECTION_ID}`} hx-swap="outerHTML" hx-disabled-elt="find button[type=submit]" novalidate>
        <p class="muted" safe>
          {t("report.intro")}
        </p>
        {state.error || issues.length ? (
          <p class="notice notice-error" role="alert" tabindex="-1" data-report-notice safe>
            {state.error ?? t("report.invalid")}
          </p>
        ) : (
          ""
        )}
        <fieldset class="report-kinds" aria-describedby={kindIssue ? "report-kind-error" : undefined}>
          <legend safe>{t("report.kindLegend")}</legend>
          {REPORT_KINDS.map((kind) => (
            <label class="report-kind">
              <input type="radio" name="kind" value={kind} required checked={state.values?.kind === kind} /> <span safe>{KIND_LABEL[kind]()}</span>
            </label>
          ))}
          {kindIssue ? (
            <p id="report-kind-error" class="field-error" safe>
              {issueText(kindIssue)}
            </p>
          ) : (
            ""
          )}
        </fieldset>
        <label for="report-text" safe>
          {t("report.text")}
        </label>
        <textarea
          id="report-text"
          name="text"
          rows="3"
          maxlength={String(REPORT_TEXT_MAX)}
          aria-invalid={textIssue ? "true" : undefined}
          aria-describedby={textIssue ? "report-text-hint report-text-error" : "report-text-hint"}
          safe
        >
          {state.values?.text ?? ""}
        </textarea>
        <small id="report-text-hint" class="muted" safe>
          {t("report.textHint", { max: REPORT_TEXT_MAX })}
        </small>
        {textIssue ? (
          <p id="report-text-error" class="field-error" safe>
            {issueText(textIssue)}
          </p>
        ) : (
          ""
        )}
        <div class="honeypot" aria-hidden="true">
          <label for="report-website" safe>
            {t("report.honeypot")}
          </label>
          <input id="report-website" type="text" name="website" value="" tabindex="-1" autocomplete="off" />
        </div>
        <input type="hidden" name="formStartedAt" value="" />
        <input type="hidden" name={IDEMPOTENCY_FIELD} value={state.values?.idempotencyKey ?? ""} data-idempotency-key />
        <button class="button" type="submit">
          {Html.escapeHtml(t("report.send"))}
        </button>
      </form>
    </details>
  );
}
