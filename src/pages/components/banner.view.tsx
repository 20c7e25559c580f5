// The sliding banner above the site header (see docs/public-pages.md, "Sliding banner"): the
// messages joined with " • " in a CSS marquee whose loop length follows messageDurationMs; on wide
// screens the sequence repeats once when desktopMessageCount is 2. Reduced motion shows the text
// without movement.

import { bannerAnimationSeconds, bannerMessagesToShow, bannerText, type PublicBanner } from "../../lib/site/banner.ts";
import { t } from "../../lib/i18n/index.ts";

/** The banner strip, or nothing when it is switched off or empty. */
export function SlidingBanner(props: { banner: PublicBanner }): JSX.Element {
  const { banner } = props;
  if (!banner.enabled || banner.messages.length === 0) return "";
  const text = bannerText(bannerMessagesToShow(banner.messages));
  const sequence = (hidden: boolean, extra = false) => (
    <span class={extra ? "banner-seq banner-seq-extra" : "banner-seq"} aria-hidden={hidden ? "true" : undefined} safe>
      {`${text} • `}
    </span>
  );
  // Two identical halves make a seamless loop (the track moves by -50%).
  const half = (hidden: boolean) => (
    <span class="banner-half">
      {sequence(hidden)}
      {banner.desktopMessageCount === 2 ? sequence(true, true) : ""}
    </span>
  );
  return (
    <div class="sliding-banner" role="region" aria-label={t("banner.label")} style={`--banner-duration:${bannerAnimationSeconds(banner.messageDurationMs)}s`}>
      <div class="banner-track">
        {half(false)}
        {half(true)}
      </div>
    </div>
  );
}
