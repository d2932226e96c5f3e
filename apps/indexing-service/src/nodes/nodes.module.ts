import { Module } from '@nestjs/common';
import { DocumentHandler } from './document.handler';
import { DocumentService } from './document.service';
import { NodeStoreRepository } from './node-store.repository';

@Module({
  providers: [NodeStoreRepository, DocumentService, DocumentHandler],
  exports: [NodeStoreRepository],
})
export class NodesModule {}
