import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ContentQueryDto,
  DomainError,
  DownloadUrlQueryDto,
  DownloadUrlResponseDto,
  ErrorCode,
  ItemReferenceDto,
  ItemsConfirm,
  ItemsCreateFolder,
  ItemsDelete,
  ItemsDownloadUrl,
  ItemsList,
  ItemsRename,
  ItemsTransferTarget,
  ItemsUploadUrl,
  ListItemsQueryDto,
  ListItemsResponseDto,
  ProviderItemDto,
  RenameQueryDto,
  UploadQueryDto,
  UploadUrlRequestDto,
  UploadUrlResponseDto,
  validatePayload,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { ApiErrors } from '../http/api-errors.decorator';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { MultipartUpload } from './multipart-upload';
import { StorageTransferClient, TransferError } from './storage-transfer.client';

const PROVIDER_ID = ApiParam({ name: 'providerId', type: 'string', description: 'Provider ID' });

/** Response headers of a content download that the client must see as storage sent them. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified'];

function isJson(contentType: string | undefined): boolean {
  return !!contentType && /^application\/([\w.+-]+\+)?json\b/i.test(contentType);
}

/**
 * Files and folders inside a provider. Metadata operations are NATS requests to storage; the
 * bytes of uploads and downloads stream over HTTP between the client, the gateway and storage.
 */
@ApiTags('Provider Items')
@ApiBearerAuth('TOKEN')
@ApiExtraModels(ItemReferenceDto)
@Controller('api/core/providers/:providerId/items')
export class ItemsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly transfer: StorageTransferClient,
    private readonly multipart: MultipartUpload,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listItems',
    summary: 'List items',
    description: 'Files and folders directly inside a directory, in key order, a page at a time.',
  })
  @PROVIDER_ID
  @ApiOkResponse({ type: ListItemsResponseDto })
  @ApiErrors(400, 401, 403, 404)
  list(
    @UuidParam('providerId') providerId: string,
    @Query() query: ListItemsQueryDto,
    @Caller() ctx: RpcContext,
  ): Promise<ListItemsResponseDto> {
    return this.rpc.call(ItemsList, { ...query, providerId }, ctx);
  }

  @Post()
  @ApiOperation({
    operationId: 'uploadFile',
    summary: 'Upload a file or create a folder',
    description:
      "multipart/form-data with a part `file`: uploads it into the directory given by the query `key` ('' or ending in '/'). " +
      "application/json `{ key }` with a key ending in '/': creates that folder.",
  })
  @PROVIDER_ID
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({
    required: true,
    schema: {
      oneOf: [
        { type: 'object', properties: { file: { type: 'string', format: 'binary', description: 'File to upload' } }, required: ['file'] },
        { $ref: getSchemaPath(ItemReferenceDto) },
      ],
    },
  })
  @ApiCreatedResponse({ type: ProviderItemDto, description: 'File uploaded or folder created' })
  @ApiErrors(400, 401, 403, 404, 409, 413)
  async create(
    @UuidParam('providerId') providerId: string,
    @Query() query: UploadQueryDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Caller() ctx: RpcContext,
  ): Promise<ProviderItemDto> {
    if (req.isMultipart()) return this.multipart.upload(req, reply, providerId, query.key, ctx);
    if (req.headers['content-type'] !== undefined && !isJson(req.headers['content-type'])) {
      throw new DomainError(
        ErrorCode.UNSUPPORTED_MEDIA_TYPE,
        'Send multipart/form-data with a part named file to upload, or JSON { "key": "folder/" } to create a folder',
      );
    }
    const body = await validatePayload(ItemReferenceDto, req.body ?? {});
    return this.rpc.call(ItemsCreateFolder, { providerId, key: body.key }, ctx);
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteItem', summary: 'Delete item', description: 'Deletes a file, or a folder with everything in it.' })
  @PROVIDER_ID
  @ApiNoContentResponse({ description: 'Item deleted' })
  @ApiErrors(400, 401, 403, 404)
  async delete(@UuidParam('providerId') providerId: string, @Body() body: ItemReferenceDto, @Caller() ctx: RpcContext): Promise<void> {
    await this.rpc.call(ItemsDelete, { providerId, key: body.key }, ctx);
  }

  @Patch()
  @HttpCode(200)
  @ApiOperation({ operationId: 'renameItem', summary: 'Rename item', description: 'Renames a file or folder within its directory.' })
  @PROVIDER_ID
  @ApiOkResponse({ type: ProviderItemDto, description: 'Item renamed' })
  @ApiErrors(400, 401, 403, 404, 409)
  rename(
    @UuidParam('providerId') providerId: string,
    @Query() query: RenameQueryDto,
    @Body() body: ItemReferenceDto,
    @Caller() ctx: RpcContext,
  ): Promise<ProviderItemDto> {
    return this.rpc.call(ItemsRename, { providerId, key: body.key, newName: query.newName }, ctx);
  }

  @Post('upload-url')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'getUploadUrl',
    summary: 'Get presigned upload URL',
    description: 'A URL to PUT the file bytes to directly; then call confirm.',
  })
  @PROVIDER_ID
  @ApiOkResponse({ type: UploadUrlResponseDto, description: 'Upload URL generated' })
  @ApiErrors(400, 401, 403, 404, 413)
  uploadUrl(
    @UuidParam('providerId') providerId: string,
    @Body() body: UploadUrlRequestDto,
    @Caller() ctx: RpcContext,
  ): Promise<UploadUrlResponseDto> {
    return this.rpc.call(ItemsUploadUrl, { ...body, providerId }, ctx);
  }

  @Post('confirm')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'confirmUpload',
    summary: 'Confirm presigned upload',
    description: 'Makes a file uploaded through a presigned URL known; 404 while nothing was uploaded.',
  })
  @PROVIDER_ID
  @ApiOkResponse({ type: ProviderItemDto, description: 'Upload confirmed' })
  @ApiErrors(400, 401, 403, 404)
  confirm(
    @UuidParam('providerId') providerId: string,
    @Body() body: ItemReferenceDto,
    @Caller() ctx: RpcContext,
  ): Promise<ProviderItemDto> {
    return this.rpc.call(ItemsConfirm, { providerId, key: body.key }, ctx);
  }

  @Get('download-url')
  @ApiOperation({
    operationId: 'getDownloadUrl',
    summary: 'Get download URL',
    description: 'A URL to GET the file from directly, valid for expirationMinutes.',
  })
  @PROVIDER_ID
  @ApiOkResponse({ type: DownloadUrlResponseDto, description: 'Download URL generated' })
  @ApiErrors(400, 401, 403, 404)
  downloadUrl(
    @UuidParam('providerId') providerId: string,
    @Query() query: DownloadUrlQueryDto,
    @Caller() ctx: RpcContext,
  ): Promise<DownloadUrlResponseDto> {
    return this.rpc.call(ItemsDownloadUrl, { ...query, providerId }, ctx);
  }

  @Get('content')
  @ApiOperation({
    operationId: 'getFileContent',
    summary: 'Get file content',
    description: 'The raw bytes, streamed; supports a single-range Range header (206, 416).',
  })
  @PROVIDER_ID
  @ApiProduces('*/*')
  @ApiOkResponse({ description: 'File content', schema: { type: 'string', format: 'binary' } })
  @ApiErrors(400, 401, 403, 404)
  async content(
    @UuidParam('providerId') providerId: string,
    @Query() query: ContentQueryDto,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Caller() ctx: RpcContext,
  ): Promise<void> {
    const target = await this.rpc.call(ItemsTransferTarget, { providerId, key: query.key, op: 'get' }, ctx);
    let res;
    try {
      res = await this.transfer.get(target.grant, { range: req.headers.range, 'x-request-id': ctx.requestId });
    } catch (err) {
      if (err instanceof TransferError && err.headers['content-range']) void reply.header('content-range', err.headers['content-range']);
      throw err;
    }
    void reply.status(res.statusCode ?? 200);
    for (const name of PASSED_HEADERS) if (res.headers[name] !== undefined) void reply.header(name, res.headers[name]);
    // If the client goes away, stop reading from storage.
    reply.raw.once('close', () => res.destroy());
    await reply.send(res);
  }
}
