import { assertDockerEngine, type DockerCli, ensureTestImage, MissingTestImageError, testImage, useTestcontainers } from './infrastructure';

/** A docker CLI that answers from a table and records what it was asked. */
function fakeDocker(answers: Record<string, { ok: boolean; output: string }>): DockerCli & { calls: string[][] } {
  const calls: string[][] = [];
  const cli: DockerCli = async (args) => {
    calls.push(args);
    return answers[args[0] === 'image' ? 'inspect' : args[0]] ?? { ok: false, output: `unexpected docker ${args.join(' ')}` };
  };
  return Object.assign(cli, { calls });
}

// What docker prints when the engine runs but no registry can be reached.
const DNS_ERROR =
  'Error response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io on 10.0.0.2:53: server misbehaving\n';

describe('test infrastructure: choosing Testcontainers', () => {
  it('uses the local services unless TEST_USE_DOCKER=1, whether or not an engine runs', () => {
    expect(useTestcontainers({})).toBe(false);
    expect(useTestcontainers({ TEST_USE_DOCKER: '0' })).toBe(false);
    expect(useTestcontainers({ TEST_USE_DOCKER: '1' })).toBe(true);
  });

  it('takes the image names from TEST_POSTGRES_IMAGE / TEST_NATS_IMAGE, else the official images', () => {
    expect(testImage('postgres', { TEST_POSTGRES_IMAGE: 'docintel-local/postgres:abc' })).toBe('docintel-local/postgres:abc');
    expect(testImage('nats', {})).toBe('nats:2.10-alpine');
    expect(testImage('postgres', { TEST_POSTGRES_IMAGE: '' })).toBe('postgres:15-alpine');
  });
});

describe('test infrastructure: images the engine lacks', () => {
  it('starts from an image the engine has without pulling it', async () => {
    const docker = fakeDocker({ inspect: { ok: true, output: 'sha256:1\n' } });
    await ensureTestImage('docintel-local/postgres:abc', 'TEST_POSTGRES_IMAGE', docker);
    expect(docker.calls.map((c) => c[0])).toEqual(['image']);
  });

  it('pulls a missing image where a registry answers', async () => {
    const docker = fakeDocker({ inspect: { ok: false, output: 'No such image' }, pull: { ok: true, output: 'postgres:15-alpine\n' } });
    await ensureTestImage('postgres:15-alpine', 'TEST_POSTGRES_IMAGE', docker);
    expect(docker.calls).toContainEqual(['pull', '--quiet', 'postgres:15-alpine']);
  });

  it('names the image, the variable and the way out when it can be neither found nor pulled', async () => {
    const docker = fakeDocker({ inspect: { ok: false, output: 'No such image' }, pull: { ok: false, output: DNS_ERROR } });
    const err = await ensureTestImage('nats:2.10-alpine', 'TEST_NATS_IMAGE', docker).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingTestImageError);
    const message = (err as Error).message;
    expect(message).toMatch(/^Testcontainers needs the image nats:2\.10-alpine, which the Docker engine does not have and could not pull/);
    expect(message).toContain('set TEST_NATS_IMAGE to an image the engine has');
    expect(message).toContain('npm run test:containers');
    expect(message).toContain('leave TEST_USE_DOCKER unset');
  });

  it('says that no engine answers when TEST_USE_DOCKER=1 asks for one', async () => {
    const docker = fakeDocker({
      info: { ok: false, output: 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?' },
    });
    await expect(assertDockerEngine(docker)).rejects.toThrow(
      /^TEST_USE_DOCKER=1 but no Docker engine answers \(docker info: Cannot connect.*\)\. Start one/,
    );
  });
});
