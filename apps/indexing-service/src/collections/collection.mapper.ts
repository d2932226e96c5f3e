import { entityId, type CollectionDto } from '@docintel/contracts';
import type { CollectionWithCount } from './collection.entity';

/** The collection as the API shows it. Derivation fields stay empty: collections are not derived yet. */
export function toCollectionDto({ collection: c, filesCount }: CollectionWithCount): CollectionDto {
  return {
    id: entityId(c.id, 'COLLECTION'),
    createdTime: c.createdTime,
    owner: { id: c.ownerId },
    policy: entityId(c.policyId, 'POLICY'),
    name: c.name,
    description: c.description,
    icon: c.icon,
    ownerFirstName: c.ownerFirstName,
    ownerLastName: c.ownerLastName,
    ownerEmail: c.ownerEmail,
    ownerAvatarUrl: c.ownerAvatarUrl,
    filesCount,
    derivedFromCollectionId: null,
    derivedFromCollectionName: null,
    derivedFromViewId: null,
    derivedFromViewName: null,
    chained: false,
    derivedToCollectionId: null,
    derivedToCollectionName: null,
  };
}
