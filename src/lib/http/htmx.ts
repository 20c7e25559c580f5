// htmx helpers: recognise htmx requests, redirect both kinds of client, answer page or fragment.

/** The header htmx sends ("true") with each of its requests. */
export const HX_REQUEST_HEADER = "hx-request";

/** True when htmx sent the request (it then expects a fragment). */
export function isHtmx(request: Request): boolean {
  return request.headers.get(HX_REQUEST_HEADER) === "true";
}

/** Sends the browser to `location`: `HX-Redirect` for htmx, 303 See Other otherwise. */
export function hxRedirect(request: Request, location: string, headers: Record<string, string> = {}): Response {
  if (isHtmx(request)) return new Response(null, { status: 200, headers: { "hx-redirect": location, ...headers } });
  return new Response(null, { status: 303, headers: { location, ...headers } });
}

/**
 * The full page for a normal request, only the fragment for htmx, with `Vary: HX-Request` so a
 * cache never hands one to the other. Both renderers are the same components.
 */
export function pageOrFragment(
  request: Request,
  render: { page: () => string; fragment: () => string },
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const body = isHtmx(request) ? render.fragment() : render.page();
  return new Response(body, {
    status: init.status ?? 200,
    headers: { "content-type": "text/html; charset=utf-8", vary: "HX-Request", ...init.headers },
  });
}
