# syntax=docker/dockerfile:1
# The veletas image: the one `veletas` binary on a slim Debian, for scripts/tournament-k8s.yaml.
#
#   docker build -t veletas:latest .
#   docker run --rm veletas:latest --help
#
# The engines of a tournament are commands inside the container: `veletas --player uct` and the
# like are the same binary (on PATH as /usr/local/bin/veletas); an engine of another kind needs an
# image built FROM this one that adds it. Build and push: docs/tournament.md, "A container image".

# Build stage: the official Rust image of the toolchain the project is tested with, on the same
# Debian release as the runtime (the binary links glibc dynamically).
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
# The cargo registry and target directory are BuildKit caches: a rebuild after a source change
# does not download or compile the dependencies again. The binary leaves the cache by cp.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin veletas \
    && cp target/release/veletas /usr/local/bin/veletas

# Runtime stage: nothing but the binary (it needs glibc, libgcc_s and libm, all in the slim image).
FROM debian:bookworm-slim
LABEL org.opencontainers.image.title="veletas" \
      org.opencontainers.image.description="Veletas engine and tournament referee"
COPY --from=build /usr/local/bin/veletas /usr/local/bin/veletas
# Not root: a numeric user (no passwd entry needed), so Kubernetes' runAsNonRoot can check it.
USER 10001:10001
ENTRYPOINT ["veletas"]
