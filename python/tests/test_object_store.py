"""Arrays read through object-store URLs: an S3-compatible server (moto's
server mode, in the engine's venv), configured from the environment as
users configure it, and file:// URLs."""

import os
import socket
import subprocess
import sys
import time

import pytest

import tiledb_codec
from conftest import ROOT, table_cells

FIX = ROOT / "tests" / "fixtures" / "v22"


@pytest.fixture
def moto_endpoint():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.time() < deadline, "moto's server did not answer"
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.kill()
        server.wait()


def test_an_s3_url_reads_as_the_local_array(moto_endpoint, monkeypatch):
    import boto3

    env = {"AWS_ENDPOINT_URL": moto_endpoint, "AWS_ALLOW_HTTP": "true", "AWS_ACCESS_KEY_ID": "test",
           "AWS_SECRET_ACCESS_KEY": "test", "AWS_REGION": "us-east-1"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    s3 = boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1")
    s3.create_bucket(Bucket="arrays")
    for name in ("dense_var_nullable", "sparse_strdim"):
        for path in (FIX / name).rglob("*"):
            if path.is_file():
                s3.upload_file(str(path), "arrays", f"{name}/{path.relative_to(FIX / name)}")
        remote = tiledb_codec.open(f"s3://arrays/{name}")
        local = tiledb_codec.open(FIX / name)
        assert remote.schema == local.schema
        assert table_cells(remote.read()) == table_cells(local.read()), name
    with pytest.raises(tiledb_codec.TileDBCodecError):
        tiledb_codec.open("s3://arrays/not_there")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "wrong")
    with pytest.raises(tiledb_codec.TileDBCodecError):
        tiledb_codec.open("s3://nobucket/dense_var_nullable", config={"aws_endpoint": "http://127.0.0.1:1"})


def test_a_file_url_reads_as_the_path():
    url = "file://" + os.path.abspath(FIX / "sparse_int_2d")
    assert table_cells(tiledb_codec.open(url).read()) == table_cells(tiledb_codec.open(FIX / "sparse_int_2d").read())


def test_compat_reads_s3_with_tiledb_pys_config_keys(moto_endpoint, monkeypatch):
    # The endpoint, scheme, region and keys only as TileDB's vfs.s3.*
    # parameters (none in the environment): compat maps them to the object
    # store's options.
    import boto3

    import tiledb_codec.compat as tiledb

    for k in list(os.environ):
        if k.startswith("AWS_"):
            monkeypatch.delenv(k)
    s3 = boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1", aws_access_key_id="test",
                      aws_secret_access_key="test")
    s3.create_bucket(Bucket="compat")
    name = "sparse_int_2d"
    for path in (FIX / name).rglob("*"):
        if path.is_file():
            s3.upload_file(str(path), "compat", f"{name}/{path.relative_to(FIX / name)}")
    cfg = tiledb.Config({"vfs.s3.endpoint_override": moto_endpoint.split("://")[1], "vfs.s3.scheme": "http",
                         "vfs.s3.region": "us-east-1", "vfs.s3.aws_access_key_id": "test",
                         "vfs.s3.aws_secret_access_key": "test", "vfs.s3.use_virtual_addressing": "false"})
    with tiledb.open(f"s3://compat/{name}", ctx=tiledb.Ctx(cfg)) as A, tiledb.open(str(FIX / name)) as L:
        assert A.schema == L.schema
        remote, local = A[:], L[:]
        assert list(remote) == list(local)
        for k in local:
            assert remote[k].tolist() == local[k].tolist(), k
