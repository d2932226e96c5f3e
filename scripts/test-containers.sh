#!/usr/bin/env bash
# npm run test:containers: the end-to-end suites against containers, from a machine with no Docker.
#
#   1. a Docker engine: started when none answers (Debian's docker.io installed first when dockerd
#      is missing); overlay2 where the kernel allows it, else vfs. It is left running.
#   2. local images, since no registry is reachable: a Debian base made with debootstrap, and from it
#      Node.js (this machine's), PostgreSQL 15 with pgvector (vendored source), NATS (Debian's), and
#      the app image of docker/Dockerfile on that Node base. Each is tagged with a hash of its inputs
#      and reused while they do not change.
#   3. the suites of E2E_SUITES with Testcontainers starting PostgreSQL and NATS (TEST_USE_DOCKER=1)
#      and every app running as a container of the app image (TEST_APP_IMAGE).
#   4. compose.yaml up with the overrides for a host without MinIO and without a registry
#      (docker/compose.no-minio.yaml, compose.local-images.yaml, and compose.v1.yaml for Debian's
#      docker-compose), the smoke suite against that project, compose down.
#
# Needs root (apt-get, dockerd, debootstrap) and ../shared beside the clone.
#
#   scripts/test-containers.sh             all of the above
#   scripts/test-containers.sh --suites    1 to 3
#   scripts/test-containers.sh --compose   1, 2 and 4
#   scripts/test-containers.sh --images    1 and 2; prints the TEST_*_IMAGE variables
#   scripts/test-containers.sh --engine    1
#
# docs/deployment.md ("Containers on this machine") says what this runs and what it does not.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE="${1:---all}"
case "$MODE" in
  --all | --suites | --compose | --images | --engine) MODE="${MODE#--}" ;;
  *) echo "usage: $0 [--suites | --compose | --images | --engine]" >&2; exit 64 ;;
esac

E2E_SUITES="${E2E_SUITES:-smoke files jobs reference-client}"
BASE_IMAGE="${DOCINTEL_LOCAL_BASE:-docintel-local/debian:bookworm}"
PGVECTOR_TARBALL="${PGVECTOR_TARBALL:-../shared/vendor/pgvector-0.8.6.tar.gz}"
DOCKERD_LOG="${DOCKERD_LOG:-/var/log/docintel-dockerd.log}"
RUN_ID="tc$$-$(date +%s)"
WORK="$(mktemp -d)"
trap cleanup EXIT

# Progress on stderr: functions below hand image names back on stdout.
step() { printf '\n== %s (%ss)\n' "$*" "$SECONDS" >&2; }
have_image() { docker image inspect "$1" >/dev/null 2>&1; }
image_id() { docker image inspect --format '{{.Id}}' "$1"; }
as_root() {
  if [ "$(id -u)" != 0 ]; then
    echo "test-containers: $* needs root" >&2
    exit 1
  fi
}

# ---------------------------------------------------------------------------------------------
# 1. The engine.

engine_up() { docker info --format '{{.ServerVersion}}' >/dev/null 2>&1; }

start_engine() {
  engine_up && return 0
  as_root "starting a Docker engine"
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
    step "Installing Docker (Debian's docker.io)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
  fi
  # No systemd here: dockerd in the background, left running for later runs. dockerd picks overlay2
  # where the kernel and filesystem allow it; should it fail to start, vfs (which copies whole
  # layers, so slower and bigger) is tried.
  local driver pid
  for driver in "" vfs; do
    step "Starting dockerd ${driver:+with the $driver storage driver }(log: $DOCKERD_LOG)"
    setsid nohup dockerd ${driver:+--storage-driver "$driver"} >>"$DOCKERD_LOG" 2>&1 </dev/null &
    pid=$!
    for _ in $(seq 1 60); do
      engine_up && return 0
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  echo "test-containers: dockerd did not start; see $DOCKERD_LOG" >&2
  exit 1
}

# ---------------------------------------------------------------------------------------------
# 2. The images.

# The Debian mirror apt uses on this machine (containers reach the same one).
debian_mirror() {
  local uri
  uri="$(sed -n 's/^URIs:[[:space:]]*\(http[^[:space:]]*\/debian\)\/\?[[:space:]]*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)"
  [ -n "$uri" ] || uri="$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(http[^[:space:]]*\/debian\)\/\?[[:space:]].*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n 1)"
  echo "${uri:-http://deb.debian.org/debian}"
}

build_base() {
  have_image "$BASE_IMAGE" && return 0
  as_root "debootstrap"
  if ! command -v debootstrap >/dev/null 2>&1; then
    step "Installing debootstrap"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  local mirror dir="$WORK/rootfs"
  mirror="$(debian_mirror)"
  step "Making the Debian base image $BASE_IMAGE with debootstrap from $mirror"
  debootstrap --variant=minbase bookworm "$dir" "$mirror" >"$WORK/debootstrap.log" 2>&1 || {
    tail -n 20 "$WORK/debootstrap.log" >&2
    exit 1
  }
  # apt as on this machine (bookworm, updates, security), no recommends, no documentation: what the
  # official debian:bookworm-slim image does to stay small.
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    cp /etc/apt/sources.list.d/debian.sources "$dir/etc/apt/sources.list.d/debian.sources"
    : >"$dir/etc/apt/sources.list"
  fi
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$dir/etc/apt/apt.conf.d/90docintel"
  # Downloaded packages are deleted once installed, so that no image layer keeps them.
  cat >"$dir/etc/apt/apt.conf.d/91docintel-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  printf 'path-exclude /usr/share/doc/*\npath-include /usr/share/doc/*/copyright\npath-exclude /usr/share/man/*\npath-exclude /usr/share/locale/*\npath-exclude /usr/share/info/*\n' \
    >"$dir/etc/dpkg/dpkg.cfg.d/90docintel"
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/* "$dir"/usr/share/man/* "$dir"/usr/share/info/* "$dir"/usr/share/locale/*
  find "$dir/usr/share/doc" -mindepth 2 ! -name copyright -delete 2>/dev/null || true
  tar -C "$dir" -c . | docker import --change 'CMD ["bash"]' - "$BASE_IMAGE" >/dev/null
  rm -rf "$dir"
}

# Hash of files (paths and contents) and of extra strings: the tag that keys an image to its inputs.
inputs_hash() {
  {
    printf '%s\n' "$@"
    # The temporary build contexts' own path is no input.
    tr '\n' '\0' <&3 | xargs -0 -r sha256sum | sed "s|$WORK/||"
  } | sha256sum | cut -c1-16
}

# build_image <repository> <hash> <context> <dockerfile> [docker build options...]
# Reuses <repository>:<hash> when it exists; drops the repository's other tags after a build.
build_image() {
  local repo="$1" hash="$2" context="$3" dockerfile="$4"
  shift 4
  local tag="$repo:$hash"
  if have_image "$tag"; then
    echo "reusing $tag" >&2
  else
    step "Building $tag"
    # --network host: RUN steps reach the Debian mirror and the npm registry as this machine does.
    if ! docker build --force-rm --network host -f "$dockerfile" -t "$tag" "$@" "$context" >"$WORK/build.log" 2>&1; then
      tail -n 40 "$WORK/build.log" >&2
      echo "test-containers: building $tag failed (log above)" >&2
      exit 1
    fi
    docker images --format '{{.Tag}}' "$repo" | grep -vx -e "$hash" -e latest | sed "s|^|$repo:|" | xargs -r docker rmi >/dev/null 2>&1 || true
    # Untagged stage images are the build cache of the next build (npm ci while the manifests stay the
    # same): kept for a day.
    docker image prune --force --filter until=24h >/dev/null 2>&1 || true
  fi
  # A stable name too, for compose (docker/compose.local.yaml).
  docker tag "$tag" "$repo:latest"
  echo "$tag"
}

build_images() {
  build_base
  local base_id ctx="$WORK/context" hash node_dir
  base_id="$(image_id "$BASE_IMAGE")"

  # Node.js: this machine's binary and npm, where the official image has them, and its CA certificates.
  local node_bin rootfs="$ctx/node/rootfs"
  node_bin="$(readlink -f "$(command -v node)")"
  node_dir="$(dirname "$(dirname "$node_bin")")"
  mkdir -p "$rootfs/usr/local/bin" "$rootfs/usr/local/lib/node_modules" "$rootfs/etc/ssl/certs"
  cp "$node_bin" "$rootfs/usr/local/bin/node"
  cp -r "$node_dir/lib/node_modules/npm" "$rootfs/usr/local/lib/node_modules/npm"
  [ -f /etc/ssl/certs/ca-certificates.crt ] && cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/"
  cp docker/local/node.Dockerfile "$ctx/node/"
  hash="$(inputs_hash "$base_id" "$(node --version)" "$(npm --version 2>/dev/null)" 3< <(find "$ctx/node" -type f -not -path '*/node_modules/npm/*' | LC_ALL=C sort))"
  NODE_IMAGE="$(build_image docintel-local/node "$hash" "$ctx/node" "$ctx/node/node.Dockerfile" --build-arg "BASE_IMAGE=$BASE_IMAGE")"

  # PostgreSQL 15 with pgvector.
  [ -f "$PGVECTOR_TARBALL" ] || { echo "test-containers: $PGVECTOR_TARBALL not found (../shared must sit beside the clone)" >&2; exit 1; }
  mkdir -p "$ctx/postgres"
  cp docker/local/postgres.Dockerfile docker/local/postgres-entrypoint.sh "$ctx/postgres/"
  cp "$PGVECTOR_TARBALL" "$ctx/postgres/pgvector.tar.gz"
  hash="$(inputs_hash "$base_id" 3< <(printf '%s\n' docker/local/postgres.Dockerfile docker/local/postgres-entrypoint.sh "$PGVECTOR_TARBALL"))"
  POSTGRES_IMAGE="$(build_image docintel-local/postgres "$hash" "$ctx/postgres" "$ctx/postgres/postgres.Dockerfile" --build-arg "BASE_IMAGE=$BASE_IMAGE")"

  # NATS.
  mkdir -p "$ctx/nats"
  cp docker/local/nats.Dockerfile docker/local/nats-entrypoint.sh "$ctx/nats/"
  hash="$(inputs_hash "$base_id" 3< <(printf '%s\n' docker/local/nats.Dockerfile docker/local/nats-entrypoint.sh))"
  NATS_IMAGE="$(build_image docintel-local/nats "$hash" "$ctx/nats" "$ctx/nats/nats.Dockerfile" --build-arg "BASE_IMAGE=$BASE_IMAGE")"

  # The app: docker/Dockerfile on the local Node base. Keyed by what its build reads and the image
  # runs: the manifests, the TypeScript configuration and the sources of apps/ and libs/, committed
  # or not; tests, docs and the test library (libs/testing/src) are in the context but not built.
  hash="$(inputs_hash "$(image_id "$NODE_IMAGE")" 3< <(git ls-files -co --exclude-standard -- apps libs 'package.json' 'package-lock.json' 'tsconfig*.json' docker/Dockerfile docker/entrypoint.sh .dockerignore \
    ':(exclude,glob)**/*.spec.ts' ':(exclude,glob)**/*.int-spec.ts' ':(exclude,glob)**/*.md' ':(exclude)libs/testing/src' \
    | LC_ALL=C sort | while read -r f; do [ -f "$f" ] && echo "$f"; done))"
  APP_IMAGE="$(build_image docintel-local/app "$hash" . docker/Dockerfile --build-arg "NODE_IMAGE=$NODE_IMAGE")"
  export NODE_IMAGE POSTGRES_IMAGE NATS_IMAGE APP_IMAGE
}

# ---------------------------------------------------------------------------------------------
# 3. The suites.

cleanup() {
  rm -rf "$WORK"
  engine_up || return 0
  compose_down
  # What a failed or interrupted run left: the containers and volumes labelled with its id.
  docker ps -aq --filter "label=docintel.test-run=$RUN_ID" | xargs -r docker rm --force >/dev/null 2>&1 || true
  docker volume ls -q --filter "label=docintel.test-run=$RUN_ID" | xargs -r docker volume rm --force >/dev/null 2>&1 || true
}

run_suites() {
  local specs=() s
  for s in $E2E_SUITES; do specs+=("test-e2e/$s.e2e-spec.ts"); done
  step "End-to-end suites against containers: $E2E_SUITES"
  TEST_USE_DOCKER=1 \
    TEST_POSTGRES_IMAGE="$POSTGRES_IMAGE" \
    TEST_NATS_IMAGE="$NATS_IMAGE" \
    TEST_APP_IMAGE="$APP_IMAGE" \
    TEST_RUN_ID="$RUN_ID" \
    TESTCONTAINERS_RYUK_DISABLED=true \
    npx jest --selectProjects e2e --runInBand "${specs[@]}"
}

COMPOSE=()
compose_down() {
  [ -n "${COMPOSE_PROJECT_NAME:-}" ] && [ ${#COMPOSE[@]} -gt 0 ] || return 0
  "${COMPOSE[@]}" down --volumes --remove-orphans >/dev/null 2>&1 || true
}

# compose.yaml as a user runs it, with the overrides for a host without MinIO and without a
# registry, then the smoke suite against the running project (TEST_COMPOSE_PROJECT).
run_compose() {
  if docker compose version >/dev/null 2>&1; then
    COMPOSE=(docker compose)
  else
    if ! command -v docker-compose >/dev/null 2>&1; then
      as_root "installing docker-compose"
      step "Installing Debian's docker-compose"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
    fi
    COMPOSE=(docker-compose)
  fi
  local port url
  port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  url="http://127.0.0.1:$port"
  export COMPOSE_PROJECT_NAME="docintel-smoke-$$"
  # Compose v1 needs compose.yaml's nested defaults restated (docker/compose.v1.yaml).
  COMPOSE_FILE="compose.yaml"
  [ "${COMPOSE[*]}" = docker-compose ] && COMPOSE_FILE+=":docker/compose.v1.yaml"
  export COMPOSE_FILE="$COMPOSE_FILE:docker/compose.no-minio.yaml:docker/compose.local-images.yaml"
  export DOCINTEL_IMAGE="$APP_IMAGE" DOCINTEL_POSTGRES_IMAGE="$POSTGRES_IMAGE" DOCINTEL_NATS_IMAGE="$NATS_IMAGE" DOCINTEL_PORT="$port"

  step "${COMPOSE[*]} up ($COMPOSE_FILE, gateway on $url)"
  "${COMPOSE[@]}" up --detach --no-build
  # The gateway starts last, once every other app is healthy; `welcome` runs once it is.
  local status=""
  for _ in $(seq 1 300); do
    status="$(docker inspect --format '{{.State.Status}} {{.State.ExitCode}}' "$("${COMPOSE[@]}" ps -q welcome)" 2>/dev/null || true)"
    [ "$status" = "exited 0" ] && break
    sleep 1
  done
  if [ "$status" != "exited 0" ] || ! curl -fsS "$url/health/ready" >/dev/null; then
    "${COMPOSE[@]}" ps >&2
    "${COMPOSE[@]}" logs --tail 30 >&2
    echo "test-containers: the compose project did not come up (welcome: ${status:-not started})" >&2
    exit 1
  fi
  "${COMPOSE[@]}" logs --no-color welcome | grep -F "docintel is running at http://localhost:$port" >/dev/null || {
    echo "test-containers: welcome did not print the gateway's URL (port $port)" >&2
    exit 1
  }
  step "Smoke suite against the compose project"
  TEST_COMPOSE_PROJECT="$COMPOSE_PROJECT_NAME" TEST_BASE_URL="$url" \
    npx jest --selectProjects e2e --runInBand test-e2e/smoke.e2e-spec.ts
  step "${COMPOSE[*]} down"
  compose_down
}

step "Docker engine"
start_engine
[ "$MODE" = engine ] && exit 0
build_images
if [ "$MODE" = images ]; then
  printf 'TEST_USE_DOCKER=1\nTEST_POSTGRES_IMAGE=%s\nTEST_NATS_IMAGE=%s\nTEST_APP_IMAGE=%s\n' "$POSTGRES_IMAGE" "$NATS_IMAGE" "$APP_IMAGE"
  exit 0
fi
case "$MODE" in
  suites) run_suites ;;
  compose) run_compose ;;
  all)
    run_suites
    run_compose
    ;;
esac
step "Done"
