// Answers a console page: the whole page, or only the console fragment for htmx tab navigation.

import type { Deps } from "../../deps.ts";
import { countPendingWork } from "../../lib/admin/status.ts";
import { pageOrFragment } from "../../lib/http/htmx.ts";
import { markup, NO_STORE_HEADERS } from "../../lib/http/responses.ts";
import { AdminConsole, AdminPage, type AdminAreaKey } from "./shell.view.tsx";

/** Renders `content` inside the console shell of `area`; never cached. */
export async function consoleResponse(deps: Pick<Deps, "db">, request: Request, area: AdminAreaKey, title: string, content: () => JSX.Element): Promise<Response> {
  const pending = await countPendingWork(deps.db);
  return pageOrFragment(
    request,
    {
      page: () => markup(AdminPage({ area, title, pending, children: content() })),
      fragment: () => markup(AdminConsole({ area, pending, children: content() })),
    },
    { headers: NO_STORE_HEADERS },
  );
}
