import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './shared/src/server/db/schema.ts',
  out: './shared/drizzle',
  casing: 'snake_case',
});
