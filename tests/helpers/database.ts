// One database per test file, cloned from the migrated template (cheap: a file copy in PostgreSQL).
import postgres from "postgres";
import { databaseUrl, PG_ADMIN_URL, templateDb } from "./env.ts";

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `cp_test_${process.env.CP_TEST_RUNNER_PID ?? process.pid}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}" template "${templateDb()}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: databaseUrl(name),
    drop: async () => {
      const a = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}
