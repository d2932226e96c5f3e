import { Injectable } from '@nestjs/common';
import { FilesTables, FileTablesRequest, type FileTablesReply, type RpcContext } from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { requireNamespace } from '../tenancy';
import { FileTablesService } from './file-tables.service';

/** What multi-dimensional extraction asks of the indexing service: the tables of a file. */
@Injectable()
export class FileTablesHandler {
  constructor(private readonly tables: FileTablesService) {}

  @RpcHandler(FilesTables)
  tablesOf(req: FileTablesRequest, ctx: RpcContext): Promise<FileTablesReply> {
    return this.tables.tables(requireNamespace(ctx), req);
  }
}
