// /api/docs: the public API page, rendered once from the OpenAPI document on first request and
// then served as static bytes (the routes do not change while the process runs).

import { Elysia } from "elysia";
import { markup } from "../../lib/http/responses.ts";
import { createStaticPage } from "../../lib/serving/static-page.ts";
import { ApiDocsPage, type OpenApiDocument } from "./api-docs.view.tsx";

export function apiDocsRoutes(specPath: string, readDocument: () => Promise<OpenApiDocument>) {
  let page: Promise<(request: Request) => Response> | undefined;
  const render = async () => createStaticPage(markup(<ApiDocsPage doc={await readDocument()} specPath={specPath} />));
  return new Elysia({ name: "api-docs" }).get("/api/docs", async ({ request }) => {
    page ??= render().catch((error) => {
      page = undefined; // try again on the next request
      throw error;
    });
    return (await page)(request);
  });
}
