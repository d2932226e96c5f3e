import { Column, Entity } from 'typeorm';
import { OwnedRecordEntity } from '../ownership';

/** A named group of IndexedFiles of one namespace; its files are linked through collection_files. */
@Entity({ name: 'collections' })
export class CollectionEntity extends OwnedRecordEntity {
  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text', { nullable: true })
  icon: string | null;
}

/** A collection together with the number of files it holds, counted when read. */
export interface CollectionWithCount {
  collection: CollectionEntity;
  filesCount: number;
}
