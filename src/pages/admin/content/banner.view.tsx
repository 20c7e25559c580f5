// The Sliding Banner card of /admin/content (see docs/console-operations.md, "Sliding banner"):
// Enabled badge, message count, updated at; seconds per message, messages one per line;
// Enable/Disable, Save, Refresh. A save drops /, /feature-event and every render of the banner.

import { siteHref } from "../../../lib/links.ts";
import type { BannerSettings } from "../../../lib/site/banner.ts";
import { Notice, Time, type CardNotice } from "../widgets.view.tsx";

export const BANNER_CARD_ID = "banner-card";
const BASE = "/admin/content/banner";

export interface BannerCardProps {
  banner: BannerSettings;
  notice?: CardNotice;
  /** What the admin typed, kept on a refused save. */
  draft?: { messages: string; seconds: string };
}

export function BannerCard(props: BannerCardProps): JSX.Element {
  const b = props.banner;
  const target = { "hx-target": `#${BANNER_CARD_ID}`, "hx-swap": "outerHTML" };
  const messages = props.draft?.messages ?? b.messages.join("\n");
  const seconds = props.draft?.seconds ?? String(b.messageDurationMs / 1000);
  return (
    <section id={BANNER_CARD_ID} class="card" aria-labelledby="banner-title">
      <div class="card-head">
        <h2 id="banner-title">Sliding Banner</h2>
        <span class={b.enabled ? "badge" : "badge badge-attention"}>{b.enabled ? "Enabled" : "Disabled"}</span>
      </div>
      <p>
        <span safe>{`${b.messages.length} message${b.messages.length === 1 ? "" : "s"}`}</span> · updated <Time value={b.updatedAt} />
      </p>
      <Notice notice={props.notice} />
      <form class="banner-form" method="post" action={BASE} hx-post={BASE} {...target}>
        <p>
          <label for="banner-seconds">Seconds per message</label>{" "}
          <input id="banner-seconds" type="number" name="seconds" min="1.8" max="12" step="0.1" value={seconds} />
        </p>
        <p>
          <label for="banner-desktop">Messages side by side on wide screens</label>{" "}
          <select id="banner-desktop" name="desktopMessageCount">
            <option value="1" selected={b.desktopMessageCount === 1}>
              1
            </option>
            <option value="2" selected={b.desktopMessageCount === 2}>
              2
            </option>
          </select>
        </p>
        <p>
          <label for="banner-messages">Messages (one per line, at most 12 of 160 characters)</label>
          <textarea id="banner-messages" name="messages" rows="6" safe>
            {messages}
          </textarea>
        </p>
        <div class="card-actions">
          <button type="submit" class="button">
            Save
          </button>
          <button type="submit" class="button button-quiet" name="enabled" value={b.enabled ? "false" : "true"}>
            {b.enabled ? "Disable" : "Enable"}
          </button>
          <a class="button button-quiet" href={siteHref(`/admin/content#${BANNER_CARD_ID}`)} hx-get={BASE} {...target}>
            Refresh
          </a>
        </div>
      </form>
    </section>
  );
}
