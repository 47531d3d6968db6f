"""The benchmarks' results as JSON: one file per run, rendered to the
docs' benchmark chapter by bench/report.py.

Every bench script that prints a table also calls `write(...)`, which
writes {"bench", "title", "date", "machine", "engine", "params",
"columns", "rows", "notes"} to bench/results/<bench>-<UTC time>.json, or
to the path in the environment variable BENCH_JSON (a folder: the file
goes there under the same name; "-": no file).
"""
import datetime
import json
import os
import platform

HERE = os.path.dirname(os.path.abspath(__file__))


def load_average():
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def machine(load_before):
    """What the run ran on: cores, CPU model, memory, OS, the load before it."""
    cpu_model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu_model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem_gib = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem_gib = round(int(line.split()[1]) / (1 << 20), 1)
                    break
    except OSError:
        pass
    return {
        "cpus": os.cpu_count(),
        "cpu_model": cpu_model,
        "mem_gib": mem_gib,
        "os": f"{platform.system()} {platform.release()}",
        "load_before": load_before,
    }


def engine_version():
    import tiledb

    return f"TileDB-Py {tiledb.__version__} / TileDB {'.'.join(map(str, tiledb.libtiledb.version()))}"


def write(bench, title, params, columns, rows, notes=(), load_before=None, date=None):
    """Writes one run's results; returns the path written (None for BENCH_JSON=-)."""
    date = date or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    doc = {
        "bench": bench,
        "title": title,
        "date": date,
        "machine": machine(load_before),
        "engine": engine_version(),
        "params": params,
        "columns": list(columns),
        "rows": [list(r) for r in rows],
        "notes": list(notes),
    }
    target = os.environ.get("BENCH_JSON", os.path.join(HERE, "results"))
    if target == "-":
        return None
    name = f"{bench}-{date.replace(':', '').replace('-', '')}.json"
    path = os.path.join(target, name) if os.path.isdir(target) or not target.endswith(".json") else target
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"results: {path}", flush=True, file=__import__("sys").stderr)
    return path


def num(x, digits=4):
    """A float rounded for the JSON (None stays None)."""
    return None if x is None else round(float(x), digits)
