// The no-store directive is written once, in lib/http/responses.ts: every answer no cache may keep
// takes one of its header sets (NO_STORE_HEADERS, PRIVATE_NO_STORE_HEADERS, PER_REQUEST_HEADERS).

import { expect, test } from "bun:test";
import { sourceFiles } from "../../helpers/sources.ts";

const HOME = "lib/http/responses.ts";

test("no file of src but lib/http/responses.ts spells no-store in its code", () => {
  const spelled = sourceFiles().flatMap((file) =>
    file.path === HOME
      ? []
      : file.code
          .split("\n")
          .flatMap((line, index) => (/no-store/i.test(line) ? [`${file.path}:${index + 1}: ${line.trim()}`] : [])),
  );
  expect(spelled).toEqual([]);
});

test("the home spells it once", () => {
  const home = sourceFiles().find((file) => file.path === HOME)!;
  expect(home.code.match(/no-store/gi)).toHaveLength(1);
});
