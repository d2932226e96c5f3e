import 'reflect-metadata';
import { ModulesContainer } from '@nestjs/core';
import { EmbeddingsEnv } from '@docintel/ai';
import { PassagesModule } from '../passages/passages.module';
import { PipelineModule } from '../pipeline.module';
import { SimilarModule } from '../similar/similar.module';
import { startIndexingTestApp, type IndexingTestApp } from '../testing/indexing-test-app';
import { Embeddings } from './embedder.provider';
import { LargeFileNodeEmbeddingConsumer, NodeEmbeddingConsumer } from './node-embedding.consumer';

/**
 * The modules main.ts imports, each needing the embedder (node_embedding, passage search's query
 * vectors, find-similar's works), with the real embedder of the configuration: the process must
 * hold one of it, since each is a model thread with its own memory, and run node_embedding once.
 */
let testApp: IndexingTestApp;

beforeAll(async () => {
  const embeddings = new EmbeddingsEnv();
  testApp = await startIndexingTestApp({
    name: 'embeddings',
    imports: [PipelineModule.forRoot(embeddings), PassagesModule.forRoot(embeddings), SimilarModule.forRoot(embeddings)],
  });
}, 60_000);

afterAll(async () => {
  await testApp?.close();
});

/** The distinct instances of a provider class across every module of the application. */
function instancesOf(type: abstract new (...args: never[]) => unknown): Set<unknown> {
  const found = new Set<unknown>();
  for (const module of testApp.app.get(ModulesContainer).values()) {
    for (const wrapper of module.providers.values()) if (wrapper.metatype === type && wrapper.instance) found.add(wrapper.instance);
  }
  return found;
}

describe('the embedder of indexing-service', () => {
  it('is one instance, shared by the pipeline, passage search and find-similar', () => {
    const embedders = instancesOf(Embeddings);
    expect(embedders.size).toBe(1);
    const [embeddings] = embedders as Set<Embeddings>;
    expect(embeddings.embedder.model).toMatch(/^builtin:/);
  });

  it('is used by one node_embedding consumer per lane', () => {
    expect(instancesOf(NodeEmbeddingConsumer).size).toBe(1);
    expect(instancesOf(LargeFileNodeEmbeddingConsumer).size).toBe(1);
  });
});
