# PostgreSQL 15 from Debian with pgvector built from the vendored source, for Testcontainers and
# compose where no registry is reachable (scripts/test-containers.sh). It takes the official postgres
# image's variables (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA) and its data directory,
# and runs as the postgres user. Context: this directory plus pgvector.tar.gz.
ARG BASE_IMAGE=docintel-local/debian:bookworm

# pgvector needs the server headers. Their package depends on clang and LLVM (for JIT bitcode, which
# with_llvm=no leaves out): unpacked alone instead of installed, and built in a stage of its own so
# that only the extension's files reach the image.
FROM ${BASE_IMAGE} AS pgvector
COPY pgvector.tar.gz /tmp/
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-client-15 gcc make libc6-dev \
 && cd /tmp && apt-get download postgresql-server-dev-15 && dpkg-deb -x postgresql-server-dev-15_*.deb / \
 && mkdir /tmp/pgvector && tar -xzf /tmp/pgvector.tar.gz -C /tmp/pgvector --strip-components=1 \
 && make -C /tmp/pgvector -j"$(nproc)" with_llvm=no OPTFLAGS= PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config \
 && make -C /tmp/pgvector with_llvm=no OPTFLAGS= PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config DESTDIR=/out install

FROM ${BASE_IMAGE}
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
COPY --from=pgvector /out/usr/ /usr/
# No cluster from the package: the entrypoint initialises PGDATA on first start, as the official image does.
RUN mkdir -p /etc/postgresql-common \
 && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* /usr/share/doc /usr/share/man \
 && mkdir -p "$PGDATA" /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql \
 && chmod 0700 "$PGDATA" \
 && chmod 0755 /usr/local/bin/docker-entrypoint.sh \
 && test -f /usr/share/postgresql/15/extension/vector.control
USER postgres
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
