// The "offline" notice of the pages the service worker keeps (see docs/public-pages.md, "Offline"):
// rendered hidden; static/offline.js shows it when the worker served the page from its cache (the
// worker marks such a copy with the time it was saved).

import { t } from "../../lib/i18n/index.ts";

/** Visitor-facing texts of the offline notice, in the render's language; `{time}` stays for offline.js (HH:MM). */
export const OFFLINE_TEXT = {
  get notice() {
    return t("offline.notice");
  },
  get noConnection() {
    return t("offline.noConnection");
  },
  get details() {
    return t("offline.details");
  },
};

/**
 * The hidden notice; offline.js fills in the time the page was rendered (`renderedAt`, on the pages
 * the worker keeps) or says that a request needs a connection (every page with an htmx form).
 */
export function OfflineNotice(props: { renderedAt?: Date }): JSX.Element {
  return <p class="notice notice-warning offline-notice" role="status" data-offline-notice data-rendered-at={props.renderedAt?.toISOString()} data-template={OFFLINE_TEXT.notice} data-no-connection={OFFLINE_TEXT.noConnection} data-no-details={OFFLINE_TEXT.details} hidden></p>;
}
