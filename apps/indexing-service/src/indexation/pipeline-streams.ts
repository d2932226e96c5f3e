import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Streams } from '@docintel/contracts';
import { JetStream } from '@docintel/messaging';

/** The streams the pipeline publishes to and consumes from, created (or updated) on start-up by every replica. */
@Injectable()
export class PipelineStreams implements OnModuleInit {
  constructor(private readonly jetstream: JetStream) {}

  async onModuleInit(): Promise<void> {
    for (const stream of [Streams.hooks, Streams.work, Streams.deadLetters]) await this.jetstream.ensureStream(stream);
  }
}
