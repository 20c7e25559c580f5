// The Event Sheet Editor card of /admin/content (see docs/console.md, "Event sheet editor"): the
// toolbar, the save status, the grid host and the conflict panel. The grid itself is drawn and
// driven by /static/sheet-editor.js from the first page of rows embedded here as JSON (no second
// request before the first usable grid); further pages, searches and edits go through the admin
// sheet API.

import type { Children } from "@kitajs/html";
import { EDITOR_RULES, type EditorWindow } from "../../../lib/admin/sheet-editor.ts";
import { PageScript } from "../../components/layout.tsx";
import { t } from "../../../lib/i18n/index.ts";

/** The root id of the editor card. */
export const SHEET_EDITOR_ID = "sheet-editor";
/** The id of the element carrying the sheet JSON and the editor's rules (escaped attributes). */
export const SHEET_DATA_ID = "sheet-editor-data";

/** The editor card, over the first window of the sheet (the page of rows matching `search` when given). */
export function SheetEditorCard(props: { sheet: EditorWindow }): JSX.Element {
  const embedded = props.sheet;
  return (
    <section id={SHEET_EDITOR_ID} class="card sheet-editor" aria-labelledby="sheet-editor-title" data-sheet-editor>
      <div class="card-head">
        <h2 id="sheet-editor-title">Event Sheet Editor</h2>
        <p class="sheet-status" role="status" aria-live="polite" data-status>
          All changes saved
        </p>
      </div>
      <p class="sheet-note" data-note></p>
      <div class="sheet-toolbar" role="toolbar" aria-label="Sheet actions">
        <label class="sheet-search">
          <span class="visually-hidden">Search rows</span>
          <input type="search" placeholder="Search rows" value={props.sheet.search} maxlength={EDITOR_RULES.maxSearch} data-search />
        </label>
        <button type="button" class="button button-small" data-action="add-row">Add row</button>
        <button type="button" class="button button-small" data-action="add-column">Add column</button>
        <button type="button" class="button button-small button-quiet" data-action="undo" disabled>Undo</button>
        <button type="button" class="button button-small button-quiet" data-action="redo" disabled>Redo</button>
        <button type="button" class="button button-small button-quiet" data-action="reload">Reload</button>
      </div>
      <div class="sheet-drafts" data-drafts>
        <p class="sheet-drafts-count" role="status" aria-live="polite" data-drafts-count>
          Counting unpublished changes…
        </p>
        <div class="sheet-toolbar" role="toolbar" aria-label="Publishing">
          <button type="button" class="button button-small" data-action="publish" title="Saves your edits, checks the sheet and makes it public; the homepage is revalidated">
            Publish
          </button>
          <button type="button" class="button button-small button-danger" data-action="discard" disabled>
            Discard changes
          </button>
        </div>
        <details class="sheet-drafts-deleted" data-drafts-deleted hidden>
          <summary>
            Deleted rows (<span data-drafts-deleted-count>0</span>)
          </summary>
          <div data-drafts-deleted-list></div>
        </details>
      </div>
      <div class="sheet-toolbar sheet-grid-tools" role="toolbar" aria-label="Grid tools">
        <button type="button" class="button button-small button-quiet" data-action="fill-down" title="Ctrl+D">Fill down</button>
        <button type="button" class="button button-small button-quiet" data-action="fill-right" title="Ctrl+R">Fill right</button>
        <button type="button" class="button button-small button-quiet" data-action="clear-range" title="Delete">Clear cells</button>
        <button type="button" class="button button-small button-quiet" data-action="filter" aria-pressed="false">Filter columns</button>
        <button type="button" class="button button-small button-quiet" data-action="wrap" aria-pressed="false">Wrap text</button>
        <span class="sheet-range" aria-live="polite" data-range></span>
      </div>
      <details class="sheet-warnings" data-warnings>
        <summary>
          Warnings (<span data-warning-count>…</span>)
        </summary>
        <div data-warning-list></div>
      </details>
      <form class="sheet-add-column" data-add-column-form hidden>
        <label>
          Column name <input type="text" name="label" maxlength={80} required />
        </label>
        <button type="submit" class="button button-small">Add</button>
        <button type="button" class="button button-small button-quiet" data-action="cancel-column">Cancel</button>
      </form>
      <div class="sheet-conflict notice notice-warning" data-conflict hidden role="alert"></div>
      {/* Filled by the script when a Publish is held for the second confirmation (renames under kept keys, removals). */}
      <div class="sheet-conflict notice notice-warning" data-publish-hold hidden role="alert">
        <p>
          <strong data-publish-hold-text></strong>
        </p>
        <p safe>{t("publishing.held.intro")}</p>
        <div data-publish-hold-renamed hidden>
          <p safe>{t("publishing.held.renamedList")}</p>
          <ul data-renamed-list></ul>
        </div>
        <div data-publish-hold-removed hidden>
          <p safe>{t("publishing.held.removedList")}</p>
          <ul data-removed-list></ul>
        </div>
        <div class="card-actions">
          <button type="button" class="button button-small" data-action="publish-confirmed" safe>
            {t("publishing.held.publishAnyway")}
          </button>
          <button type="button" class="button button-small button-quiet" data-action="publish-cancel" safe>
            {t("publishing.held.keepDraft")}
          </button>
        </div>
      </div>
      <p class="sheet-count" data-count></p>
      <div class="sheet-grid-wrap" data-grid-wrap>
        <noscript>The sheet editor needs JavaScript. The admin sheet API offers the same actions.</noscript>
      </div>
      <button type="button" class="button button-small sheet-more" data-action="more" hidden safe>
        {`Show ${EDITOR_RULES.page} more`}
      </button>
      <template id={SHEET_DATA_ID} data-sheet={JSON.stringify(embedded)} data-rules={JSON.stringify(EDITOR_RULES)}></template>
      {/* Run as soon as it is loaded: the grid is drawn once the card is parsed, before the rest of the page. */}
      <PageScript path="sheet-editor.js" async />
    </section>
  );
}

/** The content area: its cards in order (the editor, revisions, then submissions and banner). */
export function ContentArea(props: { children?: Children }): JSX.Element {
  return <div class="content-area stack">{props.children}</div>;
}
