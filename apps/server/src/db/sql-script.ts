import { sql, type Kysely } from 'kysely';

/**
 * Splits a migration script into statements, because both drivers use the extended
 * protocol, which takes one statement at a time. A ';' ends a statement only outside
 * dollar-quoted bodies (plpgsql functions). Scripts here contain no ';' in strings.
 */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of script.split('\n')) {
    if (line.trimStart().startsWith('--')) continue;
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inDollar = !inDollar;
    current += `${line}\n`;
    if (!inDollar && line.trimEnd().endsWith(';')) {
      out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

export async function runScript(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of splitStatements(script)) await sql.raw(statement).execute(db);
}
