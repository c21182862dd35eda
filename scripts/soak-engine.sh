#!/bin/sh
# One soak engine: Qilin ($SOAK_QILIN) under GNU time, which appends "NAME:<peak KB>" to
# $SOAK_MEM when the process exits. Paths come from the environment so that the engine's
# command line (part of a match's settings fingerprint) is the same on every machine and for
# every shard. Usage (by scripts/soak.sh): soak-engine.sh NAME
exec /usr/bin/time -a -o "$SOAK_MEM" -f "$1:%M" "$SOAK_QILIN"
