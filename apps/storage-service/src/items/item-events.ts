import { Inject, Injectable } from '@nestjs/common';
import { DomainEvents, Events, type ProviderItemDto, type ProviderItemEvent, type RpcContext } from '@docintel/contracts';
import { JetStream } from '@docintel/messaging';
import { LOGGER, type Logger } from '@docintel/observability';

export type ItemEventKind = keyof typeof Events;

/** Publishes item.created / deleted / renamed on DOMAIN_EVENTS once a change has happened. */
@Injectable()
export class ItemEvents {
  constructor(
    private readonly jetstream: JetStream,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async publish(
    kind: ItemEventKind,
    item: Pick<ProviderItemDto, 'providerId' | 'key' | 'type'> & Partial<ProviderItemDto>,
    ctx: Pick<RpcContext, 'requestId'> & { namespace: string },
    previousKey?: string,
  ): Promise<void> {
    const subject = Events[kind];
    const event: ProviderItemEvent = {
      providerId: item.providerId,
      namespace: ctx.namespace,
      key: item.key,
      type: item.type,
      ...(previousKey !== undefined ? { previousKey } : {}),
      ...(item.type === 'FILE' && item.size !== undefined ? { size: item.size, mediaType: item.mediaType ?? null } : {}),
      occurredAt: Date.now(),
      requestId: ctx.requestId,
    };
    // One change per request and key: a retried publish of it is stored once.
    const msgId = `${subject}:${ctx.requestId}:${item.providerId}:${ctx.namespace}:${item.key}`;
    try {
      await this.jetstream.publish(DomainEvents[kind], event, msgId);
    } catch (err) {
      // The change is done and cannot be undone; say loudly which event is missing.
      this.logger.error({ err, subject, event }, 'domain event could not be published');
    }
  }
}
