import { Module } from '@nestjs/common';
import { FilesModule } from '../files/files.module';
import { CollectionsHandler } from './collections.handler';
import { CollectionsRepository } from './collections.repository';
import { CollectionsService } from './collections.service';

@Module({
  imports: [FilesModule],
  providers: [CollectionsRepository, CollectionsService, CollectionsHandler],
  exports: [CollectionsRepository],
})
export class CollectionsModule {}
