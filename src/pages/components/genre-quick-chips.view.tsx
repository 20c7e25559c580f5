// A signed-in visitor's top genres as quick chips at the top of the genre filter (see
// docs/tracking.md, "Genre preferences").

import { pageHref } from "../../lib/links.ts";
import { genreColour, genreLabel } from "../../lib/sheet/genres.ts";
import { GENRE_QUICK_CHIPS_ID } from "./filter-panel.view.tsx";
import { t } from "../../lib/i18n/index.ts";

/** The chips; empty (but present, as the swap target) for anonymous visitors or no preferences. */
export function GenreQuickChips(props: { genres: string[] }): JSX.Element {
  return (
    <div id={GENRE_QUICK_CHIPS_ID} class="quick-chips" aria-live="polite">
      {props.genres.length > 0 ? (
        <>
          <span class="quick-chips-label" safe>
            {t("home.yourGenres")}
          </span>
          {props.genres.map((genre) => (
            <a class="chip quick-chip" href={pageHref(`/?g=${encodeURIComponent(genre)}`)} data-quick-genre={genre} style={`--genre:${genreColour(genre)}`} safe>
              {genreLabel(genre)}
            </a>
          ))}
        </>
      ) : (
        ""
      )}
    </div>
  );
}
