// drizzle-kit configuration: generates SQL migrations from src/lib/db/schema into drizzle/.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/lib/db/schema/index.ts",
  out: "./drizzle",
});
