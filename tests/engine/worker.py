"""Runs engine scripts one after another in one Python process.

The integration tests start this once per test thread (tests/it/common,
`engine_run`) instead of a new interpreter for each script: importing
TileDB-Py, numpy and pyarrow costs about 0.3 s of CPU per process, and the
tests run the engine's scripts hundreds of times.

Requests come on standard input, one JSON line each: {"argv": [SCRIPT,
ARG...]}. The script runs as `python SCRIPT ARG...` would run it
(`__name__ == "__main__"`, sys.argv, the script's folder first on
sys.path) with its standard output and error captured. The answer goes to
the standard output this process started with: a JSON line {"code": EXIT,
"out": N, "err": M} followed by the N bytes the script wrote to standard
output and the M bytes to standard error. File descriptor 1 itself is
pointed at /dev/null, so that nothing the C++ library prints can break an
answer.
"""

import io
import json
import os
import runpy
import sys
import traceback


def run(argv):
    out, err = io.BytesIO(), io.BytesIO()
    stdout, stderr = sys.stdout, sys.stderr
    path, saved_argv = list(sys.path), sys.argv
    text_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    text_err = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    sys.stdout, sys.stderr = text_out, text_err
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
    code = 0
    try:
        runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        if e.code is None:
            code = 0
        elif isinstance(e.code, int):
            code = e.code
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException:  # noqa: B036 - a script's failure is its exit code 1
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr, text_out, text_err):
            try:
                stream.flush()
            except Exception:
                pass
        sys.stdout, sys.stderr = stdout, stderr
        # Detached, a wrapper no longer closes its buffer when it goes.
        for stream in (text_out, text_err):
            try:
                stream.detach()
            except Exception:
                pass
        sys.path[:], sys.argv = path, saved_argv
    return code, out.getvalue(), err.getvalue()


def main():
    answers = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)
    sys.stdout = io.TextIOWrapper(open(os.devnull, "wb"), encoding="utf-8")
    for line in sys.stdin.buffer:
        request = json.loads(line)
        code, out, err = run(request["argv"])
        head = json.dumps({"code": code, "out": len(out), "err": len(err)})
        answers.write(head.encode() + b"\n" + out + err)
        answers.flush()


if __name__ == "__main__":
    main()
