// The host's edit page, /edit-event/<link id>?token= (see docs/host-edit-link.md): what is listed
// now, the form to propose changes (time, venue, notes, link) with the proposal waiting for review,
// and the cancellation form. French first, English by the switch; plain forms that work on a phone
// without JavaScript. Views only.

import Html, { type Children } from "@kitajs/html";
import { assetUrl } from "../../lib/serving/static-assets.ts";
import { markup } from "../../lib/http/responses.ts";
import { currentLanguage, formatDay, t, type MessageKey } from "../../lib/i18n/index.ts";
import { SITE_NAME } from "../../lib/links.ts";
import { STATUS_NOTE_MAX } from "../../lib/sheet/status.ts";
import { EDITABLE_FIELDS, type ChangeSet, type EditableField, type ProposalIssue } from "../../lib/submissions/host-changes.ts";
import { EDIT_LINK_PATH, type EditLinkError } from "../../lib/submissions/host-links.ts";
import { Layout, SiteFooter } from "../components/layout.tsx";

/** What the page shows. */
export interface EditPageProps {
  linkId: string;
  token: string;
  title: string;
  date: string;
  publicHref: string;
  /** The published cells of the editable fields. */
  current: Record<EditableField, string>;
  cancelled: boolean;
  statusNote: string;
  /** The proposal waiting for review, if any. */
  pending?: ChangeSet;
  /** What the host typed (re-shown after an error). */
  values?: Partial<Record<EditableField | "note", string>>;
  issues?: ProposalIssue[];
  notice?: { kind: "success" | "error"; text: string };
}

const INPUT: Record<EditableField, { type: string; max: number; inputmode?: string }> = {
  startTime: { type: "time", max: 40 },
  endTime: { type: "time", max: 40 },
  location: { type: "text", max: 240 },
  area: { type: "text", max: 32, inputmode: "numeric" },
  notes: { type: "textarea", max: 3000 },
  primaryUrl: { type: "text", max: 2000, inputmode: "url" },
};

/** An issue as the host reads it. */
export function proposalIssueText(issue: ProposalIssue): string {
  return t(`edit.error.${issue.code}` as MessageKey);
}

function Field(props: { field: EditableField; value: string; issue?: ProposalIssue }): JSX.Element {
  const { field, issue } = props;
  const spec = INPUT[field];
  const id = `edit-${field}`;
  const common = { id, name: field, "aria-invalid": issue ? "true" : undefined, "aria-describedby": issue ? `${id}-error` : undefined };
  return (
    <div class={issue ? "form-field has-error" : "form-field"}>
      <label for={id} safe>
        {t(`edit.field.${field}`)}
      </label>
      {spec.type === "textarea" ? (
        <textarea {...common} rows="4" maxlength={String(spec.max)} safe>
          {props.value}
        </textarea>
      ) : (
        <input {...common} type={spec.type} value={props.value} maxlength={spec.type === "text" ? String(spec.max) : undefined} inputmode={spec.inputmode} />
      )}
      {issue ? (
        <p class="field-error" id={`${id}-error`} safe>
          {proposalIssueText(issue)}
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

function Page(props: { title: string; switchHref?: string; children?: Children }): JSX.Element {
  const head = markup(<link rel="stylesheet" href={assetUrl("forms.css")} />);
  const other = currentLanguage() === "fr" ? "en" : "fr";
  return (
    <Layout title={`${props.title} · ${SITE_NAME}`} head={head} noindex>
      <header class="site-header">
        <a class="brand" href="/">
          {SITE_NAME}
        </a>
        {props.switchHref ? (
          <nav aria-label={t("site.nav")}>
            <a class="language-switch" href={props.switchHref} hreflang={other} lang={other} rel="nofollow" safe>
              {t("edit.language")}
            </a>
          </nav>
        ) : (
          ""
        )}
      </header>
      <main id="main" class="page narrow submit-page host-edit-page">
        {props.children}
      </main>
      <SiteFooter />
    </Layout>
  );
}

/** The page when the link does not open (404, 400, 403, 410). */
export function EditLinkErrorPage(props: { error: EditLinkError | "crossSite" }): JSX.Element {
  return (
    <Page title={t("edit.error.heading")}>
      <h1 safe>{t("edit.error.heading")}</h1>
      <p class="notice notice-error" role="alert" data-edit-error={props.error} safe>
        {t(`edit.error.${props.error}`)}
      </p>
    </Page>
  );
}

function linkQuery(props: Pick<EditPageProps, "token">, lang?: string): string {
  return new URLSearchParams({ token: props.token, ...(lang ? { lang } : {}) }).toString();
}

/** The edit page. */
export function EditPage(props: EditPageProps): JSX.Element {
  const language = currentLanguage();
  const other = language === "fr" ? "en" : "fr";
  const base = `${EDIT_LINK_PATH}/${props.linkId}`;
  const issueOf = (field: string) => props.issues?.find((i) => i.field === field);
  const general = props.issues?.find((i) => i.field === "body");
  const value = (field: EditableField) => props.values?.[field] ?? props.pending?.[field]?.after ?? props.current[field];
  return (
    <Page title={t("edit.title")} switchHref={`${base}?${linkQuery(props, other)}`}>
      <p class="kicker" safe>
        {t("edit.title")}
      </p>
      <h1 safe>{props.title}</h1>
      <p safe>{t("edit.intro", { event: props.title })}</p>
      {props.notice ? (
        <div class={props.notice.kind === "success" ? "notice notice-success" : "notice notice-error"} role={props.notice.kind === "success" ? "status" : "alert"} data-edit-notice={props.notice.kind}>
          <span safe>{props.notice.text}</span>
          {general ? <p safe>{proposalIssueText(general)}</p> : ""}
        </div>
      ) : (
        ""
      )}
      {props.cancelled ? (
        <p class="notice notice-error" data-edit-cancelled safe>
          {t("edit.isCancelled") + (props.statusNote ? ` ${props.statusNote}` : "")}
        </p>
      ) : (
        ""
      )}
      <section aria-labelledby="edit-current">
        <h2 id="edit-current" safe>
          {t("edit.current")}
        </h2>
        <dl class="edit-current">
          {props.date ? (
            <>
              <dt safe>{t("edit.date")}</dt>
              <dd safe>{/^\d{4}-\d{2}-\d{2}$/.test(props.date) ? formatDay(props.date) : props.date}</dd>
            </>
          ) : (
            ""
          )}
          {EDITABLE_FIELDS.filter((f) => props.current[f]).map((f) => (
            <>
              <dt safe>{t(`edit.field.${f}`)}</dt>
              <dd data-current={f} safe>
                {props.current[f]}
              </dd>
            </>
          ))}
        </dl>
        <p>
          <a href={props.publicHref} safe>
            {t("edit.publicPage")}
          </a>
        </p>
      </section>
      {props.pending ? (
        <section aria-labelledby="edit-pending" data-edit-pending>
          <h2 id="edit-pending" safe>
            {t("edit.pending")}
          </h2>
          <ul>
            {EDITABLE_FIELDS.filter((f) => props.pending?.[f]).map((f) => (
              <li safe>{`${t(`edit.field.${f}`)} : ${props.pending![f]!.before || "—"} → ${props.pending![f]!.after || "—"}`}</li>
            ))}
          </ul>
        </section>
      ) : (
        ""
      )}
      <section aria-labelledby="edit-propose">
        <h2 id="edit-propose" safe>
          {t("edit.propose.heading")}
        </h2>
        <p class="form-hint" safe>
          {t("edit.propose.hint")}
        </p>
        <form class="submit-form" method="post" action={`${base}?lang=${language}`} data-edit-form>
          <input type="hidden" name="token" value={props.token} />
          <div class="form-grid">
            {EDITABLE_FIELDS.filter((f) => f !== "notes").map((f) => (
              <Field field={f} value={value(f)} issue={issueOf(f)} />
            ))}
          </div>
          <Field field="notes" value={value("notes")} issue={issueOf("notes")} />
          <div class="form-actions">
            <button class="button button-primary" type="submit" safe>
              {t("edit.propose.submit")}
            </button>
          </div>
        </form>
      </section>
      {props.cancelled ? (
        ""
      ) : (
        <section aria-labelledby="edit-cancel">
          <h2 id="edit-cancel" safe>
            {t("edit.cancel.heading")}
          </h2>
          <p class="form-hint" safe>
            {t("edit.cancel.hint")}
          </p>
          <form class="submit-form" method="post" action={`${base}/cancel?lang=${language}`} data-cancel-form>
            <input type="hidden" name="token" value={props.token} />
            <div class={issueOf("note") ? "form-field has-error" : "form-field"}>
              <label for="edit-note" safe>
                {t("edit.cancel.note")}
              </label>
              <input id="edit-note" name="note" type="text" maxlength={String(STATUS_NOTE_MAX)} value={props.values?.note ?? ""} />
              {issueOf("note") ? (
                <p class="field-error" safe>
                  {proposalIssueText(issueOf("note")!)}
                </p>
              ) : (
                ""
              )}
            </div>
            <div class="form-field">
              <label>
                <input type="checkbox" name="confirm" value="yes" required /> {Html.escapeHtml(t("edit.cancel.confirm"))}
              </label>
            </div>
            <div class="form-actions">
              <button class="button button-danger" type="submit" safe>
                {t("edit.cancel.submit")}
              </button>
            </div>
          </form>
        </section>
      )}
    </Page>
  );
}
