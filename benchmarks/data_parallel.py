#!/usr/bin/env python3
"""Data parallel on this machine (issue 13): one process against two (`train --nproc 2`, Gloo over
loopback), with and without a sharded optimizer state, at the same effective batch.

Throughput is the run store's samples/s per step (rank 0 records the whole step's examples),
averaged after the warm-up steps; optimizer-state memory is what rank 0 measured after its first
optimizer step (runs.measured_json), beside the forecast the run started with
(runs.forecast_json, per process). On one 2-core machine two processes share the same cores, so
this measures the overhead of the collective, not a speed-up; the same command on a machine with
several GPUs (`--device cuda`) gives each rank its own GPU and NCCL.

Usage: benchmarks/data_parallel.sh [--steps 30] [--device cpu|cuda]
"""
import argparse
import json
import sqlite3
import tempfile
from pathlib import Path

import bench_common as common

EFFECTIVE_BATCH = 16  # examples per optimizer step, whatever the number of processes
MAX_LENGTH = 128


def run_figures(database):
    with sqlite3.connect(database) as db:
        speeds = [row[0] for row in db.execute("SELECT samples_per_second FROM steps WHERE run_id = 1 ORDER BY step")]
        measured, forecast, config = db.execute(
            "SELECT measured_json, forecast_json, config_json FROM runs WHERE id = 1").fetchone()
    timed = speeds[common.WARMUP_STEPS:]
    return {"samples_per_second": sum(timed) / len(timed),
            "optimizer_state_mib": json.loads(measured)["optimizer_state"] / common.MIB,
            "forecast_optimizer_state_mib": json.loads(forecast)["optimizer_state"] / common.MIB,
            "world_size": json.loads(config).get("world_size", 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    common.require_data(args.data)
    threads = common.os.cpu_count()
    results = {"machine": common.machine(), "device": args.device, "steps": args.steps,
               "effective_batch": EFFECTIVE_BATCH, "max_length": MAX_LENGTH, "rows": []}
    rows = [("1 process", 1, False), ("2 processes", 2, False), ("2 processes, sharded optimizer", 2, True)]
    with tempfile.TemporaryDirectory(prefix="bert-dp-") as scratch:
        scratch = Path(scratch)
        train, validation = common.stratified_split(args.data, scratch / "data",
                                                    train_limit=args.steps * EFFECTIVE_BATCH, validation_limit=64)
        folder = common.classifier_folder("minilm", scratch / "minilm-start")
        for name, processes, sharded in rows:
            database = scratch / f"{processes}-{sharded}.sqlite"
            settings = {"max_length": MAX_LENGTH, "batch_size": EFFECTIVE_BATCH // processes,
                        "max_steps": args.steps, "lr": 1e-4, "seed": 42, "evals_per_epoch": 1,
                        "nproc": processes, "shard_optimizer": sharded, "device": args.device,
                        # Each process gets its share of the cores (the launcher's default too).
                        "threads": max(1, threads // processes)}
            common.run_logged([str(common.CLI), "--db", str(database), "train", "--model", str(folder),
                               "--train", str(train), "--validation", str(validation), "--no-checkpoints",
                               *common.flags(settings)])
            row = {"name": name, "processes": processes, "sharded": sharded, **run_figures(database)}
            results["rows"].append(row)
            print(f"{name:32} samples/s {row['samples_per_second']:6.2f}; optimizer state on rank 0 "
                  f"{row['optimizer_state_mib']:6.1f} MiB (forecast {row['forecast_optimizer_state_mib']:6.1f})",
                  flush=True)
    common.save(f"data_parallel-{args.device.split(':')[0]}", results)


if __name__ == "__main__":
    main()
