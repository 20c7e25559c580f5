// The Editions card of /admin/operations/editions (see docs/editions.md): the current edition with
// its window and state, the windows set per year (each with its reset), the form that sets a year's
// window, the archives, and, while the coming edition is upcoming and the last one is not archived
// yet, the start of the coming edition with the working-sheet rows to carry over.

import { siteHref } from "../../../lib/links.ts";
import type { Edition, EditionState, EditionWindow } from "../../../lib/events/editions.ts";
import type { EditionSettings } from "../../../lib/site/edition-settings.ts";
import type { ArchiveSummary } from "../../../lib/store/edition-archive.ts";
import { Notice, Time, type CardNotice } from "../widgets.view.tsx";

export const EDITIONS_PATH = "/admin/operations/editions";
export const EDITIONS_CARD_ID = "editions-card";

/** A working-sheet row as the carry-over list shows it. */
export interface CarryRow {
  id: string;
  title: string;
  date: string;
  venue: string;
}

/** The start section: shown only while the coming edition may be started. */
export interface StartSection {
  rows: CarryRow[];
  /** Rows in the working sheet (more than `rows` when the list is capped). */
  total: number;
  /** Ids ticked on a refused start, kept ticked. */
  checked: string[];
  errors: Partial<Record<"confirm" | "carryOver", string>>;
}

export interface EditionsCardProps {
  current: Edition & { state: EditionState };
  settings: EditionSettings;
  archives: ArchiveSummary[];
  start: StartSection | null;
  notice?: CardNotice;
  /** What the admin typed in the window form, and the message next to the field at fault. */
  windowDraft?: { year: string } & EditionWindow;
  windowErrors?: Partial<Record<"year" | keyof EditionWindow, string>>;
}

const STATE_LABEL: Record<EditionState, string> = { upcoming: "Upcoming", live: "Live", past: "Past" };

/** The message next to a refused field (its id named by the field's aria-describedby); nothing when the field is fine. */
const fieldError = (id: string, message: string | undefined): JSX.Element =>
  message ? (
    <p id={id} class="field-error" role="alert" safe>
      {message}
    </p>
  ) : (
    ""
  );

function WindowForm(props: EditionsCardProps): JSX.Element {
  const c = props.current;
  const draft = props.windowDraft ?? { year: String(c.year), from: c.from, to: c.to, night: c.night };
  const errors = props.windowErrors ?? {};
  const field = (name: "from" | "to" | "night", label: string) => (
    <div class="editions-field">
      <label for={`edition-${name}`} safe>
        {label}
      </label>{" "}
      <input id={`edition-${name}`} type="date" name={name} value={draft[name]} required aria-invalid={errors[name] ? "true" : undefined} aria-describedby={errors[name] ? `edition-${name}-error` : undefined} />
      {fieldError(`edition-${name}-error`, errors[name])}
    </div>
  );
  return (
    <form class="editions-form" method="post" action={siteHref(`${EDITIONS_PATH}/window`)} hx-post={siteHref(`${EDITIONS_PATH}/window`)} hx-target={`#${EDITIONS_CARD_ID}`} hx-swap="outerHTML">
      <div class="editions-field">
        <label for="edition-year">Year</label>{" "}
        <input id="edition-year" type="number" name="year" min="2000" max="2100" step="1" value={draft.year} required aria-invalid={errors.year ? "true" : undefined} aria-describedby={errors.year ? "edition-year-error" : undefined} />
        {fieldError("edition-year-error", errors.year)}
      </div>
      {field("from", "First day")}
      {field("to", "Last day")}
      {field("night", "Night")}
      <div class="card-actions">
        <button type="submit" class="button">
          Save window
        </button>
      </div>
    </form>
  );
}

function WindowsTable(props: { settings: EditionSettings }): JSX.Element {
  const years = Object.keys(props.settings.windows).sort();
  if (years.length === 0) return <p class="muted">No window set: every edition takes the default, 15 to 22 June with the night on the 21st.</p>;
  return (
    <div class="table-scroll">
      <table class="data-table editions-table">
        <thead>
          <tr>
            <th scope="col">Year</th>
            <th scope="col">First day</th>
            <th scope="col">Last day</th>
            <th scope="col">Night</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {years.map((year) => {
            const w = props.settings.windows[year]!;
            return (
              <tr data-year={year}>
                <td safe>{year}</td>
                <td safe>{w.from}</td>
                <td safe>{w.to}</td>
                <td safe>{w.night}</td>
                <td>
                  <form method="post" action={siteHref(`${EDITIONS_PATH}/window`)} class="inline-form">
                    <input type="hidden" name="year" value={year} />
                    <input type="hidden" name="reset" value="true" />
                    <button type="submit" class="button button-small button-quiet" hx-post={siteHref(`${EDITIONS_PATH}/window`)} hx-target={`#${EDITIONS_CARD_ID}`} hx-swap="outerHTML" safe>
                      {`Reset ${year} to the default`}
                    </button>
                  </form>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p class="muted">
        Last saved <Time value={props.settings.updatedAt} />
        {props.settings.updatedBy ? <span safe>{` by ${props.settings.updatedBy}`}</span> : ""}
      </p>
    </div>
  );
}

function ArchivesTable(props: { archives: ArchiveSummary[] }): JSX.Element {
  if (props.archives.length === 0) return <p class="muted">No edition archived yet.</p>;
  return (
    <div class="table-scroll">
      <table class="data-table editions-table">
        <thead>
          <tr>
            <th scope="col">Year</th>
            <th scope="col">Rows</th>
            <th scope="col">Archived at</th>
          </tr>
        </thead>
        <tbody>
          {props.archives.map((a) => (
            <tr data-archive={String(a.year)}>
              <td>
                <a href={siteHref(`/${a.year}/`)} safe>
                  {String(a.year)}
                </a>
              </td>
              <td safe>{String(a.rowCount)}</td>
              <td>
                <Time value={a.archivedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StartForm(props: { year: number; start: StartSection }): JSX.Element {
  const { year, start } = props;
  const closing = year - 1;
  const checked = new Set(start.checked);
  return (
    <section class="editions-start" aria-labelledby="editions-start-title">
      <h3 id="editions-start-title" safe>{`Start the ${year} edition`}</h3>
      <p safe>
        {`The published sheet of ${closing} is archived and stays browsable at /${closing}/; a backup of the store is taken first. The working sheet is then emptied except the rows ticked below, which are re-dated to ${year} and become drafts with new Event Keys.`}
      </p>
      <form method="post" action={siteHref(`${EDITIONS_PATH}/start`)} hx-post={siteHref(`${EDITIONS_PATH}/start`)} hx-target={`#${EDITIONS_CARD_ID}`} hx-swap="outerHTML" hx-disabled-elt="find button">
        <input type="hidden" name="year" value={String(year)} />
        <fieldset class="carry-over" aria-describedby={start.errors.carryOver ? "carry-over-error" : undefined}>
          <legend safe>{`Rows to carry over (${start.total} in the working sheet${start.total > start.rows.length ? `, the first ${start.rows.length} listed` : ""})`}</legend>
          {fieldError("carry-over-error", start.errors.carryOver)}
          {start.rows.length === 0 ? (
            <p class="muted">The working sheet is empty.</p>
          ) : (
            <ul class="carry-list">
              {start.rows.map((row) => (
                <li>
                  <label>
                    <input type="checkbox" name="carryOver" value={row.id} checked={checked.has(row.id)} /> <strong safe>{row.title || "(untitled)"}</strong> <span class="muted" safe>{[row.date, row.venue].filter(Boolean).join(" · ")}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <div class="confirm">
          <label>
            <input type="checkbox" name="confirm" value="yes" aria-invalid={start.errors.confirm ? "true" : undefined} aria-describedby={start.errors.confirm ? "start-confirm-error" : undefined} />{" "}
            <span safe>{`I understand: ${closing} is archived and the working sheet is replaced.`}</span>
          </label>
          {fieldError("start-confirm-error", start.errors.confirm)}
        </div>
        <div class="card-actions">
          <button type="submit" class="button button-danger" safe>
            {`Start the ${year} edition`}
          </button>
        </div>
      </form>
    </section>
  );
}

export function EditionsCard(props: EditionsCardProps): JSX.Element {
  const c = props.current;
  return (
    <section id={EDITIONS_CARD_ID} class="card editions-card" aria-labelledby="editions-title">
      <div class="card-head">
        <h2 id="editions-title">Editions</h2>
        <span class={c.state === "live" ? "badge badge-attention" : "badge"} safe>
          {`${c.year} · ${STATE_LABEL[c.state]}`}
        </span>
      </div>
      <Notice notice={props.notice} />
      <dl class="order-facts editions-facts">
        <dt>Current edition</dt>
        <dd safe>{String(c.year)}</dd>
        <dt>Window</dt>
        <dd safe>{`${c.from} to ${c.to}`}</dd>
        <dt>Night</dt>
        <dd safe>{c.night}</dd>
        <dt>State</dt>
        <dd data-state={c.state} safe>
          {STATE_LABEL[c.state]}
        </dd>
      </dl>
      <h3>Windows set</h3>
      <WindowsTable settings={props.settings} />
      <h3>Set a year's window</h3>
      <WindowForm {...props} />
      <h3>Archives</h3>
      <ArchivesTable archives={props.archives} />
      {props.start ? <StartForm year={c.year} start={props.start} /> : ""}
    </section>
  );
}

/** The operations page's summary of the editions: the current one and the way to its page. */
export function EditionsSummaryCard(props: { year: number; state: EditionState; night: string; archived: number }): JSX.Element {
  return (
    <section id="ops-editions" class="card" aria-labelledby="ops-editions-title">
      <div class="card-head">
        <h2 id="ops-editions-title">Editions</h2>
        <span class="badge" safe>
          {`${props.year} · ${props.state}`}
        </span>
      </div>
      <p safe>{`Current edition ${props.year}, night ${props.night} · ${props.archived} archived`}</p>
      <p>
        <a class="button button-small" href={siteHref(EDITIONS_PATH)}>
          Windows and the next edition
        </a>
      </p>
    </section>
  );
}
