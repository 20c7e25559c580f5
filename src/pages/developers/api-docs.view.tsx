// /api/docs: the public API for developers, rendered on the server from the generated OpenAPI
// document (readable without JavaScript; the JSON itself is linked).

import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";

/** The parts of an OpenAPI 3.1 document the page shows. */
export interface OpenApiDocument {
  info: { title: string; description?: string; version: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  /** A parameter declared by a route's schema carries its description inside `schema`. */
  parameters?: { name: string; in: string; description?: string; schema?: { description?: string } }[];
}

const METHOD_ORDER = ["get", "post", "put", "patch", "delete"];

/** One row per operation, in path order then method order. */
export function operationsOf(doc: OpenApiDocument): { method: string; path: string; operation: OpenApiOperation }[] {
  return Object.entries(doc.paths)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => METHOD_ORDER.includes(method))
        .sort(([a], [b]) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b))
        .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );
}

export function ApiDocsPage(props: { doc: OpenApiDocument; specPath: string }): JSX.Element {
  const operations = operationsOf(props.doc);
  return (
    <Layout title={`${props.doc.info.title} | finder`} description="The public finder API: events, calendar feeds and the endpoints the site calls.">
      <SiteHeader />
      <main id="main" class="page narrow prose api-docs">
        <p class="kicker">For developers</p>
        <h1 safe>{props.doc.info.title}</h1>
        {props.doc.info.description ? <p class="lead" safe>{props.doc.info.description}</p> : ""}
        <p>
          The machine-readable description (OpenAPI 3.1) is at{" "}
          <a href={props.specPath} safe>
            {props.specPath}
          </a>
          . Responses of the events endpoints are cached for five minutes; please keep to a few requests a minute.
        </p>
        {operations.map(({ method, path, operation }) => (
          <section class="api-operation">
            <h2>
              <code safe>{`${method} ${path}`}</code>
            </h2>
            {operation.summary ? <p safe>{operation.summary}</p> : ""}
            {operation.description ? <p class="muted" safe>{operation.description}</p> : ""}
            {operation.parameters && operation.parameters.length > 0 ? (
              <dl class="api-parameters">
                {operation.parameters.map((parameter) => (
                  <>
                    <dt>
                      <code safe>{parameter.name}</code> <span class="muted" safe>{`(${parameter.in})`}</span>
                    </dt>
                    <dd safe>{parameter.description ?? parameter.schema?.description ?? ""}</dd>
                  </>
                ))}
              </dl>
            ) : (
              ""
            )}
          </section>
        ))}
      </main>
      <SiteFooter />
    </Layout>
  );
}
