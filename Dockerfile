# A container with the qilin binary (engine, match runner and match-merge), for the sharded
# matches of scripts/kubernetes/ or any cluster. Untested here (no Docker engine on the
# development machine); see README, "Matches on a cluster".
#
#   docker build -t qilin .
#   docker run --rm qilin bench
#
# Build stage: the locked dependencies and a release build (LTO, as Cargo.toml sets).
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY data ./data
COPY tests ./tests
RUN cargo build --release --locked --bin qilin

# Run stage: Debian slim with the binary and the opening files (for --openings paths).
FROM debian:bookworm-slim
COPY --from=build /src/target/release/qilin /usr/local/bin/qilin
COPY data /opt/qilin/data
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/qilin"]
