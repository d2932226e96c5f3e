import type { Logger } from '@docintel/observability';
import type { StorageEnv } from '../storage.env';
import { ListCursorCodec } from './list-cursor';
import { deriveKey, developmentSecret } from './signed-token';
import { TransferGrantSigner } from './transfer-grant';

/** The signers of this replica, keyed from STORAGE_SIGNING_SECRET (shared by every replica). */
export class ItemSigning {
  constructor(
    readonly grants: TransferGrantSigner,
    readonly cursors: ListCursorCodec,
  ) {}

  static fromEnv(env: StorageEnv, logger: Logger): ItemSigning {
    let secret = env.STORAGE_SIGNING_SECRET;
    if (!secret) {
      logger.warn(
        'STORAGE_SIGNING_SECRET is not set: presigned URLs and list cursors are signed with a development key derived from DATABASE_URL. ' +
          'Set a random secret (openssl rand -hex 32), the same on every storage replica, before exposing the service.',
      );
      secret = developmentSecret(env.DATABASE_URL);
    }
    return new ItemSigning(
      new TransferGrantSigner(deriveKey(secret, 'transfer-grant')),
      new ListCursorCodec(deriveKey(secret, 'list-cursor')),
    );
  }
}
