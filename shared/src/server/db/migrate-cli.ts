import { loadConfig } from '../config.ts';
import { createDatabase, migrateDatabase } from './index.ts';
import { ensureDatabaseExists } from './migrate.ts';

const config = loadConfig();
await ensureDatabaseExists(config.DATABASE_URL);
const { db, pool } = createDatabase(config.DATABASE_URL, { max: 1 });
try {
  await migrateDatabase(db);
  console.info('Database migrations applied.');
} finally {
  await pool.end();
}
