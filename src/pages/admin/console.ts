// Answers a console page: the whole page, or only the console fragment for htmx tab navigation.

import type { Deps } from "../../deps.ts";
import { countActionItems } from "../../lib/admin/status.ts";
import { pageOrFragment } from "../../lib/http/htmx.ts";
import { markup, NO_STORE_HEADERS } from "../../lib/http/responses.ts";
import { AdminConsole, AdminPage, type AdminAreaKey } from "./shell.view.tsx";

/** Renders `content` inside the console shell of `area`; never cached. */
export async function consoleResponse(deps: Pick<Deps, "db" | "keptPublishedSheet" | "keptDraftComparison">, request: Request, area: AdminAreaKey, title: string, content: () => JSX.Element): Promise<Response> {
  // Without the unpublished changes: the badge loads its fragment, which counts them, after the page.
  const pending = await countActionItems(deps);
  return pageOrFragment(
    request,
    {
      page: () => markup(AdminPage({ area, title, pending, children: content() })),
      fragment: () => markup(AdminConsole({ area, pending, children: content() })),
    },
    { headers: NO_STORE_HEADERS },
  );
}
