// The admin login card: "Admin Access", an "Admin Key" password field, "Enter
// Console", an inline error, and a link back; or "Admin access is disabled" without ADMIN_KEY.

import { siteHref } from "../../lib/links.ts";
import { AdminLayout } from "./shell.view.tsx";

/** The root id of the login card, the target of its own form. */
export const ADMIN_LOGIN_ID = "admin-login";

export interface LoginCardProps {
  disabled: boolean;
  /** Where to go after a successful login (a console path). */
  next: string;
  error?: string;
}

/** The login card: a form that works with htmx (swaps itself) and without JavaScript. */
export function LoginCard(props: LoginCardProps): JSX.Element {
  return (
    <section id={ADMIN_LOGIN_ID} class="card login-card" aria-labelledby="admin-login-title">
      <h1 id="admin-login-title">Admin Access</h1>
      {props.disabled ? (
        <p class="notice notice-warning" role="status">
          Admin access is disabled. Set <code>ADMIN_KEY</code> on the server to enable the console.
        </p>
      ) : (
        <form method="post" action={siteHref("/admin/login")} hx-post={siteHref("/admin/login")} hx-target={`#${ADMIN_LOGIN_ID}`} hx-swap="outerHTML" class="stack">
          <input type="hidden" name="next" value={props.next} />
          <label for="admin-key">Admin Key</label>
          <input
            id="admin-key"
            name="key"
            type="password"
            autocomplete="current-password"
            required
            maxlength="512"
            aria-invalid={props.error ? "true" : undefined}
            aria-describedby={props.error ? "admin-key-error" : undefined}
            autofocus
          />
          {props.error ? (
            <p id="admin-key-error" class="field-error" role="alert" safe>
              {props.error}
            </p>
          ) : (
            ""
          )}
          <button type="submit" class="button button-primary">
            Enter Console
          </button>
        </form>
      )}
      <p class="login-back">
        <a href="/">Back to Home</a>
      </p>
    </section>
  );
}

/** The login page: the card alone on the console background. */
export function LoginPage(props: LoginCardProps): JSX.Element {
  return (
    <AdminLayout title="Admin Access">
      <main id="main" class="login-main">
        <LoginCard {...props} />
      </main>
    </AdminLayout>
  );
}
