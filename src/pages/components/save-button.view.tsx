// The "Save" button of cards and the event modal (see docs/public-pages.md, "My night"). Saved
// events live in the browser only (static/my-night.js keeps their keys in local storage), so the
// button is rendered hidden and shown by that script; without JavaScript there is nothing to save to.
// Each save or removal is counted anonymously (night_save / night_unsave, docs/tracking.md,
// "My-night saves"): the card's "N people saved this" is that count.

import { pageHref } from "../../lib/links.ts";
import { t } from "../../lib/i18n/index.ts";
import { MAX_NIGHT_EVENTS, NIGHT_STORAGE_KEY } from "../../lib/events/saved-night.ts";
import { EVENT_KEY_PATTERN } from "../../lib/sheet/keys.ts";

/** Visitor-facing texts of the save button and the header link (one object, for the message catalogue). */
export const SAVE_TEXT = {
  get save() {
    return t("save.save");
  },
  get saved() {
    return t("save.saved");
  },
  get full() {
    return t("save.full");
  },
  get navLink() {
    return t("save.navLink");
  },
};

/**
 * The header's "My night" link. It carries the button texts the script switches to (once per page
 * rather than on every card) and a count of saved events the script fills in.
 */
export function MyNightLink(): JSX.Element {
  return (
    <a
      href={pageHref("/my-night")}
      class="my-night-link"
      data-my-night-link
      data-label-save={SAVE_TEXT.save}
      data-label-saved={SAVE_TEXT.saved}
      data-label-full={SAVE_TEXT.full}
      data-max={String(MAX_NIGHT_EVENTS)}
      data-key-pattern={EVENT_KEY_PATTERN}
      data-storage-key={NIGHT_STORAGE_KEY}
    >
      <span safe>{SAVE_TEXT.navLink}</span>
      <span class="my-night-count" data-my-night-count hidden></span>
    </a>
  );
}

/**
 * A hidden save toggle for one event; my-night.js shows it and keeps its state. One element with
 * its text (the bookmark is drawn by CSS): 25 cards must not add a hundred nodes to the first paint.
 */
export function SaveButton(props: { eventKey: string; large?: boolean }): JSX.Element {
  return (
    <button type="button" class={props.large ? "button save-toggle" : "save-toggle"} data-save={props.eventKey} hidden safe>
      {SAVE_TEXT.save}
    </button>
  );
}
