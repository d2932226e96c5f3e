# NATS with JetStream from Debian's nats-server, for Testcontainers and compose where no registry is
# reachable (scripts/test-containers.sh). Accepts the official nats image's commands: options alone
# (`-js`) or `nats-server ...`; wget is there for compose.yaml's healthcheck. Runs as the package's
# user nats.
ARG BASE_IMAGE=docintel-local/debian:bookworm
FROM ${BASE_IMAGE}
COPY nats-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nats-server wget \
 && rm -rf /var/lib/apt/lists/* /usr/share/doc /usr/share/man \
 && mkdir -p /data && chown nats:nats /data \
 && chmod 0755 /usr/local/bin/docker-entrypoint.sh
USER nats
WORKDIR /data
EXPOSE 4222 6222 8222
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["nats-server", "-js", "-sd", "/data"]
