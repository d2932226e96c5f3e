/**
 * Every NATS subject the services speak, written once. Request/reply subjects follow
 * `<service>.<resource>.<verb>`. A deployment-wide prefix (NATS_PREFIX) is applied by the
 * messaging library, never here, so that tests and tenants of one NATS server stay apart.
 */
export const Subjects = {
  gateway: { ping: 'gateway.health.ping' },
  storage: {
    ping: 'storage.health.ping',
    providersList: 'storage.providers.list',
    providersGet: 'storage.providers.get',
    itemsList: 'storage.items.list',
    itemsCreateFolder: 'storage.items.create-folder',
    itemsDelete: 'storage.items.delete',
    itemsRename: 'storage.items.rename',
    itemsStat: 'storage.items.stat',
    itemsUploadUrl: 'storage.items.upload-url',
    itemsConfirm: 'storage.items.confirm',
    itemsDownloadUrl: 'storage.items.download-url',
    /** Internal: where the gateway streams an upload or reads content (a signed storage-service or S3 URL). */
    itemsTransferTarget: 'storage.items.transfer-target',
  },
  indexing: {
    ping: 'indexing.health.ping',
    filesList: 'indexing.files.list',
    filesCreate: 'indexing.files.create',
    filesGet: 'indexing.files.get',
    filesDelete: 'indexing.files.delete',
    filesReindex: 'indexing.files.reindex',
    filesRecomputeOntologies: 'indexing.files.recompute-ontologies',
    filesOntologies: 'indexing.files.ontologies',
    filesDocument: 'indexing.files.document',
    collectionsList: 'indexing.collections.list',
    collectionsCreate: 'indexing.collections.create',
    collectionsGet: 'indexing.collections.get',
    collectionsUpdate: 'indexing.collections.update',
    collectionsDelete: 'indexing.collections.delete',
    collectionFilesList: 'indexing.collections.files-list',
    collectionFilesAdd: 'indexing.collections.files-add',
    collectionFilesRemove: 'indexing.collections.files-remove',
    /** The files a job names (ids and collections), with their indexation status. */
    filesResolve: 'indexing.files.resolve',
    /** Hybrid passage retrieval over some files, for the job engine. */
    passagesSearch: 'indexing.passages.search',
    /** The passage of one node and the passages before and after it in reading order (the agent's read tool). */
    passagesAround: 'indexing.passages.around',
    /** The tables of a file (rows of cells with positions), for multi-dimensional extraction. */
    filesTables: 'indexing.files.tables',
    /** Find-similar: identify a source among the caller's files (id, DOI, open-access id) and rank the others against it. */
    similarBySource: 'indexing.similar.by-source',
    /** Find-similar: rank the caller's files against a work known only by its metadata (a remote search's answer). */
    similarByWork: 'indexing.similar.by-work',
  },
  jobs: {
    ping: 'jobs.health.ping',
    qaCreate: 'jobs.qa.create',
    extractionCreate: 'jobs.extraction.create',
    /** Multi-dimensional extraction: its subjects keep the shorter name they were first published with. */
    multiDimExtractionCreate: 'jobs.multi-dim.create',
    /** A multi-dimensional extraction job's rows, merged across its files, in parts. */
    multiDimExtractionRows: 'jobs.multi-dim.rows',
    findSimilarCreate: 'jobs.find-similar.create',
    /** A find-similar job with its sources and statistics (its result is read in parts with jobs.jobs.results). */
    findSimilarGet: 'jobs.find-similar.get',
    findSimilarList: 'jobs.find-similar.list',
    agentCreate: 'jobs.agent.create',
    /** Agent jobs, newest first, optionally of one conversation. */
    agentList: 'jobs.agent.list',
    /** The tool calls of an agent job, in order. */
    agentTrace: 'jobs.agent.trace',
    list: 'jobs.jobs.list',
    get: 'jobs.jobs.get',
    inputs: 'jobs.jobs.inputs',
    results: 'jobs.jobs.results',
    annotations: 'jobs.jobs.annotations',
    cancel: 'jobs.jobs.cancel',
  },
  rules: {
    ping: 'rules.health.ping',
    triggersList: 'rules.triggers.list',
    triggersSchema: 'rules.triggers.schema',
    rulesList: 'rules.rules.list',
    rulesGet: 'rules.rules.get',
    rulesCreate: 'rules.rules.create',
    rulesUpsert: 'rules.rules.upsert',
    rulesDelete: 'rules.rules.delete',
    /** Decides whether a trigger runs for an operation, from the namespace's current rule. */
    evaluate: 'rules.rules.evaluate',
  },
} as const;

/** Domain events on the DOMAIN_EVENTS stream. */
export const Events = {
  itemCreated: 'events.storage.item.created',
  itemDeleted: 'events.storage.item.deleted',
  itemRenamed: 'events.storage.item.renamed',
} as const;

/** Pipeline hook points: JetStream subjects whose names are part of the interface. */
export const HookPoints = {
  rootNodeCreated: 'root_node.created',
  nodeBatchCreated: 'node.batch.created',
  nodeUpdated: 'node.updated',
} as const;
export type HookPoint = (typeof HookPoints)[keyof typeof HookPoints];

/** Durable work queues (WORK stream): work a service hands to itself or a peer, acked when done. */
export const WorkSubjects = {
  /** Re-run the steps after parsing on a file's committed tree (reindex without reparse). */
  indexingReindex: 'work.indexing.reindex',
  /** Compute a file's ontologies and metadata from its committed tree. */
  indexingOntologies: 'work.indexing.ontologies',
  /** Run one unit (a question, a file's metas, or a find-similar source) of an AI job. */
  jobsUnit: 'work.jobs.unit',
  /** Run an agent job; its own queue, so that an agent waiting for a sub-job never holds the slot that sub-job needs. */
  jobsAgent: 'work.jobs.agent',
} as const;

/** JetStream streams, by logical name; the messaging library prefixes them per deployment. */
export const Streams = {
  domainEvents: { name: 'DOMAIN_EVENTS', subjects: ['events.>'] },
  hooks: { name: 'HOOKS', subjects: [HookPoints.rootNodeCreated, HookPoints.nodeBatchCreated, HookPoints.nodeUpdated] },
  work: { name: 'WORK', subjects: ['work.>'] },
  deadLetters: { name: 'DEAD_LETTERS', subjects: ['dlq.>'] },
} as const;
export type StreamDefinition = (typeof Streams)[keyof typeof Streams];

/** Where a message goes after its last failed delivery. */
export const deadLetterSubject = (subject: string): string => `dlq.${subject}`;

/** The services, by the names used for queue groups, health pings and logs. */
export const ServiceNames = {
  gateway: 'api-gateway',
  storage: 'storage-service',
  indexing: 'indexing-service',
  jobs: 'job-orchestrator',
  rules: 'rules-engine',
} as const;

export interface PingReply {
  service: string;
  instance: string;
  uptimeSeconds: number;
}
