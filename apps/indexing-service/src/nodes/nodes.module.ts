import { Module } from '@nestjs/common';
import { IndexationModule } from '../indexation/indexation.module';
import { DocumentHandler } from './document.handler';
import { DocumentService } from './document.service';
import { NodeStoreRepository } from './node-store.repository';

@Module({
  imports: [IndexationModule],
  providers: [NodeStoreRepository, DocumentService, DocumentHandler],
  exports: [NodeStoreRepository],
})
export class NodesModule {}
