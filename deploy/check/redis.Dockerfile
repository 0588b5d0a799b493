# valkey/valkey:8 for `make deploy-check` where no registry is reachable:
# Debian's redis-server (7.0, the same protocol) on the same base, started as
# the official image starts its server (no config file, so protected mode off:
# the other containers reach it over the compose network).
FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* \
 && printf '#!/bin/sh\nexec redis-server "$@" --protected-mode no\n' > /usr/local/bin/valkey-server \
 && chmod +x /usr/local/bin/valkey-server \
 && ln -s /usr/bin/redis-cli /usr/local/bin/valkey-cli \
 && mkdir -p /data
WORKDIR /data
