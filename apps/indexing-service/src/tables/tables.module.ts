import { Module } from '@nestjs/common';
import { FileTablesHandler } from './file-tables.handler';
import { FileTablesRepository } from './file-tables.repository';
import { FileTablesService } from './file-tables.service';

/** indexing.files.tables: a file's tables, read from its node tree, for multi-dimensional extraction. */
@Module({ providers: [FileTablesRepository, FileTablesService, FileTablesHandler] })
export class TablesModule {}
