import type { DataSource } from 'typeorm';
import type { Logger } from '@docintel/observability';
import type { StorageEnv } from '../storage.env';
import { ListCursorCodec } from './list-cursor';
import { deriveKey } from './signed-token';
import { loadOrCreateSigningSecret } from './signing-secret';
import { TransferGrantSigner } from './transfer-grant';

/** The signers of this replica, keyed from one secret that every replica shares. */
export class ItemSigning {
  constructor(
    readonly grants: TransferGrantSigner,
    readonly cursors: ListCursorCodec,
  ) {}

  static fromSecret(secret: string): ItemSigning {
    return new ItemSigning(
      new TransferGrantSigner(deriveKey(secret, 'transfer-grant')),
      new ListCursorCodec(deriveKey(secret, 'list-cursor')),
    );
  }

  /**
   * STORAGE_SIGNING_SECRET when it is set; otherwise a random secret generated on the first start
   * and kept in the storage schema, where every replica reads the same one. Never a key derived
   * from known values (such as the documented default DATABASE_URL): those could be recomputed
   * by anyone to forge URLs and cursors.
   */
  static async create(env: StorageEnv, logger: Logger, ds: DataSource): Promise<ItemSigning> {
    if (env.STORAGE_SIGNING_SECRET) return ItemSigning.fromSecret(env.STORAGE_SIGNING_SECRET);
    const { secret, created } = await loadOrCreateSigningSecret(ds);
    logger.info(
      { table: 'storage.secrets' },
      created
        ? 'STORAGE_SIGNING_SECRET is not set: generated a random signing secret and stored it in the database for every storage replica'
        : 'STORAGE_SIGNING_SECRET is not set: using the signing secret stored in the database',
    );
    return ItemSigning.fromSecret(secret);
  }
}
