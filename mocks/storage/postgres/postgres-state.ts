// What `--state postgres://…` opens: the PostgreSQL storage, and what a core needs besides it to answer as one of the
// replicas sharing it. The one way a core is put on PostgreSQL (serve, the tests, the benches).
import type { DispatchLayer } from '../../core/dispatch-layer.ts';
import { openPostgresStorage, type PostgresStorage, type PostgresStorageOptions } from './postgres-storage.ts';
import { createReplicaLayer } from './replica-dispatch.ts';

/**
 * The options of createMockCore that put a core on the shared state (each as MockCoreOptions documents it); `storage`
 * is also what its owner closes.
 */
export interface PostgresState {
  storage: PostgresStorage;
  dispatchLayer: DispatchLayer;
  randomStart: number;
  watchStoredChanges: (changed: () => void) => void;
}

/**
 * Opens the shared state (openPostgresStorage: connects, checks or creates the tables, takes a replica number, loads)
 * and pairs it with the replica layer, this replica's random stream and the notice of the other replicas' changes.
 * @example const state = await openPostgresState(url, { seed: 42, catalogueSize: 36 }); const core = createMockCore({ seed: 42, ...state });
 */
export async function openPostgresState(url: string, options: PostgresStorageOptions): Promise<PostgresState> {
  const storage = await openPostgresStorage(url, options);
  return {
    storage,
    dispatchLayer: createReplicaLayer(storage),
    randomStart: storage.randomStart,
    watchStoredChanges: (changed) => storage.onReplicaChange(changed),
  };
}
