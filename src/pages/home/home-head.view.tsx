// The homepage's <head> extras (see docs/public-pages.md, "Homepage" and "Event modal"): the
// canonical link and the OpenGraph/Twitter tags, one view for the homepage and for an event's
// modal URL, plus the event's JSON-LD.

import Html from "@kitajs/html";
import type { Config } from "../../lib/config.ts";
import { publicUrl } from "../../lib/config.ts";
import { markup } from "../../lib/http/responses.ts";
import { defaultOgImageUrl, eventCanonicalUrl, eventOgImageUrl, homeHref, SITE_NAME } from "../../lib/links.ts";
import { t } from "../../lib/i18n/index.ts";
import { alternateLinks } from "../components/layout.tsx";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { attr } from "../components/attr.ts";
import { eventJsonLd, eventPageDescription, eventPageTitle } from "./event-meta.ts";
import { scriptJson } from "./listing.ts";
import type { HomeHead } from "./home.view.tsx";

/** The homepage title (also the title of the 503 page), in the current language. */
export function homeTitle(): string {
  return t("home.title", { site: SITE_NAME });
}
/** Size of every link-preview image. */
const OG_IMAGE = { width: "1200", height: "630" };

export interface SocialMetaProps {
  canonical: string;
  title: string;
  description: string;
  image: string;
  /** Alternative text of the image (event pages only). */
  imageAlt?: string;
}

/** The canonical link and the OpenGraph and Twitter card tags of a page. */
export function SocialMeta(props: SocialMetaProps): JSX.Element {
  return (
    <>
      <link rel="canonical" href={attr(props.canonical)} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={attr(SITE_NAME)} />
      <meta property="og:title" content={attr(props.title)} />
      <meta property="og:description" content={attr(props.description)} />
      <meta property="og:url" content={attr(props.canonical)} />
      <meta property="og:image" content={attr(props.image)} />
      <meta property="og:image:width" content={OG_IMAGE.width} />
      <meta property="og:image:height" content={OG_IMAGE.height} />
      {props.imageAlt === undefined ? "" : <meta property="og:image:alt" content={attr(props.imageAlt)} />}
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={attr(props.title)} />
      <meta name="twitter:description" content={attr(props.description)} />
      <meta name="twitter:image" content={attr(props.image)} />
    </>
  );
}

/**
 * The head of the homepage (`event` absent) or of an event's modal URL, in the current language,
 * with the hreflang alternates of that address (`query`: the page's canonical filter query).
 */
export function homeHead(config: Config, eventCount: number, event: LiveEvent | undefined, query = ""): HomeHead {
  if (!event) {
    const title = homeTitle();
    const description = t("home.description", { count: eventCount });
    const head = SocialMeta({ canonical: publicUrl(config, "/"), title, description, image: defaultOgImageUrl(config, eventCount) });
    return { title, description: attr(description), head: markup(head) + alternateLinks(publicUrl(config, homeHref(query))) };
  }
  const title = eventPageTitle(event);
  const description = eventPageDescription(event);
  const head = SocialMeta({ canonical: eventCanonicalUrl(config, event), title, description, image: eventOgImageUrl(config, event), imageAlt: t("event.imageAlt", { name: event.eventName, description }) });
  const jsonLd = eventJsonLd(config, event);
  const ld = jsonLd ? `<script type="application/ld+json">${scriptJson(jsonLd)}</script>` : "";
  return { title, description: attr(description), head: markup(head) + ld + alternateLinks(eventCanonicalUrl(config, event)) };
}

/** The head of the 503 page: title and description only. */
export function unavailableHead(): HomeHead {
  return { title: homeTitle(), description: attr(t("home.unavailableDescription")), head: "" };
}
