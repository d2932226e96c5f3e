import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PassagesSearch, SearchPassagesReplyDto, SearchPassagesRequestDto, type RpcContext } from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { ApiErrors } from '../http/api-errors.decorator';
import { Caller } from '../identity/rpc-context.decorator';

/**
 * Search (an extension): the passages the jobs would read for a query, across every indexed file
 * of the caller's namespace or the files named. What "ask across everything" starts from: the best
 * passages say which files to ask.
 */
@ApiTags('Search')
@ApiBearerAuth('TOKEN')
@Controller('api/core/passages')
export class SearchController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'searchPassages',
    summary: 'Search passages',
    description:
      "Extension: hybrid search (BM25 and the node vectors, fused: the search QA and extraction jobs use) over every indexed file of the caller's namespace, or over fileIds. Best first; files of other namespaces are never searched, and an id that names none is ignored.",
  })
  @ApiOkResponse({ type: SearchPassagesReplyDto })
  @ApiErrors(400, 401, 415)
  async search(@Body() body: SearchPassagesRequestDto, @Caller() ctx: RpcContext): Promise<SearchPassagesReplyDto> {
    const { passages } = await this.rpc.call(PassagesSearch, { query: body.query, limit: body.limit, fileIds: body.fileIds }, ctx);
    // The wire shape is the passage without its segments (positions are for citations, not search hits).
    return { passages: passages.map(({ segments: _segments, ...hit }) => hit) };
  }
}
