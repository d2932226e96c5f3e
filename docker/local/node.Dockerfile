# The Node.js base for docker/Dockerfile where no registry is reachable (scripts/test-containers.sh):
# the local Debian base plus this machine's own Node.js, laid out as the official node image has it
# (/usr/local/bin/node, npm beside it, user node with uid 1000), and this machine's CA certificates,
# so that `npm ci` in the build trusts what npm on the machine trusts (a TLS-inspecting proxy's CA,
# for instance). Context: rootfs/, assembled by the script.
ARG BASE_IMAGE=docintel-local/debian:bookworm
FROM ${BASE_IMAGE}
COPY rootfs/ /
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/sh --create-home node \
 && node --version && npm --version
CMD ["node"]
