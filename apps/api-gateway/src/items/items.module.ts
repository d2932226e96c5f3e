import { Module } from '@nestjs/common';
import { ItemsController } from './items.controller';
import { MultipartUpload } from './multipart-upload';
import { StorageTransferClient } from './storage-transfer.client';

@Module({
  controllers: [ItemsController],
  providers: [StorageTransferClient, MultipartUpload],
  exports: [StorageTransferClient],
})
export class ItemsModule {}
