# syntax=docker/dockerfile:1
# Kortbord API image:  docker build -t kortbord .   (or: docker compose up --build)

FROM rust:1-bookworm AS builder
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# Cache mounts keep the registry and build artefacts between builds (BuildKit);
# the binary is copied out of the cached target directory.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p kortbord-api --bin kortbord \
 && install -m 0755 target/release/kortbord /usr/local/bin/kortbord

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq5 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 kortbord \
 && useradd --system --uid 10001 --gid kortbord --home-dir /nonexistent --no-create-home \
      --shell /usr/sbin/nologin kortbord
COPY --from=builder /usr/local/bin/kortbord /usr/local/bin/kortbord
USER 10001:10001
# The binary binds HOST (default 127.0.0.1): listen on all interfaces in a container.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    RUST_LOG=info
EXPOSE 8080
# No curl in this image: a plain HTTP/1.1 request through bash's /dev/tcp.
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-8080} && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
CMD ["kortbord"]
