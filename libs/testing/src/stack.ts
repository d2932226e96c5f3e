import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AppContainers, testAppImage, testComposeProject } from './app-container';
import { startTestInfrastructure, type TestInfrastructure } from './infrastructure';

export const REPO_ROOT = resolve(__dirname, '../../..');

export const APPS = ['storage-service', 'indexing-service', 'job-orchestrator', 'rules-engine', 'api-gateway'] as const;
export type AppName = (typeof APPS)[number];

/** Every port freePort has handed out in this process. */
const handedOut = new Set<number>();

/**
 * A port nothing listens on, never one handed out before in this process: a stack chooses its
 * gateway's port before it starts the other apps, and the kernel may offer a port just closed again,
 * which would give two apps one port (the second fails to bind, and the first answers in its place).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((res, rej) => {
      const srv = createServer();
      srv.once('error', rej);
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => res(port));
      });
    });
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

// Children never outlive the test process, even when a hook times out before stop() runs.
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

export interface RunningApp {
  name: AppName;
  port: number;
  process: ChildProcess;
  logs: string[];
  /** The app's container, when the stack runs the image (TEST_APP_IMAGE). */
  container?: string;
}

export interface StackOptions {
  label?: string;
  apps?: readonly AppName[];
  /** Extra environment for every process (or per app). */
  env?: Record<string, string>;
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
}

/**
 * The real services, started from their built entry points (npm run build first) against a
 * private database and NATS prefix, as `npm start` would run them. With TEST_APP_IMAGE set they run
 * as containers of that image instead (app-container.ts; npm run test:containers).
 */
export class TestStack {
  readonly apps = new Map<AppName, RunningApp>();
  baseUrl = '';

  private constructor(
    readonly infra: TestInfrastructure,
    readonly env: Record<string, string>,
    private readonly containers?: AppContainers,
  ) {}

  static async start(opts: StackOptions = {}): Promise<TestStack> {
    const compose = testComposeProject();
    if (compose) return TestStack.attachCompose(compose.project, compose.baseUrl, opts);
    const infra = await startTestInfrastructure(opts.label ?? 'e2e');
    // The gateway's port is chosen up front: storage builds presigned URLs on it (PUBLIC_URL).
    const gatewayPort = await freePort();
    const env = {
      DATABASE_URL: infra.databaseUrl,
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.natsPrefix,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      STORAGE_ROOT: join(REPO_ROOT, 'data', 'test-storage', infra.natsPrefix),
      PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
      ...opts.env,
    };
    const image = testAppImage();
    const stack = new TestStack(infra, env, image ? new AppContainers(image, infra.natsPrefix.replace(/_/g, '-')) : undefined);
    try {
      await stack.containers?.check();
      for (const name of opts.apps ?? APPS) {
        await stack.startApp(name, opts.appEnv?.[name], name === 'api-gateway' && !stack.apps.has(name) ? gatewayPort : undefined);
      }
      return stack;
    } catch (err) {
      await stack.stop();
      throw err;
    }
  }

  /**
   * The apps of a compose project that is up (scripts/test-containers.sh --compose): nothing is
   * started; the compose file's environment applies, not opts.env.
   */
  private static async attachCompose(project: string, baseUrl: string, opts: StackOptions): Promise<TestStack> {
    const infra: TestInfrastructure = { databaseUrl: '', natsUrl: '', natsPrefix: '', teardown: async () => undefined };
    const stack = new TestStack(infra, {}, AppContainers.ofCompose(project));
    stack.baseUrl = baseUrl;
    for (const name of opts.apps ?? APPS) await stack.startApp(name);
    return stack;
  }

  /** Starts one app (or another replica of it) and waits for its readiness. */
  async startApp(name: AppName, extraEnv: Record<string, string> = {}, fixedPort?: number): Promise<RunningApp> {
    const port = fixedPort ?? (await freePort());
    // A gateway streams file bytes to and from the storage service's HTTP port; indexing reads them from there.
    const storage = this.apps.get('storage-service');
    const readsBytes = name === 'api-gateway' || name === 'indexing-service';
    const storageUrl: Record<string, string> = readsBytes && storage ? { STORAGE_SERVICE_URL: `http://127.0.0.1:${storage.port}` } : {};
    const appEnv: Record<string, string> = { ...this.env, ...storageUrl, PORT: String(port), ...extraEnv };
    let child: ChildProcess;
    let container: string | undefined;
    if (this.containers?.compose) {
      container = await this.containers.composeContainer(name);
      child = await this.containers.follow(container);
    } else if (this.containers) {
      ({ process: child, container } = await this.containers.run(name, port, appEnv));
    } else {
      child = spawn(process.execPath, [join(REPO_ROOT, 'apps', name, 'dist', 'main.js')], {
        cwd: REPO_ROOT,
        env: { ...process.env, ...appEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      child.once('exit', () => children.delete(child));
    }
    const app: RunningApp = { name, port, process: child, logs: [], container };
    const keep = (chunk: Buffer) => {
      app.logs.push(chunk.toString());
      if (app.logs.length > 500) app.logs.shift();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const key = this.apps.has(name) ? (`${name}#${port}` as AppName) : name;
    this.apps.set(key, app);
    if (this.containers?.compose && container) {
      await this.containers.waitHealthy(container, 60_000);
      return app;
    }
    // A container adds its own start-up to the app's.
    await this.waitReady(app, this.containers ? 60_000 : undefined);
    if (name === 'api-gateway' && key === name) this.baseUrl = `http://127.0.0.1:${port}`;
    return app;
  }

  private async waitReady(app: RunningApp, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (app.process.exitCode !== null) {
        throw new Error(`${app.name} exited with ${app.process.exitCode}:\n${app.logs.join('')}`);
      }
      let service: unknown;
      try {
        const res = await fetch(`http://127.0.0.1:${app.port}/health/ready`);
        if (res.ok) service = ((await res.json()) as { service?: unknown }).service;
      } catch {
        /* not listening yet */
      }
      if (service === app.name) return;
      // Another process answers on the app's port: waiting longer would only hide it.
      if (service !== undefined)
        throw new Error(`port ${app.port} of ${app.name} is answered by ${String(service)}:\n${app.logs.join('')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${app.name} was not ready within ${timeoutMs} ms:\n${app.logs.join('')}`);
  }

  /** Runs the docintel CLI against the stack's database; resolves with stdout. */
  async cli(...args: string[]): Promise<string> {
    if (this.containers) {
      const containers = [...this.apps.values()].flatMap((a) => (a.container ? [a.container] : []));
      return this.containers.cli(containers, this.env, args);
    }
    const { stdout } = await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'apps/api-gateway/dist/cli/main.js'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...this.env },
    });
    return stdout;
  }

  /** A new token for the user in the namespace (both created when missing). */
  async token(namespace: string, email: string, ...extra: string[]): Promise<string> {
    const out = await this.cli('token', 'create', '--namespace', namespace, '--user', email, ...extra);
    return out.trim().split('\n').pop() as string;
  }

  /** fetch against the gateway with an optional token. */
  async request(path: string, init: RequestInit & { token?: string; namespace?: string } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    if (init.namespace) headers.set('x-namespace', init.namespace);
    return fetch(`${this.baseUrl}${path}`, { ...init, headers });
  }

  async stopApp(key: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const app = this.apps.get(key as AppName);
    if (!app) return null;
    this.apps.delete(key as AppName);
    if (app.process.exitCode !== null) return app.process.exitCode;
    const exited = new Promise<number | null>((res) => app.process.once('exit', (code) => res(code)));
    const send = (s: NodeJS.Signals): void => {
      // Killing `docker run` itself would leave the container running: signal the container.
      if (app.container) void this.containers?.kill(app.container, s);
      else app.process.kill(s);
    };
    send(signal);
    const timer = setTimeout(() => send('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.apps.keys()].map((k) => this.stopApp(k)));
    await this.containers?.remove();
    await this.infra.teardown();
  }

  logsOf(name: AppName): string {
    return this.apps.get(name)?.logs.join('') ?? '';
  }
}
