// The visitor sign-in form (see docs/auth-and-admin.md, "Visitor sign-in"): email, optional first
// and last name, privacy consent. It swaps itself under htmx and posts as a plain form without
// JavaScript; once signed in it shows the email and a sign-out button. Pages embed it where
// personalisation is offered.

import { pageHref } from "../../lib/links.ts";
import { currentLanguage, t, tHtml } from "../../lib/i18n/index.ts";

/** The root id of the sign-in fragment, the target of its own forms. */
export const SIGN_IN_ID = "sign-in";

/** What the visitor typed, echoed back after an error. */
export interface SignInValues {
  email?: string;
  firstName?: string;
  lastName?: string;
  consent?: boolean;
}

export interface SignInFormProps {
  /** The signed-in email; the form is replaced by a short status line. */
  signedInEmail?: string;
  values?: SignInValues;
  /**
   * The error and the field it belongs to ("body" for the form as a whole): `text` when it is
   * already in the visitor's language, else `message` (the API's English) is worded by field.
   */
  error?: { field: string; message: string; text?: string };
}

function FieldError(props: { id: string; message?: string }): JSX.Element {
  if (!props.message) return "";
  return (
    <p id={props.id} class="field-error" role="alert" safe>
      {props.message}
    </p>
  );
}

/**
 * An error as the visitor reads it: the form's own errors carry a catalogue key in `key`; a field
 * error of the sign-in checks (worded in English for the API) is worded by its field.
 */
function localError(error: NonNullable<SignInFormProps["error"]>): string {
  if (error.text) return error.text;
  // The sign-in checks word their errors in English already.
  if (currentLanguage() === "en") return error.message;
  if (error.field === "email") return t("signIn.error.email");
  if (error.field === "consent") return t("signIn.error.consent");
  if (error.field === "firstName" || error.field === "lastName") return t("signIn.error.name");
  return t("signIn.error.invalid");
}

/** The sign-in fragment. */
export function SignInForm(props: SignInFormProps): JSX.Element {
  if (props.signedInEmail) {
    return (
      <section id={SIGN_IN_ID} class="sign-in sign-in-done" aria-live="polite">
        <p>
          <span safe>{t("signIn.signedIn")}</span> <strong safe>{props.signedInEmail}</strong>
          <span safe>{t("signIn.signedInAfter")}</span>
        </p>
        <form method="post" action={pageHref("/sign-out")} hx-post={pageHref("/sign-out")} hx-target={`#${SIGN_IN_ID}`} hx-swap="outerHTML">
          <button type="submit" class="button button-quiet" safe>
            {t("signIn.signOut")}
          </button>
        </form>
      </section>
    );
  }
  const v = props.values ?? {};
  // Catalogue markup (the privacy link), no data in it.
  const safeConsent = tHtml("signIn.consentHtml", { privacyHref: pageHref("/privacy") });
  const errorFor = (field: string) => (props.error?.field === field ? localError(props.error) : undefined);
  const general = props.error && !["email", "firstName", "lastName", "consent"].includes(props.error.field) ? localError(props.error) : undefined;
  return (
    <section id={SIGN_IN_ID} class="sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title" safe>
        {t("signIn.heading")}
      </h2>
      <p class="sign-in-intro" safe>
        {t("signIn.intro")}
      </p>
      <form method="post" action={pageHref("/sign-in")} hx-post={pageHref("/sign-in")} hx-target={`#${SIGN_IN_ID}`} hx-swap="outerHTML" class="stack" novalidate>
        <FieldError id="sign-in-error" message={general} />
        <label for="sign-in-email" safe>
          {t("signIn.email")}
        </label>
        <input
          id="sign-in-email"
          name="email"
          type="email"
          autocomplete="email"
          required
          maxlength="254"
          value={v.email ?? ""}
          aria-invalid={errorFor("email") ? "true" : undefined}
          aria-describedby={errorFor("email") ? "sign-in-email-error" : undefined}
        />
        <FieldError id="sign-in-email-error" message={errorFor("email")} />
        <div class="field-row">
          <div class="stack">
            <label for="sign-in-first-name" safe>
              {t("signIn.firstName")}
            </label>
            <input id="sign-in-first-name" name="firstName" type="text" autocomplete="given-name" maxlength="80" value={v.firstName ?? ""} aria-invalid={errorFor("firstName") ? "true" : undefined} />
            <FieldError id="sign-in-first-name-error" message={errorFor("firstName")} />
          </div>
          <div class="stack">
            <label for="sign-in-last-name" safe>
              {t("signIn.lastName")}
            </label>
            <input id="sign-in-last-name" name="lastName" type="text" autocomplete="family-name" maxlength="80" value={v.lastName ?? ""} aria-invalid={errorFor("lastName") ? "true" : undefined} />
            <FieldError id="sign-in-last-name-error" message={errorFor("lastName")} />
          </div>
        </div>
        <label class="checkbox">
          <input type="checkbox" name="consent" value="yes" required checked={v.consent === true} aria-invalid={errorFor("consent") ? "true" : undefined} />
          <span>{safeConsent}</span>
        </label>
        <FieldError id="sign-in-consent-error" message={errorFor("consent")} />
        <button type="submit" class="button button-primary" safe>
          {t("signIn.continue")}
        </button>
      </form>
    </section>
  );
}
