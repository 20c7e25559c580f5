// The /submit-event page (see docs/public-pages.md, "/submit-event"): the host submission form, its
// inline errors and notices. The same SubmissionForm renders inside the page and as the htmx
// fragment.

import { assetUrl } from "../../lib/serving/static-assets.ts";
import Html from "@kitajs/html";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import { markup } from "../../lib/http/responses.ts";
import { SUBMISSION_FIELDS, type SubmissionFieldName, type SubmissionIssue } from "../../lib/submissions/validation.ts";
import { formatDay, type MessageKey, t } from "../../lib/i18n/index.ts";
import { pageHref, SITE_NAME } from "../../lib/links.ts";
import { IDEMPOTENCY_FIELD } from "../../lib/http/idempotency.ts";
import { OfflineNotice } from "../components/offline-notice.view.tsx";

/** Root id of the swappable form fragment; every hx-target on this page points here. */
export const SUBMISSION_FORM_ID = "event-submission";

/** Texts of the submission page: headings, notices and error messages. */
/** A wait as people say it: "40 seconds", "10 minutes", "about 24 hours" (rounded up). */
export function waitText(seconds: number): string {
  if (seconds < 90) return t("submit.wait.second", { count: Math.max(1, Math.ceil(seconds)) });
  if (seconds < 90 * 60) return t("submit.wait.minute", { count: Math.ceil(seconds / 60) });
  return t("submit.wait.hour", { count: Math.ceil(seconds / 3600) });
}

/** Notices of the submission page, in the current language (called while rendering). */
export const SUBMIT_PAGE_TEXT = {
  closed: () => t("submit.closed"),
  tooMany: (seconds: number) => t("submit.tooMany", { wait: waitText(seconds) }),
  duplicate: () => t("submit.duplicate"),
  keyReused: () => t("submit.keyReused"),
  unavailable: () => t("submit.unavailable"),
  invalid: () => t("submit.invalid"),
  invalidPayload: () => t("submit.invalidPayload"),
  tooLarge: () => t("submit.tooLarge"),
  crossSite: () => t("submit.crossSite"),
  thanks: () => t("submit.thanks"),
} as const;

/** Everything the form shows; values are what the host typed (re-shown after an error). */
export interface SubmissionFormState {
  enabled: boolean;
  values: Partial<Record<SubmissionFieldName | "formStartedAt" | typeof IDEMPOTENCY_FIELD, string>>;
  issues: SubmissionIssue[];
  notice?: { kind: "success" | "error"; text: string; /** What happens next, after a submission was received. */ next?: boolean };
}

/** The empty form of a fresh visit. */
export function emptyFormState(enabled: boolean): SubmissionFormState {
  return { enabled, values: {}, issues: [], notice: enabled ? undefined : { kind: "error", text: SUBMIT_PAGE_TEXT.closed() } };
}

/** htmx settings of this page: swap 422/429/503 answers (they carry the form) and give up after 12 s. */
export const SUBMIT_HTMX_CONFIG = {
  timeout: 12000,
  responseHandling: [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "(400|422|429|503)", swap: true, error: false },
    { code: "[45]..", swap: false, error: true },
  ],
};

const OPTIONAL: readonly SubmissionFieldName[] = ["endTime", "genre", "price", "age", "indoorOutdoor", "arrondissement", "notes"];

/** Each field's input; label, hint and placeholder are catalogue keys ("https://" is not a word). */
const INPUTS: Record<SubmissionFieldName, { type: string; hint?: MessageKey; placeholder?: MessageKey | "https://"; autocomplete?: string; inputmode?: string }> = {
  eventName: { type: "text", autocomplete: "off" },
  date: { type: "date" },
  startTime: { type: "time" },
  location: { type: "text", hint: "submit.hint.location", autocomplete: "off" },
  hostEmail: { type: "email", hint: "submit.hint.hostEmail", autocomplete: "email" },
  proofLink: { type: "text", hint: "submit.hint.proofLink", placeholder: "https://", inputmode: "url", autocomplete: "url" },
  endTime: { type: "time" },
  genre: { type: "text", placeholder: "submit.placeholder.genre" },
  price: { type: "text", placeholder: "submit.placeholder.price" },
  age: { type: "text", placeholder: "submit.placeholder.age" },
  indoorOutdoor: { type: "select" },
  arrondissement: { type: "text", placeholder: "submit.placeholder.arrondissement" },
  notes: { type: "textarea" },
};

/** The sheet's setting values (sent as written); their labels come from the catalogue. */
const SETTING_OPTIONS = ["Indoor", "Outdoor", "Indoor/Outdoor"] as const;

/** A field's label in the current language. */
export function fieldLabel(name: SubmissionFieldName): string {
  return t(`submit.field.${name}`);
}

/** An issue of a field as the visitor reads it: the catalogue's sentence for its code. */
export function issueText(issue: SubmissionIssue): string {
  const field = issue.field as SubmissionFieldName;
  const known = SUBMISSION_FIELDS.some((f) => f.name === field);
  switch (issue.code) {
    case "required":
      return known ? t("submit.error.required", { field: fieldLabel(field) }) : t("submit.error.invalid");
    case "text":
      return known ? t("submit.error.text", { field: fieldLabel(field) }) : t("submit.error.invalid");
    case "tooShort":
      return known ? t("submit.error.tooShort", { field: fieldLabel(field), min: issue.limit ?? 0 }) : t("submit.error.invalid");
    case "tooLong":
      return known ? t("submit.error.tooLong", { field: fieldLabel(field), max: issue.limit ?? 0 }) : t("submit.error.invalid");
    case "hostEmail":
      return t("submit.error.hostEmail");
    case "proofLink":
      return t("submit.error.proofLink");
    case "date":
      return t("submit.error.date");
    case "outsideFestival":
      return issue.range ? t("submit.error.outsideFestival", { from: formatDay(issue.range.from), to: formatDay(issue.range.to) }) : t("submit.error.invalid");
    case "time":
      return t("submit.error.time");
    case "endBeforeStart":
      return t("submit.error.endBeforeStart");
    case "arrondissement":
      return t("submit.error.arrondissement");
    default:
      return t("submit.error.invalid");
  }
}

function Field(props: { name: SubmissionFieldName; state: SubmissionFormState }): JSX.Element {
  const { name, state } = props;
  const input = INPUTS[name];
  const spec = SUBMISSION_FIELDS.find((f) => f.name === name)!;
  const value = state.values[name] ?? "";
  const issue = state.issues.find((i) => i.field === name);
  const id = `submit-${name}`;
  const describedBy = [input.hint ? `${id}-hint` : "", issue ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const common = { id, name, "aria-invalid": issue ? "true" : undefined, "aria-describedby": describedBy };
  let control: JSX.Element;
  if (input.type === "textarea") {
    control = (
      <textarea {...common} rows="5" maxlength={String(spec.max)} safe>
        {value}
      </textarea>
    );
  } else if (input.type === "select") {
    const known = (SETTING_OPTIONS as readonly string[]).includes(value);
    control = (
      <select {...common}>
        <option value="" safe>
          {t("submit.notSure")}
        </option>
        {SETTING_OPTIONS.map((option) => (
          <option value={option} selected={option === value} safe>
            {t(`submit.setting.${option}`)}
          </option>
        ))}
        {known || value === "" ? (
          ""
        ) : (
          <option value={value} selected safe>
            {value}
          </option>
        )}
      </select>
    );
  } else {
    control = (
      <input
        {...common}
        type={input.type}
        value={value}
        required={spec.required}
        maxlength={input.type === "text" || input.type === "email" ? String(spec.max) : undefined}
        minlength={spec.min !== undefined ? String(spec.min) : undefined}
        placeholder={input.placeholder === undefined || input.placeholder === "https://" ? input.placeholder : t(input.placeholder)}
        autocomplete={input.autocomplete}
        inputmode={input.inputmode}
      />
    );
  }
  return (
    <div class={issue ? "form-field has-error" : "form-field"}>
      <label for={id}>
        {Html.escapeHtml(fieldLabel(name))}
        {spec.required ? (
          <span class="required" aria-hidden="true">
            {" "}
            *
          </span>
        ) : (
          ""
        )}
      </label>
      {input.hint ? (
        <p class="form-hint" id={`${id}-hint`} safe>
          {t(input.hint)}
        </p>
      ) : (
        ""
      )}
      {control}
      {issue ? (
        <p class="field-error" id={`${id}-error`} safe>
          {issueText(issue)}
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

/** The form with its notice; the fragment htmx swaps. */
export function SubmissionForm(props: { state: SubmissionFormState }): JSX.Element {
  const { state } = props;
  const optionalOpen = state.issues.some((i) => OPTIONAL.includes(i.field as SubmissionFieldName)) || OPTIONAL.some((name) => (state.values[name] ?? "") !== "");
  return (
    <div id={SUBMISSION_FORM_ID} class="submission">
      {state.notice ? (
        <div class={state.notice.kind === "success" ? "notice notice-success" : "notice notice-error"} role={state.notice.kind === "success" ? "status" : "alert"} tabindex="-1" data-submit-notice>
          <span safe>{state.notice.text}</span>
          {state.notice.next ? (
            <div class="submit-next" data-submit-next>
              <p>
                <strong safe>{t("submit.next.heading")}</strong>
              </p>
              <ol>
                <li safe>{t("submit.next.review")}</li>
                <li safe>{t("submit.next.email")}</li>
                <li safe>{t("submit.next.editLink")}</li>
              </ol>
            </div>
          ) : (
            ""
          )}
        </div>
      ) : (
        ""
      )}
      <form
        class="submit-form"
        action={pageHref("/submit-event")}
        method="post"
        hx-post={pageHref("/submit-event")}
        hx-target={`#${SUBMISSION_FORM_ID}`}
        hx-swap="outerHTML"
        hx-disabled-elt="find button[type=submit]"
      >
        <fieldset disabled={!state.enabled}>
          <legend class="visually-hidden" safe>
            {t("submit.legend")}
          </legend>
          <div class="form-grid">
            <Field name="eventName" state={state} />
            <Field name="date" state={state} />
            <Field name="startTime" state={state} />
            <Field name="location" state={state} />
            <Field name="hostEmail" state={state} />
            <Field name="proofLink" state={state} />
          </div>
          <details class="optional-fields" open={optionalOpen}>
            <summary safe>{t("submit.optional")}</summary>
            <div class="form-grid">
              <Field name="endTime" state={state} />
              <Field name="genre" state={state} />
              <Field name="price" state={state} />
              <Field name="age" state={state} />
              <Field name="indoorOutdoor" state={state} />
              <Field name="arrondissement" state={state} />
            </div>
            <Field name="notes" state={state} />
          </details>
          <div class="honeypot" aria-hidden="true">
            <label for="submit-website" safe>
              {t("submit.honeypot")}
            </label>
            <input id="submit-website" type="text" name="website" value="" tabindex="-1" autocomplete="off" />
          </div>
          <input type="hidden" name="formStartedAt" value={state.values.formStartedAt ?? ""} />
          {/* The form's idempotency key: static/submit-event.js stamps one when empty; a re-shown form keeps it. */}
          <input type="hidden" name={IDEMPOTENCY_FIELD} value={state.values.idempotencyKey ?? ""} data-idempotency-key />
          <div class="form-actions">
            <button class="button button-primary" type="submit" safe>
              {t("submit.send")}
            </button>
            <p class="form-status" role="status" aria-live="polite" data-submit-status></p>
          </div>
        </fieldset>
      </form>
    </div>
  );
}

/** The whole page. */
export function SubmitPage(props: { state: SubmissionFormState; alternates?: string }): JSX.Element {
  const head = markup(<link rel="stylesheet" href={assetUrl("forms.css")} />);
  return (
    <Layout title={t("submit.title", { site: SITE_NAME })} description={t("submit.description")} head={head} alternates={props.alternates} htmxConfig={SUBMIT_HTMX_CONFIG} scripts={["messages.js", "submit-event.js", "offline.js"]}>
      <SiteHeader />
      <main id="main" class="page narrow submit-page">
        <OfflineNotice />
        <p class="kicker" safe>
          {t("submit.kicker")}
        </p>
        <h1 safe>{t("submit.heading")}</h1>
        <p safe>{t("submit.intro")}</p>
        <p>
          <a href={pageHref("/feature-event")} safe>
            {t("submit.featureLink")}
          </a>
        </p>
        <p class="muted form-legend" safe>
          {t("submit.required")}
        </p>
        <SubmissionForm state={props.state} />
      </main>
      <SiteFooter />
    </Layout>
  );
}
