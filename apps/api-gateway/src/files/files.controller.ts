import { Body, Controller, Delete, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  CreateFileRequestDto,
  DocumentNodeDto,
  DocumentQueryDto,
  FilesCreate,
  FilesDelete,
  FilesDocument,
  FilesGet,
  FilesList,
  FilesOntologies,
  FilesRecomputeOntologies,
  FilesReindex,
  IndexedFileDto,
  IndexedFilePageDto,
  ListFilesQueryDto,
  OntologyDto,
  OwnerProfileDto,
  ReindexQueryDto,
  type RpcContext,
  type StoredNode,
} from '@docintel/contracts';
import { RpcClient, type JsonBytes } from '@docintel/messaging';
import { ApiErrors } from '../http/api-errors.decorator';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { passJson } from './json-passthrough';
import { OwnerProfile } from './owner-profile.decorator';

const FILE_ID = ApiParam({ name: 'id', type: 'string', format: 'uuid', description: 'File ID' });

const CONTENT_TYPES: Record<'markdown' | 'text', string> = {
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
};

/** IndexedFiles: documents of a namespace created from provider items, indexed asynchronously. */
@ApiTags('Files')
@ApiBearerAuth('TOKEN')
@Controller('api/core/files')
export class FilesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    operationId: 'listFiles',
    summary: 'List files in a provider',
    description: "The IndexedFiles created from items of the provider, in the caller's namespace.",
  })
  @ApiOkResponse({ type: IndexedFilePageDto })
  @ApiErrors(400, 401, 403, 404)
  async list(
    @Query() query: ListFilesQueryDto,
    @Caller() ctx: RpcContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JsonBytes<IndexedFilePageDto>> {
    return passJson(reply, await this.rpc.callJson(FilesList, query, ctx));
  }

  @Post()
  @ApiOperation({
    operationId: 'createFile',
    summary: 'Create a file',
    description:
      'Creates an IndexedFile (status PENDING) from an existing provider item and triggers its indexation. ' +
      'Creating the same item again in the namespace returns the existing IndexedFile, unchanged, with 201 as well.',
  })
  @ApiCreatedResponse({ type: IndexedFileDto })
  @ApiErrors(400, 401, 403, 404, 415)
  create(@Body() body: CreateFileRequestDto, @OwnerProfile() owner: OwnerProfileDto, @Caller() ctx: RpcContext): Promise<IndexedFileDto> {
    return this.rpc.call(FilesCreate, { providerId: body.providerId, key: body.key, owner }, ctx);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getFile', summary: 'Get a file' })
  @FILE_ID
  @ApiOkResponse({ type: IndexedFileDto })
  @ApiErrors(400, 401, 404)
  get(@UuidParam('id') id: string, @Caller() ctx: RpcContext): Promise<IndexedFileDto> {
    return this.rpc.call(FilesGet, { fileId: id }, ctx);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteFile',
    summary: 'Delete a file',
    description: 'Removes the IndexedFile, its document nodes and its collection memberships. The provider item stays.',
  })
  @FILE_ID
  @ApiNoContentResponse({ description: 'File deleted' })
  @ApiErrors(400, 401, 404)
  async delete(@UuidParam('id') id: string, @Caller() ctx: RpcContext): Promise<void> {
    await this.rpc.call(FilesDelete, { fileId: id }, ctx);
  }

  @Post(':id/reindex')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'reindexFile',
    summary: 'Reindex a file',
    description: 'Requests a new indexation (status PENDING); with reparse=true the content is read and parsed again.',
  })
  @FILE_ID
  @ApiAcceptedResponse({ description: 'Reindexation requested' })
  @ApiErrors(400, 401, 404)
  async reindex(@UuidParam('id') id: string, @Query() query: ReindexQueryDto, @Caller() ctx: RpcContext): Promise<void> {
    await this.rpc.call(FilesReindex, { fileId: id, reparse: query.reparse }, ctx);
  }

  @Post(':id/recompute-ontologies')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'recomputeFileOntologies',
    summary: 'Recompute file ontologies',
    description: 'Requests a new computation of ontologies and metadata, without reindexing.',
  })
  @FILE_ID
  @ApiAcceptedResponse({ description: 'Ontology recomputation requested' })
  @ApiErrors(400, 401, 404)
  async recomputeOntologies(@UuidParam('id') id: string, @Caller() ctx: RpcContext): Promise<void> {
    await this.rpc.call(FilesRecomputeOntologies, { fileId: id }, ctx);
  }

  @Get(':id/ontologies')
  @ApiOperation({
    operationId: 'getFileOntologies',
    summary: 'Get file ontologies',
    description: 'The ontologies computed for the file; empty until they have been computed.',
  })
  @FILE_ID
  @ApiOkResponse({ type: [OntologyDto] })
  @ApiErrors(400, 401, 404)
  ontologies(@UuidParam('id') id: string, @Caller() ctx: RpcContext): Promise<OntologyDto[]> {
    return this.rpc.call(FilesOntologies, { fileId: id }, ctx);
  }

  @Get(':id/document')
  @ApiOperation({
    operationId: 'getFileDocument',
    summary: 'Read the indexed document (extension to the reference API)',
    description:
      'The node tree of the indexed document (format=json), or the document in reading order as Markdown (tables as Markdown tables) ' +
      'or plain text. 409 while the file has not been indexed yet; during a reindex the previous tree is served until the new one is complete.',
  })
  @FILE_ID
  @ApiExtraModels(DocumentNodeDto)
  @ApiOkResponse({
    description: 'The root node (json), or the rendered document',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(DocumentNodeDto) } },
      'text/markdown': { schema: { type: 'string' } },
      'text/plain': { schema: { type: 'string' } },
    },
  })
  @ApiErrors(400, 401, 404, 409, 413)
  async document(
    @UuidParam('id') id: string,
    @Query() query: DocumentQueryDto,
    @Caller() ctx: RpcContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StoredNode | string> {
    const doc = await this.rpc.call(FilesDocument, { fileId: id, format: query.format }, ctx);
    if (doc.format === 'json') return doc.root;
    void reply.header('content-type', CONTENT_TYPES[doc.format]);
    return doc.content;
  }
}
