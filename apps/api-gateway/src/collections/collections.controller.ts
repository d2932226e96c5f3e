import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  AddFileToCollectionRequestDto,
  CollectionDto,
  CollectionFilesAdd,
  CollectionFilesList,
  CollectionFilesRemove,
  CollectionPageDto,
  CollectionsCreate,
  CollectionsDelete,
  CollectionsGet,
  CollectionsList,
  CollectionsUpdate,
  CreateCollectionRequestDto,
  IndexedFileDto,
  IndexedFilePageDto,
  ListCollectionFilesQueryDto,
  ListCollectionsQueryDto,
  OwnerProfileDto,
  UpdateCollectionRequestDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient, type JsonBytes } from '@docintel/messaging';
import { ApiErrors } from '../http/api-errors.decorator';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { passJson } from '../files/json-passthrough';
import { OwnerProfile } from '../files/owner-profile.decorator';

const COLLECTION_ID = ApiParam({ name: 'id', type: 'string', format: 'uuid', description: 'Collection ID' });

/**
 * Collections: named groups of IndexedFiles, visible to every user of the namespace, who may also
 * add and remove files; only the owner may update or delete one.
 */
@ApiTags('Collections')
@ApiBearerAuth('TOKEN')
@Controller('api/core/collections')
export class CollectionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    operationId: 'listCollections',
    summary: 'List collections',
    description: "The collections of the caller's namespace; q filters on names.",
  })
  @ApiOkResponse({ type: CollectionPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListCollectionsQueryDto, @Caller() ctx: RpcContext): Promise<CollectionPageDto> {
    return this.rpc.call(CollectionsList, query, ctx);
  }

  @Post()
  @ApiOperation({
    operationId: 'createCollection',
    summary: 'Create a collection',
    description: 'Creates a collection owned by the caller.',
  })
  @ApiCreatedResponse({ type: CollectionDto })
  @ApiErrors(400, 401, 415)
  create(
    @Body() body: CreateCollectionRequestDto,
    @OwnerProfile() owner: OwnerProfileDto,
    @Caller() ctx: RpcContext,
  ): Promise<CollectionDto> {
    return this.rpc.call(CollectionsCreate, { ...body, owner }, ctx);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getCollection', summary: 'Get a collection' })
  @COLLECTION_ID
  @ApiOkResponse({ type: CollectionDto })
  @ApiErrors(400, 401, 404)
  get(@UuidParam('id') id: string, @Caller() ctx: RpcContext): Promise<CollectionDto> {
    return this.rpc.call(CollectionsGet, { collectionId: id }, ctx);
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateCollection',
    summary: 'Update a collection',
    description:
      'Only the fields present change; null clears description or icon. Only the owner may update a collection (403 for the others).',
  })
  @COLLECTION_ID
  @ApiOkResponse({ type: CollectionDto })
  @ApiErrors(400, 401, 403, 404, 415)
  update(@UuidParam('id') id: string, @Body() body: UpdateCollectionRequestDto, @Caller() ctx: RpcContext): Promise<CollectionDto> {
    return this.rpc.call(CollectionsUpdate, { ...body, collectionId: id }, ctx);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteCollection',
    summary: 'Delete a collection',
    description: 'Only the owner may delete a collection (403 for the others). Its files are not deleted.',
  })
  @COLLECTION_ID
  @ApiNoContentResponse({ description: 'Collection deleted' })
  @ApiErrors(400, 401, 403, 404)
  async delete(@UuidParam('id') id: string, @Caller() ctx: RpcContext): Promise<void> {
    await this.rpc.call(CollectionsDelete, { collectionId: id }, ctx);
  }

  @Get(':id/files')
  @ApiOperation({ operationId: 'listCollectionFiles', summary: 'List files in collection', description: 'q filters on file names.' })
  @COLLECTION_ID
  @ApiOkResponse({ type: IndexedFilePageDto })
  @ApiErrors(400, 401, 404)
  async files(
    @UuidParam('id') id: string,
    @Query() query: ListCollectionFilesQueryDto,
    @Caller() ctx: RpcContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JsonBytes<IndexedFilePageDto>> {
    return passJson(reply, await this.rpc.callJson(CollectionFilesList, { ...query, collectionId: id }, ctx));
  }

  @Post(':id/files')
  @ApiOperation({
    operationId: 'addFileToCollection',
    summary: 'Add file to collection',
    description: 'Adding a file that is already in the collection changes nothing and answers 201 too.',
  })
  @COLLECTION_ID
  @ApiCreatedResponse({ type: IndexedFileDto })
  @ApiErrors(400, 401, 404, 415)
  addFile(@UuidParam('id') id: string, @Body() body: AddFileToCollectionRequestDto, @Caller() ctx: RpcContext): Promise<IndexedFileDto> {
    return this.rpc.call(CollectionFilesAdd, { collectionId: id, fileId: body.fileId }, ctx);
  }

  @Delete(':id/files/:fileId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'removeFileFromCollection',
    summary: 'Remove file from collection',
    description: 'The file itself is not deleted. Removing a file that is not in the collection answers 204 too.',
  })
  @COLLECTION_ID
  @ApiParam({ name: 'fileId', type: 'string', format: 'uuid', description: 'File ID' })
  @ApiNoContentResponse({ description: 'File removed from collection' })
  @ApiErrors(400, 401, 404)
  async removeFile(@UuidParam('id') id: string, @UuidParam('fileId') fileId: string, @Caller() ctx: RpcContext): Promise<void> {
    await this.rpc.call(CollectionFilesRemove, { collectionId: id, fileId }, ctx);
  }
}
