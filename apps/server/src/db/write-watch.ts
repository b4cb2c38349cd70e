import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/** Tables to watch: a deletion from one, or an update that sets one of its named columns. */
export type WatchedWrites = Record<string, readonly string[]>;

/**
 * Calls `onWrite` after this process runs, through Kysely, a statement that deletes from a
 * watched table or updates one of its watched columns, anywhere in the statement (a CTE too).
 * It runs after the statement, inside its transaction if any: what it tells is "this may
 * have changed", for a cache to forget. Raw SQL text and other processes' writes are not
 * seen here; a cache that must hear of those also listens to the database (migration 040).
 */
export function watchWrites(watched: WatchedWrites, onWrite: () => void): KyselyPlugin {
  const hits = new WeakSet<object>();
  return {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      // Reads are most statements: a select without a WITH cannot write.
      if ((node.kind === 'SelectQueryNode' || node.kind === 'InsertQueryNode') && !node.with) return node;
      if (writesWatched(node, watched)) hits.add(queryId);
      return node;
    },
    async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (hits.has(queryId)) onWrite();
      return result;
    },
  };
}

function writesWatched(node: OperationNode, watched: WatchedWrites): boolean {
  const n = node as OperationNode & Record<string, unknown>;
  if (n.kind === 'DeleteQueryNode') {
    const from = (n.from as { froms?: OperationNode[] } | undefined)?.froms ?? [];
    if (from.flatMap(tablesOf).some((t) => Object.hasOwn(watched, t))) return true;
  }
  if (n.kind === 'UpdateQueryNode') {
    const columns = (n.table ? tablesOf(n.table as OperationNode) : []).flatMap((t) => (Object.hasOwn(watched, t) ? watched[t]! : []));
    if (((n.updates as { column: OperationNode }[] | undefined) ?? []).some((u) => columns.includes(columnName(u.column)))) return true;
  }
  // Writes nested in the statement: WITH clauses, subqueries.
  for (const value of Object.values(n)) {
    if (Array.isArray(value)) {
      if (value.some((v) => isNode(v) && writesWatched(v, watched))) return true;
    } else if (isNode(value) && writesWatched(value, watched)) return true;
  }
  return false;
}

const isNode = (v: unknown): v is OperationNode => typeof v === 'object' && v !== null && typeof (v as { kind?: unknown }).kind === 'string';

/** The tables a node names: a table, through an alias (`users as u`), or a list of them. */
function tablesOf(node: OperationNode): string[] {
  const n = node as { kind: string; node?: OperationNode; items?: OperationNode[]; table?: { identifier?: { name?: string } } };
  if (n.kind === 'AliasNode' && n.node) return tablesOf(n.node);
  if (n.kind === 'ListNode') return (n.items ?? []).flatMap(tablesOf);
  return n.kind === 'TableNode' && n.table?.identifier?.name ? [n.table.identifier.name] : [];
}

function columnName(node: OperationNode): string {
  const n = node as { kind: string; column?: { name?: string } };
  return n.kind === 'ColumnNode' ? n.column?.name ?? '' : '';
}
