// A signed-in visitor's top genres as quick chips at the top of the genre filter (domain.md §14).

import { genreColour, genreLabel } from "../../lib/sheet/genres.ts";
import { GENRE_QUICK_CHIPS_ID } from "./filter-panel.view.tsx";

/** The chips; empty (but present, as the swap target) for anonymous visitors or no preferences. */
export function GenreQuickChips(props: { genres: string[] }): JSX.Element {
  return (
    <div id={GENRE_QUICK_CHIPS_ID} class="quick-chips" aria-live="polite">
      {props.genres.length > 0 ? (
        <>
          <span class="quick-chips-label">Your genres</span>
          {props.genres.map((genre) => (
            <a class="chip quick-chip" href={`/?g=${encodeURIComponent(genre)}`} data-quick-genre={genre} style={`--genre:${genreColour(genre)}`} safe>
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
