// The /submit-event page (see docs/public-pages.md, "/submit-event"): the host submission form, its
// inline errors and notices. The same SubmissionForm renders inside the page and as the htmx
// fragment.

import { assetUrl } from "../../lib/static-assets.ts";
import Html from "@kitajs/html";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import { markup } from "../../lib/http.ts";
import { SUBMISSION_FIELDS, type SubmissionFieldName, type SubmissionIssue } from "../../lib/submissions/validation.ts";

/** Root id of the swappable form fragment; every hx-target on this page points here. */
export const SUBMISSION_FORM_ID = "event-submission";

/** Texts of the submission page: headings, notices and error messages. */
/** A wait as people say it: "40 seconds", "10 minutes", "about 24 hours" (rounded up). */
export function waitText(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds < 90) return plural(Math.max(1, Math.ceil(seconds)), "second");
  if (seconds < 90 * 60) return plural(Math.ceil(seconds / 60), "minute");
  return plural(Math.ceil(seconds / 3600), "hour");
}

export const SUBMIT_PAGE_TEXT = {
  kicker: "Host Submission",
  heading: "Submit Your Event",
  intro: "Tell us about your Fête de la Musique event. Our team reviews every submission and publishes the accepted ones on the calendar.",
  closed: "Event submissions are currently closed. Please check back later.",
  tooMany: (seconds: number) => `Too many submissions right now. Please try again in about ${waitText(seconds)}.`,
  duplicate: "We already have this event; it is waiting for review.",
  unavailable: "Submissions are unavailable right now. Please try again in a moment.",
  invalid: "Please check the highlighted fields.",
  invalidPayload: "We could not read that submission. Please try again.",
  tooLarge: "That submission is too large. Please shorten the description and try again.",
  crossSite: "This form can only be sent from the finder site itself.",
} as const;

/** Everything the form shows; values are what the host typed (re-shown after an error). */
export interface SubmissionFormState {
  enabled: boolean;
  values: Partial<Record<SubmissionFieldName | "formStartedAt", string>>;
  issues: SubmissionIssue[];
  notice?: { kind: "success" | "error"; text: string };
}

/** The empty form of a fresh visit. */
export function emptyFormState(enabled: boolean): SubmissionFormState {
  return { enabled, values: {}, issues: [], notice: enabled ? undefined : { kind: "error", text: SUBMIT_PAGE_TEXT.closed } };
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

const INPUTS: Record<SubmissionFieldName, { type: string; label: string; hint?: string; placeholder?: string; autocomplete?: string; inputmode?: string }> = {
  eventName: { type: "text", label: "Event Name", autocomplete: "off" },
  date: { type: "date", label: "Date" },
  startTime: { type: "time", label: "Start Time" },
  location: { type: "text", label: "Location", hint: "Venue name and address", autocomplete: "off" },
  hostEmail: { type: "email", label: "Host Email", hint: "We only use it about this submission", autocomplete: "email" },
  proofLink: { type: "text", label: "Proof Link", hint: "A page that shows the event: ticket page, social post or website", placeholder: "https://", inputmode: "url", autocomplete: "url" },
  endTime: { type: "time", label: "End Time" },
  genre: { type: "text", label: "Genre", placeholder: "e.g. House, Afrobeats" },
  price: { type: "text", label: "Price", placeholder: "e.g. Free, €10" },
  age: { type: "text", label: "Age", placeholder: "e.g. All ages, 18+" },
  indoorOutdoor: { type: "select", label: "Indoor/Outdoor" },
  arrondissement: { type: "text", label: "Arrondissement", placeholder: "1-20 or unknown" },
  notes: { type: "textarea", label: "Notes" },
};

const SETTING_OPTIONS = ["Indoor", "Outdoor", "Indoor/Outdoor"];

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
    const options = SETTING_OPTIONS.includes(value) || value === "" ? SETTING_OPTIONS : [...SETTING_OPTIONS, value];
    control = (
      <select {...common}>
        <option value="">Not sure yet</option>
        {options.map((option) => (
          <option value={option} selected={option === value} safe>
            {option}
          </option>
        ))}
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
        placeholder={input.placeholder}
        autocomplete={input.autocomplete}
        inputmode={input.inputmode}
      />
    );
  }
  return (
    <div class={issue ? "form-field has-error" : "form-field"}>
      <label for={id}>
        {Html.escapeHtml(input.label)}
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
          {input.hint}
        </p>
      ) : (
        ""
      )}
      {control}
      {issue ? (
        <p class="field-error" id={`${id}-error`} safe>
          {issue.message}
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
        </div>
      ) : (
        ""
      )}
      <form
        class="submit-form"
        action="/submit-event"
        method="post"
        hx-post="/submit-event"
        hx-target={`#${SUBMISSION_FORM_ID}`}
        hx-swap="outerHTML"
        hx-disabled-elt="find button[type=submit]"
      >
        <fieldset disabled={!state.enabled}>
          <legend class="visually-hidden">Event details</legend>
          <div class="form-grid">
            <Field name="eventName" state={state} />
            <Field name="date" state={state} />
            <Field name="startTime" state={state} />
            <Field name="location" state={state} />
            <Field name="hostEmail" state={state} />
            <Field name="proofLink" state={state} />
          </div>
          <details class="optional-fields" open={optionalOpen}>
            <summary>Optional details</summary>
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
            <label for="submit-website">Website</label>
            <input id="submit-website" type="text" name="website" value="" tabindex="-1" autocomplete="off" />
          </div>
          <input type="hidden" name="formStartedAt" value={state.values.formStartedAt ?? ""} />
          <div class="form-actions">
            <button class="button button-primary" type="submit">
              Submit event
            </button>
            <p class="form-status" role="status" aria-live="polite" data-submit-status></p>
          </div>
        </fieldset>
      </form>
    </div>
  );
}

/** The whole page. */
export function SubmitPage(props: { state: SubmissionFormState }): JSX.Element {
  const head = markup(<link rel="stylesheet" href={assetUrl("forms.css")} />);
  return (
    <Layout title="Submit your event | finder" description="Hosting a Fête de la Musique event in Paris? Submit it for review." head={head} htmxConfig={SUBMIT_HTMX_CONFIG} scripts={["submit-event.js"]}>
      <SiteHeader />
      <main id="main" class="page narrow submit-page">
        <p class="kicker">{SUBMIT_PAGE_TEXT.kicker}</p>
        <h1>{SUBMIT_PAGE_TEXT.heading}</h1>
        <p>{SUBMIT_PAGE_TEXT.intro}</p>
        <p>
          <a href="/feature-event">Want more visibility on Fête night? Feature your event →</a>
        </p>
        <p class="muted form-legend">Fields marked * are required.</p>
        <SubmissionForm state={props.state} />
      </main>
      <SiteFooter />
    </Layout>
  );
}
