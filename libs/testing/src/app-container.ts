import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { ensureTestImage, testContainerLabels } from './infrastructure';

/** The image TestStack runs the apps from (TEST_APP_IMAGE, built from docker/Dockerfile), or none: built entry points. */
export function testAppImage(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEST_APP_IMAGE || undefined;
}

/**
 * A Docker Compose project already up (TEST_COMPOSE_PROJECT, its gateway at TEST_BASE_URL) that
 * TestStack drives instead of starting anything: scripts/test-containers.sh --compose.
 */
export function testComposeProject(env: NodeJS.ProcessEnv = process.env): { project: string; baseUrl: string } | undefined {
  if (!env.TEST_COMPOSE_PROJECT) return undefined;
  if (!env.TEST_BASE_URL) throw new Error('TEST_COMPOSE_PROJECT needs TEST_BASE_URL: the URL of the compose gateway');
  return { project: env.TEST_COMPOSE_PROJECT, baseUrl: env.TEST_BASE_URL };
}

const docker = process.env.DOCKER_CLI ?? 'docker';

// Containers never outlive the test process, like the child processes of TestStack.
const running = new Set<string>();
process.once('exit', () => {
  if (running.size === 0) return;
  try {
    execFileSync(docker, ['rm', '--force', ...running], { stdio: 'ignore', timeout: 20_000 });
  } catch {
    /* already gone */
  }
});

/**
 * The apps of one TestStack as containers of the image, the way compose and the chart run them:
 * one container per app, started by the image's entrypoint with the app's name, as its non-root
 * user. They share the host's network, so the URLs and ports of the local run hold unchanged
 * (Testcontainers publishes Postgres and NATS on localhost), and storage-service keeps its files
 * in a volume of the stack, so a restarted storage-service finds them.
 */
export class AppContainers {
  private readonly volume: string;
  private volumeReady?: Promise<void>;

  /** An image to run containers of, or (image undefined) the containers of a compose project to drive. */
  constructor(
    readonly image: string | undefined,
    private readonly id: string,
  ) {
    this.volume = `docintel-test-${id}-storage`;
  }

  static ofCompose(project: string): AppContainers {
    return new AppContainers(undefined, project);
  }

  get compose(): boolean {
    return this.image === undefined;
  }

  /** The container compose made for the service (running or stopped). */
  async composeContainer(service: string): Promise<string> {
    const { stdout } = await promisify(execFile)(docker, [
      'ps',
      '--all',
      '--quiet',
      '--filter',
      `label=com.docker.compose.project=${this.id}`,
      '--filter',
      `label=com.docker.compose.service=${service}`,
    ]);
    const id = stdout.trim().split('\n')[0];
    if (!id) throw new Error(`compose project ${this.id} has no container for ${service}`);
    return id;
  }

  /**
   * Starts the compose container unless it runs, then follows it: the returned `docker attach`
   * lives as long as the container and exits with its exit code, like `docker run` above.
   */
  async follow(container: string): Promise<ChildProcess> {
    const { stdout } = await promisify(execFile)(docker, ['inspect', '--format', '{{.State.Running}}', container]);
    if (stdout.trim() !== 'true') await promisify(execFile)(docker, ['start', container]);
    return spawn(docker, ['attach', '--no-stdin', '--sig-proxy=false', container], { stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /** Compose publishes the gateway only: the others are ready when their healthcheck says so. */
  async waitHealthy(container: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let status = '';
    while (Date.now() < deadline) {
      ({ stdout: status } = await promisify(execFile)(docker, [
        'inspect',
        '--format',
        '{{.State.Status}} {{.State.Health.Status}}',
        container,
      ]));
      if (status.trim() === 'running healthy') return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`container ${container} was not healthy within ${timeoutMs} ms (${status.trim()})`);
  }

  /** Clear message when the image is missing, instead of docker run's pull error. */
  async check(): Promise<void> {
    if (this.image !== undefined) await ensureTestImage(this.image, 'TEST_APP_IMAGE');
  }

  /**
   * `docker run` in the foreground: the returned process lives as long as the container and exits
   * with its exit code, so TestStack treats it as it treats a local app process.
   */
  async run(app: string, port: number, env: Record<string, string>): Promise<{ container: string; process: ChildProcess }> {
    this.volumeReady ??= promisify(execFile)(docker, ['volume', 'create', ...this.labelArgs('--label'), this.volume]).then(() => undefined);
    await this.volumeReady;
    const container = `docintel-test-${this.id}-${app}-${port}`;
    const appEnv = { ...env, STORAGE_ROOT: '/app/data/storage' };
    const args = [
      'run',
      '--rm',
      '--name',
      container,
      '--network',
      'host',
      ...this.labelArgs('--label'),
      '--volume',
      `${this.volume}:/app/data/storage`,
      // `-e NAME` takes the value from this client's environment: no values on the command line.
      ...Object.keys(appEnv).flatMap((k) => ['--env', k]),
      this.image ?? '',
      app,
    ];
    const child = spawn(docker, args, { env: { ...process.env, ...appEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(container);
    child.once('exit', () => running.delete(container));
    return { container, process: child };
  }

  /**
   * Sends the signal to the app in the container (what Kubernetes or compose do on stop). SIGTERM
   * to a compose container goes through `docker stop`, so that its restart policy leaves it stopped.
   */
  async kill(container: string, signal: NodeJS.Signals): Promise<void> {
    const args = this.compose && signal === 'SIGTERM' ? ['stop', '--time', '20', container] : ['kill', '--signal', signal, container];
    await promisify(execFile)(docker, args).catch(() => undefined);
  }

  /** The admin CLI of the image: in a running app container of the stack, else in a new one. */
  async cli(containers: string[], env: Record<string, string>, args: string[]): Promise<string> {
    const envArgs = Object.keys(env).flatMap((k) => ['--env', k]);
    const where = this.compose ? containers[0] : containers.find((c) => running.has(c));
    const command = where
      ? ['exec', ...envArgs, where, 'docintel', 'cli', ...args]
      : ['run', '--rm', '--network', 'host', ...this.labelArgs('--label'), ...envArgs, this.image ?? '', 'cli', ...args];
    if (!where && this.image === undefined) throw new Error('no running container of the compose project to run the CLI in');
    const { stdout } = await promisify(execFile)(docker, command, { env: { ...process.env, ...env } });
    return stdout;
  }

  async remove(): Promise<void> {
    if (this.image === undefined) return;
    if (!this.volumeReady) return;
    await promisify(execFile)(docker, ['volume', 'rm', '--force', this.volume]).catch(() => undefined);
  }

  private labelArgs(flag: string): string[] {
    return Object.entries(testContainerLabels()).flatMap(([k, v]) => [flag, `${k}=${v}`]);
  }
}
